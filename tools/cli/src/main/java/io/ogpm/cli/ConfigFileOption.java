package io.ogpm.cli;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.jobs.cli.ConfigOption;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --config FILE}, required: the field configuration a command reads records with. */
final class ConfigFileOption {
  @Option(
      names = "--config",
      paramLabel = "FILE",
      required = true,
      description = "The field configuration (YAML).")
  Path file;

  /** The configuration; a usage error naming the file where it cannot be read or is invalid. */
  PrivacyConfig load() {
    return ConfigOption.load(file);
  }
}
