package io.ogpm.cli;

import io.ogpm.mechanism.ErrorMetric;
import picocli.CommandLine.Option;

/** {@code --metric l1|l2}: the error the commands that compute one measure, l1 by default. */
final class MetricOption {
  @Option(
      names = "--metric",
      paramLabel = "l1|l2",
      defaultValue = "l1",
      converter = MechanismOptions.MetricConverter.class,
      description = "Absolute (l1) or square (l2) error. Default: ${DEFAULT-VALUE}.")
  ErrorMetric value;
}
