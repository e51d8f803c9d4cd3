package io.ogpm.cli;

import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Prints N perturbed outputs for one input. */
@Command(
    name = "sample",
    mixinStandardHelpOptions = true,
    description =
        "Prints N outputs of the mechanism for input x, one per line (secure randomness"
            + " unless --seed is given).")
final class SampleCommand implements Callable<Integer> {
  @Mixin MechanismOptions options;

  @Option(names = "--x", paramLabel = "X", required = true, description = "The input, in [lo, hi].")
  double x;

  @Option(
      names = "--n",
      paramLabel = "N",
      defaultValue = "1",
      description = "Number of outputs. Default: ${DEFAULT-VALUE}.")
  long n;

  @Option(
      names = "--seed",
      paramLabel = "S",
      description =
          "Reproducible draws from this seed (for tests and experiments; never for real data).")
  Long seed;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (n < 0) {
      throw new UsageError("--n must be >= 0, got " + n);
    }
    Mechanism m = options.build();
    double input = options.input(m.domain(), x);
    RandomBits source = seed != null ? AesCtrSource.seeded(seed) : AesCtrSource.secure();
    PrintWriter out = spec.commandLine().getOut();
    StringBuilder line = new StringBuilder(1 << 16);
    for (long i = 0; i < n; i++) {
      line.append(m.perturb(input, source)).append('\n');
      if (line.length() > 60_000) {
        out.write(line.toString());
        line.setLength(0);
      }
    }
    out.write(line.toString());
    out.flush();
    return 0;
  }
}
