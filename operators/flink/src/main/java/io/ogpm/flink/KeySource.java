package io.ogpm.flink;

import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.mechanism.random.SecretKeys;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Where a Flink task finds the keyed-mode secret: a file or an environment variable on the task
 * manager. Only the location travels with the job graph; the secret is read in {@code open()} on
 * the task manager, so it never appears in the job's configuration, its web UI or its checkpoints.
 */
@PublicEvolving
public final class KeySource implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final String environmentVariable;

  private KeySource(String file, String environmentVariable) {
    this.file = file;
    this.environmentVariable = environmentVariable;
  }

  /** No key: the secure default randomness. */
  public static KeySource none() {
    return new KeySource(null, null);
  }

  public static KeySource file(Path file) {
    return new KeySource(file.toAbsolutePath().toString(), null);
  }

  public static KeySource environment(String variable) {
    return new KeySource(null, variable);
  }

  /** Whether this source holds a key: keyed (replay-safe) randomness, which needs record ids. */
  public boolean isKeyed() {
    return file != null || environmentVariable != null;
  }

  /**
   * The randomness this source implies, reading the secret now: what the operators call in {@code
   * open()} on the task manager.
   */
  @Internal
  public RandomnessMode load() {
    if (file == null && environmentVariable == null) {
      return RandomnessMode.secure();
    }
    byte[] secret =
        file != null
            ? SecretKeys.fromFile(Path.of(file))
            : SecretKeys.fromEnvironment(environmentVariable);
    try {
      return RandomnessMode.keyed(secret);
    } finally {
      // The mode keeps its own copy (destroyed by its owner): this one is erased now.
      Arrays.fill(secret, (byte) 0);
    }
  }

  @Override
  public String toString() {
    return file != null
        ? "key file " + file
        : environmentVariable != null ? "key in $" + environmentVariable : "secure random";
  }
}
