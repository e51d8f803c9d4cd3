package io.ogpm.mechanism.random;

import io.ogpm.annotation.Internal;
import java.util.Arrays;

/**
 * Where a perturber's randomness comes from: the secure default (AES-CTR keyed from SecureRandom),
 * keyed (a PRF of a secret key and of the field, record id, user and value: replay-safe), or seeded
 * (tests and experiments only).
 */
@Internal
public final class RandomnessMode {
  private final byte[] secret;
  private final Long seed;

  private RandomnessMode(byte[] secret, Long seed) {
    this.secret = secret;
    this.seed = seed;
  }

  /** AES-CTR keyed from SecureRandom: a fresh, unpredictable stream per perturber. */
  public static RandomnessMode secure() {
    return new RandomnessMode(null, null);
  }

  /** Keyed by a secret of at least 16 bytes, not all equal; records need an id. */
  public static RandomnessMode keyed(byte[] secret) {
    KeyedPrf.fromSecret(secret); // validates the length and refuses a repeated byte
    return new RandomnessMode(secret.clone(), null);
  }

  /** Reproducible from a seed: never for real data. */
  public static RandomnessMode seeded(long seed) {
    return new RandomnessMode(null, seed);
  }

  /** Whether records need an id. */
  public boolean isKeyed() {
    return secret != null;
  }

  /** The keyed PRF of this mode's secret (keyed mode only; the secret itself never leaves). */
  public KeyedPrf prf() {
    if (secret == null) {
      throw new IllegalStateException("not keyed randomness: " + this);
    }
    return KeyedPrf.fromSecret(secret);
  }

  /** A fresh random stream: secure, or seeded (not for keyed mode). */
  public AesCtrSource stream() {
    return seed != null ? AesCtrSource.seeded(seed) : AesCtrSource.secure();
  }

  /** Erases the secret held here. */
  public void destroy() {
    if (secret != null) {
      Arrays.fill(secret, (byte) 0);
    }
  }

  @Override
  public String toString() {
    return secret != null ? "keyed" : seed != null ? "seeded" : "secure";
  }
}
