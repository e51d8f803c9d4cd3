package io.ogpm.mechanism.random;

import io.ogpm.annotation.Internal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A cryptographically secure generator: AES-128 in counter mode, keyed once, producing the
 * keystream in 8 KiB blocks (the JDK's AES-CTR uses the AES-NI intrinsics where the CPU has them,
 * so a block costs well under a nanosecond per output word). The keystream of AES-CTR under a
 * uniformly random key is indistinguishable from random bits for far more than 2^40 blocks; the
 * counter is 128 bits wide and never wraps in practice.
 *
 * <p>{@link #secure()} takes its key and counter from {@link SecureRandom}: the production default.
 * {@link #seeded(long)} derives them from a seed by SHA-256: reproducible, for tests and
 * experiments only (anyone who knows the seed can predict every output).
 */
@Internal
public final class AesCtrSource implements RandomBits {
  private static final int BLOCK_BYTES = 8192;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final byte[] ZEROS = new byte[BLOCK_BYTES];

  private final Cipher cipher;
  private final byte[] buffer = new byte[BLOCK_BYTES];
  private int position = BLOCK_BYTES;

  private AesCtrSource(byte[] key, byte[] counter) {
    try {
      cipher = Cipher.getInstance("AES/CTR/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(counter));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/CTR/NoPadding is unavailable in this JVM", e);
    }
  }

  /** Keyed from the platform's {@link SecureRandom}: the production source. */
  public static AesCtrSource secure() {
    SecureRandom seeder = new SecureRandom();
    byte[] key = new byte[16];
    byte[] counter = new byte[16];
    seeder.nextBytes(key);
    seeder.nextBytes(counter);
    return new AesCtrSource(key, counter);
  }

  /** Deterministic from a seed: for tests and reproducible experiments, never for production. */
  public static AesCtrSource seeded(long seed) {
    byte[] digest = sha256(("ogpm-seeded-v1:" + seed).getBytes(StandardCharsets.UTF_8));
    byte[] key = java.util.Arrays.copyOfRange(digest, 0, 16);
    byte[] counter = java.util.Arrays.copyOfRange(digest, 16, 32);
    return new AesCtrSource(key, counter);
  }

  /** A source with an explicit key and initial counter block (known-answer tests). */
  static AesCtrSource withKey(byte[] key, byte[] counter) {
    return new AesCtrSource(key.clone(), counter.clone());
  }

  @Override
  public long nextLong() {
    if (position == BLOCK_BYTES) {
      refill();
    }
    long v = (long) LONGS.get(buffer, position);
    position += 8;
    return v;
  }

  private void refill() {
    try {
      int n = cipher.update(ZEROS, 0, BLOCK_BYTES, buffer, 0);
      if (n != BLOCK_BYTES) {
        throw new IllegalStateException(
            "AES-CTR produced " + n + " bytes, expected " + BLOCK_BYTES);
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR keystream failed", e);
    }
    position = 0;
  }

  static byte[] sha256(byte[] input) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is unavailable in this JVM", e);
    }
  }
}
