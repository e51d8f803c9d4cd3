package io.ogpm.cli;

import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.audit.AuditedSampler;
import io.ogpm.mechanism.audit.MechanismSamplers;
import io.ogpm.mechanism.audit.PrivacyAuditor;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Looks for evidence that a mechanism's sampler spends more epsilon than it claims. */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = {
      "Statistical privacy audit of a mechanism's sampler: searches input pairs and output events,"
          + " then reports a lower bound on the epsilon it really spends, with a confidence level."
          + " Exit 0 when the bound does not exceed --epsilon, 1 when it does. The bound is printed last."
    })
final class AuditCommand implements Callable<Integer> {
  @Mixin MechanismOptions options;

  @Option(
      names = "--samples",
      paramLabel = "N",
      defaultValue = "200000",
      description = "Samples per input and phase. Default: ${DEFAULT-VALUE}.")
  int samples;

  @Option(
      names = "--bins",
      paramLabel = "B",
      defaultValue = "40",
      description = "Output bins of the event search. Default: ${DEFAULT-VALUE}.")
  int bins;

  @Option(
      names = "--confidence",
      paramLabel = "C",
      defaultValue = "0.95",
      description = "Confidence of the bound. Default: ${DEFAULT-VALUE}.")
  double confidence;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the audit's own sampling. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(
      names = "--unsnapped",
      description =
          "Audit the raw inverse-cdf doubles instead of the grid outputs (a negative control: it leaks).")
  boolean unsnapped;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (samples < 1000) {
      throw new UsageError("--samples must be >= 1000, got " + samples);
    }
    if (bins < 1 || bins > 10_000) {
      throw new UsageError("--bins must be in [1, 10000], got " + bins);
    }
    if (!(confidence > 0 && confidence < 1)) {
      throw new UsageError("--confidence must be in (0, 1), got " + confidence);
    }
    Mechanism m = options.build();
    AuditedSampler sampler =
        unsnapped ? MechanismSamplers.unsnapped(m) : MechanismSamplers.snapped(m);
    PrivacyAuditor.Result r =
        PrivacyAuditor.audit(
            sampler, new PrivacyAuditor.Options(samples, bins, 1 - confidence, seed));
    PrintWriter out = spec.commandLine().getOut();
    out.println("audit of " + m.spec() + (unsnapped ? " (unsnapped doubles)" : " (grid outputs)"));
    out.println(r.describe());
    boolean passed = r.epsilonLowerBound() <= m.epsilon();
    out.println(
        passed
            ? "PASS: no evidence of more than epsilon " + m.epsilon()
            : "FAIL: spends more than epsilon " + m.epsilon());
    out.println(String.format(Locale.ROOT, "%s", Double.toString(r.epsilonLowerBound())));
    out.flush();
    return passed ? 0 : 1;
  }
}
