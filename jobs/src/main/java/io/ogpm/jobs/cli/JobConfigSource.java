package io.ogpm.jobs.cli;

import io.ogpm.config.ConfigException;
import io.ogpm.config.PrivacyConfig;
import picocli.CommandLine.Option;

/**
 * Where a job command finds its field configuration: a file ({@code --config}) or the YAML itself
 * ({@code --config-yaml}). The inline form is for submissions whose {@code main} runs on the
 * JobManager (Flink's web UI and REST API), where the submitter's files are not present; flow-style
 * YAML keeps it on one line: {@code {fields: [{name: x, min: 0, max: 1, epsilon: 1}]}}.
 */
final class JobConfigSource extends ConfigFileOption {
  @Option(
      names = "--config-yaml",
      paramLabel = "YAML",
      required = true,
      description =
          "The field configuration itself, instead of --config (for submissions through Flink's web UI or REST API).")
  String yaml;

  @Override
  public PrivacyConfig load() {
    if (file != null) {
      return super.load();
    }
    try {
      return PrivacyConfig.parse(yaml);
    } catch (ConfigException e) {
      throw new UsageError(origin() + ": " + e.getMessage());
    }
  }

  @Override
  public String origin() {
    return file != null ? super.origin() : "--config-yaml";
  }
}
