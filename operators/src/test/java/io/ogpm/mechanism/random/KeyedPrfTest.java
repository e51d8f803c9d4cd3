package io.ogpm.mechanism.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** Keyed mode: deterministic per (key, id, field), independent across any change of them. */
class KeyedPrfTest {
  static final int N = 200_000;
  /** Chi-square critical value for 255 degrees of freedom at p = 0.001. */
  static final double CHI2_255_999 = 330.52;

  private static KeyedPrf prf(String secret) {
    return KeyedPrf.fromSecret(secret.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void sipHashMatchesTheReferenceVectors() {
    // Key 00 01 .. 0f; messages 00 01 .. (n-1); expected outputs from the SipHash paper's vectors.
    long k0 = 0x0706050403020100L;
    long k1 = 0x0f0e0d0c0b0a0908L;
    assertThat(sip(k0, k1, 0)).isEqualTo(0x726fdb47dd0e0e31L);
    assertThat(sip(k0, k1, 15)).isEqualTo(0xa129ca6149be45e5L);
  }

  private static long sip(long k0, long k1, int length) {
    SipHash24 h = new SipHash24(k0, k1);
    for (int i = 0; i < length; i++) {
      h.addByte(i);
    }
    return h.finish();
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
    assertThat(a.finish()).isEqualTo(b.finish());
  }

  @Test
  void sameKeyIdAndFieldGiveTheSameDraw() {
    KeyedPrf one = prf("0123456789abcdef-secret");
    KeyedPrf same = prf("0123456789abcdef-secret");
    for (int i = 0; i < 1000; i++) {
      assertThat(one.uniform("id-" + i, "roll")).isEqualTo(same.uniform("id-" + i, "roll"));
    }
  }

  @Test
  void anotherKeyGivesAnIndependentDraw() {
    KeyedPrf a = prf("0123456789abcdef-secret");
    KeyedPrf b = prf("0123456789abcdef-secreT");
    assertIndependentUniforms(i -> a.uniform("id-" + i, "roll"), i -> b.uniform("id-" + i, "roll"));
  }

  @Test
  void anotherIdGivesAnIndependentDraw() {
    KeyedPrf a = prf("0123456789abcdef-secret");
    assertIndependentUniforms(i -> a.uniform("id-" + i, "roll"), i -> a.uniform("id-" + (i + N), "roll"));
  }

  @Test
  void anotherFieldGivesAnIndependentDraw() {
    KeyedPrf a = prf("0123456789abcdef-secret");
    assertIndependentUniforms(i -> a.uniform("id-" + i, "roll"), i -> a.uniform("id-" + i, "pitch"));
    // Field and id are not concatenated ambiguously: ("ab", "c") and ("a", "bc") differ.
    assertIndependentUniforms(i -> a.uniform("c" + i, "ab"), i -> a.uniform("bc" + i, "a"));
  }

  @Test
  void shortSecretsAreRefused() {
    assertThatThrownBy(() -> KeyedPrf.fromSecret(new byte[15]))
        .hasMessageContaining("at least 16 bytes, got 15");
    assertThat(prf("0123456789abcdef").toString()).doesNotContain("0123456789abcdef");
  }

  /**
   * Both marginals uniform (16 bins) and the joint distribution uniform on a 16 x 16 grid: a
   * chi-square test at p = 0.001 each, on N pairs; plus the correlation within 4 / sqrt(N).
   */
  static void assertIndependentUniforms(IntToDoubleFunction first, IntToDoubleFunction second) {
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
    assertThat(chiSquare(joint)).as("joint chi-square").isLessThan(CHI2_255_999);
    // 15 degrees of freedom at p = 0.001.
    assertThat(chiSquare(left)).as("first marginal").isLessThan(37.70);
    assertThat(chiSquare(right)).as("second marginal").isLessThan(37.70);
    double cov = sxy / N - (sx / N) * (sy / N);
    double r = cov / Math.sqrt((sxx / N - (sx / N) * (sx / N)) * (syy / N - (sy / N) * (sy / N)));
    assertThat(Math.abs(r)).as("correlation").isLessThan(4 / Math.sqrt(N));
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
