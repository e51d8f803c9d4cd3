package io.ogpm.cli;

import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.mechanism.random.SecretKeys;
import java.nio.file.Path;
import java.util.Arrays;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** How a perturbing command gets its randomness: secure (default), keyed, or seeded. */
final class RandomnessOptions {
  @ArgGroup(exclusive = true)
  Choice choice;

  static final class Choice {
    @Option(
        names = "--seed",
        paramLabel = "S",
        description = "Reproducible randomness from a seed: tests and experiments only.")
    Long seed;

    @Option(
        names = "--key-file",
        paramLabel = "FILE",
        description = "Keyed (replay-safe) randomness; the secret (>= 16 bytes) is read from FILE.")
    Path keyFile;

    @Option(
        names = "--key-env",
        paramLabel = "VAR",
        description = "Keyed randomness; the secret is read from environment variable VAR.")
    String keyEnv;
  }

  RandomnessMode mode() {
    if (choice == null) {
      return RandomnessMode.secure();
    }
    try {
      if (choice.seed != null) {
        return RandomnessMode.seeded(choice.seed);
      }
      byte[] secret =
          choice.keyFile != null
              ? SecretKeys.fromFile(choice.keyFile)
              : SecretKeys.fromEnvironment(choice.keyEnv);
      try {
        return RandomnessMode.keyed(secret);
      } finally {
        Arrays.fill(secret, (byte) 0); // the mode holds its own copy
      }
    } catch (IllegalArgumentException e) {
      throw new UsageError(
          (choice.keyFile != null
                  ? "--key-file: "
                  : choice.keyEnv != null ? "--key-env: " : "--seed: ")
              + e.getMessage());
    }
  }
}
