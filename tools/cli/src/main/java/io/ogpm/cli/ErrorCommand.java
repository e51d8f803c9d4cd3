package io.ogpm.cli;

import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.Mechanism;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Prints the exact expected error at one input, or its maximum over the domain. */
@Command(
    name = "error",
    mixinStandardHelpOptions = true,
    description = "Prints E[dist(M(x), x)^k] at x (--x), or its maximum over the domain (--worst).")
final class ErrorCommand implements Callable<Integer> {
  @Mixin MechanismOptions options;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Where where;

  static final class Where {
    @Option(names = "--x", paramLabel = "X", description = "The input, in [lo, hi].")
    Double x;

    @Option(names = "--worst", description = "The worst case over the domain.")
    boolean worst;
  }

  @Mixin MetricOption metric;

  @Option(
      names = "--distance",
      paramLabel = "linear|circular",
      converter = MechanismOptions.DistanceConverter.class,
      description =
          "How |y - x| is measured. Default: circular on a circular domain, linear otherwise.")
  Distance distance;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Mechanism m = options.build();
    Distance d = distance != null ? distance : m.domain().naturalDistance();
    double value =
        where.worst
            ? m.worstCaseError(metric.value, d)
            : m.expectedError(options.input(m.domain(), where.x), metric.value, d);
    spec.commandLine().getOut().println(Double.toString(value));
    return 0;
  }
}
