package io.ogpm.mechanism.random;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AesCtrSourceTest {
  @Test
  void keystreamMatchesNistCounterModeVector() throws Exception {
    // NIST SP 800-38A, F.5.1 CTR-AES128.Encrypt, block 1: keystream = ciphertext XOR plaintext.
    byte[] key = hex("2b7e151628aed2a6abf7158809cf4f3c");
    byte[] counter = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    byte[] plain = hex("6bc1bee22e409f96e93d7e117393172a");
    byte[] cipher = hex("874d6191b620e3261bef6864990db6ce");
    AesCtrSource source = AesCtrSource.withKey(key, counter);
    long first = source.nextLong();
    long second = source.nextLong();
    for (int i = 0; i < 8; i++) {
      assertThat((byte) (first >>> (8 * i))).isEqualTo((byte) (plain[i] ^ cipher[i]));
      assertThat((byte) (second >>> (8 * i))).isEqualTo((byte) (plain[8 + i] ^ cipher[8 + i]));
    }
  }

  @Test
  void seededSourcesReproduceAndDiffer() {
    AesCtrSource a = AesCtrSource.seeded(1);
    AesCtrSource b = AesCtrSource.seeded(1);
    AesCtrSource c = AesCtrSource.seeded(2);
    boolean differs = false;
    for (int i = 0; i < 5000; i++) {
      long va = a.nextLong();
      assertThat(b.nextLong()).isEqualTo(va);
      differs |= c.nextLong() != va;
    }
    assertThat(differs).isTrue();
  }

  @Test
  void secureSourcesAreIndependentAndUniform() {
    AesCtrSource a = AesCtrSource.secure();
    AesCtrSource b = AesCtrSource.secure();
    KeyedPrfTest.assertIndependentUniforms(i -> a.nextUniform(), i -> b.nextUniform(), true);
  }

  @Test
  void uniformsAreMultiplesOfTwoToTheMinus53InTheUnitInterval() {
    AesCtrSource a = AesCtrSource.seeded(3);
    for (int i = 0; i < 100_000; i++) {
      double u = a.nextUniform();
      assertThat(u).isGreaterThanOrEqualTo(0).isLessThan(1);
      assertThat(u * 0x1.0p53).isEqualTo(Math.rint(u * 0x1.0p53));
    }
    assertThat(Uniforms.fromBits(-1L)).isEqualTo(1 - 0x1.0p-53);
    assertThat(Uniforms.fromBits(0L)).isEqualTo(0.0);
  }

  private static byte[] hex(String s) {
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
