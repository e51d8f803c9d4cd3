package io.ogpm.cli;

import io.ogpm.jobs.cli.UsageError;
import picocli.CommandLine.Option;

/** {@code --bins K}: the histogram bins of the commands that estimate, 1 to 10,000. */
final class BinsOption {
  static final int MAX = 10_000;

  @Option(
      names = "--bins",
      paramLabel = "K",
      defaultValue = "50",
      description = "Histogram bins. Default: ${DEFAULT-VALUE}.")
  int bins;

  /** The bins; a usage error outside [1, {@value #MAX}]. */
  int bins() {
    if (bins < 1 || bins > MAX) {
      throw new UsageError("--bins must be in [1, " + MAX + "], got " + bins);
    }
    return bins;
  }
}
