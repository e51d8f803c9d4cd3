package io.ogpm.mechanism.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * Keyed mode: deterministic per (key, field, mechanism, id, user, value), independent across any
 * change of them.
 */
class KeyedPrfTest {
  static final int N = 200_000;

  /** Chi-square critical value for 255 degrees of freedom at p = 0.001. */
  static final double CHI2_255_999 = 330.52;

  private static KeyedPrf prf(String secret) {
    return KeyedPrf.fromSecret(secret.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void sipHash128MatchesTheReferenceVectors() {
    // Key 00 01 .. 0f; message 00 01 .. (n-1); vectors_sip128 of the reference implementation.
    assertThat(sip128(0)).isEqualTo("a3817f04ba25a8e66df67214c7550293");
    assertThat(sip128(1)).isEqualTo("da87c1d86b99af44347659119b22fc45");
    assertThat(sip128(2)).isEqualTo("8177228da4a45dc7fca38bdef60affe4");
    assertThat(sip128(15)).isEqualTo("5493e99933b0a8117e08ec0f97cfc3d9");
  }

  private static String sip128(int length) {
    SipHash24 h = new SipHash24(0x0706050403020100L, 0x0f0e0d0c0b0a0908L);
    for (int i = 0; i < length; i++) {
      h.addByte(i);
    }
    long[] out = new long[2];
    h.finish(out);
    StringBuilder hex = new StringBuilder();
    for (long word : out) {
      for (int i = 0; i < 8; i++) {
        hex.append(String.format("%02x", (word >>> (8 * i)) & 0xFF));
      }
    }
    return hex.toString();
  }

  @Test
  void unitsAndBytesHashAlike() {
    SipHash24 a = new SipHash24(1, 2);
    SipHash24 b = new SipHash24(1, 2);
    String s = "héllo wörld, ∑ unicode";
    for (int i = 0; i < s.length(); i++) {
      a.addUnit(s.charAt(i));
      b.addByte(s.charAt(i));
      b.addByte(s.charAt(i) >>> 8);
    }
    long[] ta = new long[2];
    long[] tb = new long[2];
    a.finish(ta);
    b.finish(tb);
    assertThat(ta).isEqualTo(tb);
  }

  private static final Identifier USER = Identifier.string("alice");

  private static Identifier id(int i) {
    return Identifier.string("id-" + i);
  }

  /** The first two words of a record's stream. */
  private static long[] firstBlock(KeyedPrf.Field f, Identifier id, Identifier user, double value) {
    RandomBits b = f.forRecord(id, user, value);
    return new long[] {b.nextLong(), b.nextLong()};
  }

  @Test
  void theMessageIsTheDocumentedLayout() {
    // An independent byte-level encoder of the layout in KeyedPrf's javadoc, and the key
    // derivation.
    byte[] secret = "0123456789abcdef-secret".getBytes(StandardCharsets.UTF_8);
    byte[] digest =
        AesCtrSource.sha256(
            ("ogpm-keyed-prf-v2" + "0123456789abcdef-secret").getBytes(StandardCharsets.UTF_8));
    ByteBuffer key = ByteBuffer.wrap(digest).order(ByteOrder.LITTLE_ENDIAN);
    long k0 = key.getLong(0);
    long k1 = key.getLong(8);
    Object[][] cases = {
      {"accel_x", "ogpm{l1}", Identifier.string("r-1"), Identifier.string("alice"), 0.25},
      {"attitude.roll", "", Identifier.integer(-42), Identifier.NONE, -0.0},
      {
        "t",
        "m",
        Identifier.integer(new BigInteger("123456789012345678901234567890")),
        Identifier.string("\u00e9\ud800\u0000"),
        1e-300
      },
    };
    for (Object[] c : cases) {
      KeyedPrf.Field f = KeyedPrf.fromSecret(secret).forField((String) c[0], (String) c[1]);
      RandomBits bits = f.forRecord((Identifier) c[2], (Identifier) c[3], (double) c[4]);
      for (long block = 0; block < 3; block++) {
        ByteBuffer m = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        putTagged(m, 'F', (String) c[0]);
        putTagged(m, 'M', (String) c[1]);
        Identifier id = (Identifier) c[2];
        putTagged(m, id.tag(), id.text());
        Identifier user = (Identifier) c[3];
        putTagged(m, user.tag(), user.text());
        double value = (double) c[4];
        m.putLong(Double.doubleToLongBits(value == 0 ? 0.0 : value));
        m.putLong(block);
        SipHash24 h = new SipHash24(k0, k1);
        for (int i = 0; i < m.position(); i++) {
          h.addByte(m.get(i));
        }
        long[] expected = new long[2];
        h.finish(expected);
        assertThat(new long[] {bits.nextLong(), bits.nextLong()})
            .as("%s block %s", c[0], block)
            .isEqualTo(expected);
      }
    }
  }

  private static void putTagged(ByteBuffer m, int tag, String s) {
    m.putLong(((long) tag << 56) | s.length());
    for (int i = 0; i < s.length(); i++) {
      m.putChar(s.charAt(i));
    }
    while (m.position() % 8 != 0) {
      m.put((byte) 0);
    }
  }

  @Test
  void finishAfterLeavesTheStateAsItWas() {
    SipHash24 h = new SipHash24(3, 4);
    h.addChars("abc");
    long[] first = new long[2];
    long[] again = new long[2];
    long[] reference = new long[2];
    h.finishAfter(7, first);
    h.finishAfter(7, again);
    SipHash24 copy = h.copy();
    copy.addLong(7);
    copy.finish(reference);
    assertThat(first).isEqualTo(again).isEqualTo(reference);
  }

  @Test
  void aReplayGetsTheIdenticalBits() {
    KeyedPrf.Field one = prf("0123456789abcdef-secret").forField("roll", "m");
    KeyedPrf.Field same = prf("0123456789abcdef-secret").forField("roll", "m");
    KeyedPrf.RecordBits reused = one.newBits();
    for (int i = 0; i < 1000; i++) {
      double value = i / 1000.0;
      RandomBits a = one.forRecord(id(i), USER, value);
      RandomBits b =
          same.forRecord(Identifier.string("id-" + i), Identifier.string("alice"), value);
      reused.load(id(i), USER, value);
      for (int j = 0; j < 5; j++) {
        long word = a.nextLong();
        assertThat(b.nextLong()).isEqualTo(word);
        assertThat(reused.nextLong()).isEqualTo(word);
      }
    }
  }

  @Test
  void bitsOfAnUnloadedHolderAreRefused() {
    KeyedPrf.RecordBits bits = prf("0123456789abcdef-secret").forField("roll", "m").newBits();
    assertThatThrownBy(bits::nextLong).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anotherKeyGivesAnIndependentDraw() {
    KeyedPrf.Field a = prf("0123456789abcdef-secret").forField("roll", "m");
    KeyedPrf.Field b = prf("0123456789abcdef-secreT").forField("roll", "m");
    assertIndependentUniforms(i -> a.uniform(id(i), USER, 0.5), i -> b.uniform(id(i), USER, 0.5));
  }

  @Test
  void anotherIdGivesAnIndependentDraw() {
    KeyedPrf.Field a = prf("0123456789abcdef-secret").forField("roll", "m");
    assertIndependentUniforms(
        i -> a.uniform(id(i), USER, 0.5), i -> a.uniform(id(i + N), USER, 0.5));
    // The same digits as a string and as an integer are different ids.
    assertIndependentUniforms(
        i -> a.uniform(Identifier.string(Integer.toString(i)), USER, 0.5),
        i -> a.uniform(Identifier.integer(i), USER, 0.5));
  }

  @Test
  void anotherUserGivesAnIndependentDraw() {
    KeyedPrf.Field a = prf("0123456789abcdef-secret").forField("roll", "m");
    assertIndependentUniforms(
        i -> a.uniform(id(i), USER, 0.5), i -> a.uniform(id(i), Identifier.string("bob"), 0.5));
    assertIndependentUniforms(
        i -> a.uniform(id(i), Identifier.NONE, 0.5),
        i -> a.uniform(id(i), Identifier.string(""), 0.5));
  }

  /**
   * The leak this class exists to prevent: records that share an id (and user) but carry different
   * values must not share noise. Values one ulp apart, and values far apart.
   */
  @Test
  void anotherValueGivesAnIndependentDraw() {
    KeyedPrf.Field a = prf("0123456789abcdef-secret").forField("roll", "m");
    assertIndependentUniforms(
        i -> a.uniform(id(i), USER, 0.25), i -> a.uniform(id(i), USER, Math.nextUp(0.25)));
    assertIndependentUniforms(
        i -> a.uniform(id(i), USER, i / (double) N),
        i -> a.uniform(id(i), USER, 1 - i / (double) N));
  }

  @Test
  void anotherFieldOrMechanismGivesAnIndependentDraw() {
    KeyedPrf key = prf("0123456789abcdef-secret");
    KeyedPrf.Field roll = key.forField("roll", "m");
    KeyedPrf.Field pitch = key.forField("pitch", "m");
    assertIndependentUniforms(
        i -> roll.uniform(id(i), USER, 0.5), i -> pitch.uniform(id(i), USER, 0.5));
    KeyedPrf.Field rollEps2 = key.forField("roll", "m2");
    assertIndependentUniforms(
        i -> roll.uniform(id(i), USER, 0.5), i -> rollEps2.uniform(id(i), USER, 0.5));
  }

  /**
   * Crafted collisions of a naive concatenation: each pair would hash the same bytes without the
   * length headers, padding rules and type tags. Distinct messages give distinct 128-bit blocks (a
   * coincidence has probability 2^-128), so equal blocks would mean equal messages.
   */
  @Test
  void theEncodingSeparatesCraftedCollisions() {
    KeyedPrf key = prf("0123456789abcdef-secret");
    Identifier none = Identifier.NONE;
    // Boundary shifts between field, mechanism, id and user.
    assertDistinct(
        key.forField("ab", "m"),
        Identifier.string("c"),
        key.forField("a", "m"),
        Identifier.string("bc"));
    assertDistinct(
        key.forField("ab", ""),
        Identifier.string("c"),
        key.forField("a", "b"),
        Identifier.string("c"));
    assertDistinct(
        key.forField("abcd", "m"),
        Identifier.string(""),
        key.forField("abc", "m"),
        Identifier.string("d"));
    KeyedPrf.Field f = key.forField("x", "m");
    assertThat(firstBlock(f, Identifier.string("ab"), Identifier.string(""), 0.5))
        .isNotEqualTo(firstBlock(f, Identifier.string("a"), Identifier.string("b"), 0.5));
    // Trailing NULs look like the zero padding; lengths tell them apart.
    assertDistinct(f, Identifier.string("a"), f, Identifier.string("a\u0000"));
    assertDistinct(f, Identifier.string("a\u0000\u0000\u0000"), f, Identifier.string("a"));
    assertDistinct(f, Identifier.string(""), f, Identifier.string("\u0000\u0000\u0000\u0000"));
    // Unpaired surrogates, which UTF-8 would turn into '?'.
    assertDistinct(f, Identifier.string("\ud800"), f, Identifier.string("\udc00"));
    assertDistinct(f, Identifier.string("\ud800"), f, Identifier.string("?"));
    assertDistinct(f, Identifier.string("\ud83d\ude00"), f, Identifier.string("\ude00\ud83d"));
    // Types: string vs integer, empty string vs no user, big integers vs their digits.
    assertDistinct(f, Identifier.string("5"), f, Identifier.integer(5));
    assertDistinct(f, Identifier.string("0"), f, Identifier.integer(0));
    assertDistinct(f, Identifier.string("-0"), f, Identifier.integer(0));
    BigInteger big = BigInteger.TWO.pow(64).add(BigInteger.ONE);
    assertDistinct(f, Identifier.string(big.toString()), f, Identifier.integer(big));
    assertDistinct(f, Identifier.integer(big), f, Identifier.integer(big.negate()));
    assertThat(firstBlock(f, id(1), none, 0.5))
        .isNotEqualTo(firstBlock(f, id(1), Identifier.string(""), 0.5));
    assertThat(firstBlock(f, Identifier.string("u"), none, 0.5))
        .isNotEqualTo(firstBlock(f, none, Identifier.string("u"), 0.5));
    // The value: neighbours, and a value whose bits look like a header.
    assertThat(firstBlock(f, id(1), none, 0.5))
        .isNotEqualTo(firstBlock(f, id(1), none, Math.nextDown(0.5)));
    assertThat(firstBlock(f, id(1), none, Double.longBitsToDouble(((long) 'S' << 56) | 1)))
        .isNotEqualTo(firstBlock(f, id(1), none, 0.0));
  }

  private static void assertDistinct(
      KeyedPrf.Field f, Identifier id, KeyedPrf.Field g, Identifier other) {
    assertThat(firstBlock(f, id, USER, 0.5))
        .as("%s vs %s", id, other)
        .isNotEqualTo(firstBlock(g, other, USER, 0.5));
  }

  /**
   * One value, one identifier, whatever the representation: integers by value (-0 is 0; a long and
   * a BigInteger agree), and -0.0 is 0.0 (the mechanisms cannot tell them apart).
   */
  @Test
  void equalValuesInAnotherRepresentationAreAReplay() {
    KeyedPrf.Field f = prf("0123456789abcdef-secret").forField("x", "m");
    assertThat(firstBlock(f, Identifier.integer(new BigInteger("-0")), USER, 0.5))
        .isEqualTo(firstBlock(f, Identifier.integer(0), USER, 0.5));
    assertThat(firstBlock(f, Identifier.integer(BigInteger.valueOf(Long.MIN_VALUE)), USER, 0.5))
        .isEqualTo(firstBlock(f, Identifier.integer(Long.MIN_VALUE), USER, 0.5));
    assertThat(firstBlock(f, id(3), USER, -0.0)).isEqualTo(firstBlock(f, id(3), USER, 0.0));
    assertThat(Identifier.integer(5))
        .isEqualTo(Identifier.integer(BigInteger.valueOf(5)))
        .isNotEqualTo(Identifier.string("5"));
    assertThat(Identifier.string("secret-user").toString()).doesNotContain("secret-user");
  }

  @Test
  void shortSecretsAreRefused() {
    assertThatThrownBy(() -> KeyedPrf.fromSecret(new byte[15]))
        .hasMessageContaining("at least 16 bytes, got 15");
    assertThat(prf("0123456789abcdef").toString()).doesNotContain("0123456789abcdef");
  }

  @Test
  void aSecretOfOneRepeatedByteIsRefusedWithoutQuotingIt() {
    for (byte b : new byte[] {0, 'a', (byte) 0xFF}) {
      byte[] secret = new byte[32];
      java.util.Arrays.fill(secret, b);
      assertThatThrownBy(() -> KeyedPrf.fromSecret(secret))
          .hasMessage(
              "the secret key is one byte value repeated 32 times: not a secret; use at least 16 random bytes");
    }
    byte[] almost = new byte[16];
    almost[15] = 1;
    assertThat(KeyedPrf.fromSecret(almost)).isNotNull();
    assertThat(KeyedPrf.isOneByteRepeated(almost)).isFalse();
    assertThat(KeyedPrf.isOneByteRepeated(new byte[0])).isFalse();
  }

  @Test
  void successiveWordsOfARecordAreIndependent() {
    KeyedPrf.Field roll = prf("0123456789abcdef-secret").forField("roll", "m");
    // Words 1 and 2 (same block) and words 2 and 3 (across blocks).
    assertIndependentUniforms(
        i -> roll.forRecord(id(i), USER, 0.5).nextUniform(),
        i -> {
          RandomBits b = roll.forRecord(id(i), USER, 0.5);
          b.nextLong();
          return b.nextUniform();
        });
    assertIndependentUniforms(
        i -> {
          RandomBits b = roll.forRecord(id(i), USER, 0.5);
          b.nextLong();
          return b.nextUniform();
        },
        i -> {
          RandomBits b = roll.forRecord(id(i), USER, 0.5);
          b.nextLong();
          b.nextLong();
          return b.nextUniform();
        });
  }

  /**
   * Both marginals uniform (16 bins) and the joint distribution uniform on a 16 x 16 grid: a
   * chi-square test at p = 0.001 each, on N pairs; plus the correlation within 4 / sqrt(N).
   */
  static void assertIndependentUniforms(IntToDoubleFunction first, IntToDoubleFunction second) {
    assertIndependentUniforms(first, second, false);
  }

  /**
   * Chi-square tests of the joint and marginal 16-bin histograms and a correlation bound, at p =
   * 0.001 each for fixed inputs (a run is reproducible), or at p = 1e-6 each for {@code unseeded}
   * sources, which draw a new sample on every run: there a correct source fails a CI run about once
   * in 300,000, and a broken one (constant, correlated or badly skewed) still fails every time.
   */
  static void assertIndependentUniforms(
      IntToDoubleFunction first, IntToDoubleFunction second, boolean unseeded) {
    long[] joint = new long[256];
    long[] left = new long[16];
    long[] right = new long[16];
    double sx = 0;
    double sy = 0;
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < N; i++) {
      double x = first.applyAsDouble(i);
      double y = second.applyAsDouble(i);
      int bx = (int) (x * 16);
      int by = (int) (y * 16);
      joint[bx * 16 + by]++;
      left[bx]++;
      right[by]++;
      sx += x;
      sy += y;
      sxy += x * y;
      sxx += x * x;
      syy += y * y;
    }
    assertThat(chiSquare(joint))
        .as("joint chi-square")
        .isLessThan(unseeded ? 377.08 : CHI2_255_999);
    // 15 degrees of freedom at p = 0.001 or 1e-6.
    double marginal = unseeded ? 56.49 : 37.70;
    assertThat(chiSquare(left)).as("first marginal").isLessThan(marginal);
    assertThat(chiSquare(right)).as("second marginal").isLessThan(marginal);
    double cov = sxy / N - (sx / N) * (sy / N);
    double r = cov / Math.sqrt((sxx / N - (sx / N) * (sx / N)) * (syy / N - (sy / N) * (sy / N)));
    assertThat(Math.abs(r)).as("correlation").isLessThan((unseeded ? 4.89 : 4) / Math.sqrt(N));
  }

  static double chiSquare(long[] counts) {
    long total = 0;
    for (long c : counts) {
      total += c;
    }
    double expected = (double) total / counts.length;
    double chi = 0;
    for (long c : counts) {
      chi += (c - expected) * (c - expected) / expected;
    }
    return chi;
  }
}
