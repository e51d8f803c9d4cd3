package io.ogpm.jobs.cli;

import io.ogpm.config.ConfigException;
import io.ogpm.config.PrivacyConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --config FILE}, required: the field configuration a command reads or perturbs records
 * with. The job commands take it or its inline form ({@link JobConfigSource}); the other commands
 * of {@code ogpm.jar} take it as a mixin.
 */
public class ConfigFileOption {
  @Option(
      names = "--config",
      paramLabel = "FILE",
      required = true,
      description = "The field configuration (YAML).")
  Path file;

  /** The configuration; a usage error naming the file where it cannot be read or is invalid. */
  public PrivacyConfig load() {
    try {
      return PrivacyConfig.load(file);
    } catch (ConfigException e) {
      throw new UsageError(origin() + ": " + e.getMessage());
    }
  }

  /** The file, or null where the configuration came another way ({@link JobConfigSource}). */
  public Path file() {
    return file;
  }

  /**
   * Where the configuration came from, as a message names it: {@code --config FILE}, so that a
   * field the commands refuse later is reported against the option the user typed.
   */
  public String origin() {
    return "--config " + file;
  }
}
