package io.ogpm.jobs.cli;

import io.ogpm.config.ConfigException;
import io.ogpm.config.PrivacyConfig;
import java.nio.file.Path;

/** Loads the field configuration for a command, turning errors into one-line usage errors. */
public final class ConfigOption {
  private ConfigOption() {}

  public static PrivacyConfig load(Path file) {
    try {
      return PrivacyConfig.load(file);
    } catch (ConfigException e) {
      throw new UsageError("--config " + file + ": " + e.getMessage());
    }
  }
}
