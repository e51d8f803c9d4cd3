package io.ogpm.cli;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.MechanismChoice;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.MechanismAdvisor;
import io.ogpm.estimate.OptimizeFor;
import io.ogpm.jobs.cli.ConfigFileOption;
import io.ogpm.jobs.cli.UsageError;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Prints, per field, what {@code mechanism: auto} weighs: each candidate's error of one value, its
 * expected window-mean interval width for four kinds of readings and at its worst, its distribution
 * error, its worst regret for the question, and the choice with its reason. Exact numbers from the
 * bounds the estimators use ({@link MechanismAdvisor}), nothing simulated.
 */
@Command(
    name = "advise",
    mixinStandardHelpOptions = true,
    description =
        "Prints, per field of the configuration, the candidate mechanisms' errors and the one"
            + " mechanism: auto chooses, with its reason.")
final class AdviseCommand implements Callable<Integer> {
  @Mixin ConfigFileOption config;

  @Option(
      names = "--records-per-window",
      paramLabel = "N",
      description =
          "The window size to plan for, in records (a sampled field's share of them). Default: the"
              + " configuration's records-per-window, else "
              + MechanismChoice.DEFAULT_RECORDS_PER_WINDOW
              + ".")
  Long recordsPerWindow;

  @Option(
      names = "--optimize-for",
      paramLabel = "values|means|distributions|aggregation",
      description =
          "The question. Default: the field's optimize-for under mechanism: auto, else aggregation.")
  String optimizeFor;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (recordsPerWindow != null && recordsPerWindow < 1) {
      throw new UsageError(
          "--records-per-window must be a whole number of at least 1, got " + recordsPerWindow);
    }
    OptimizeFor asked;
    try {
      asked = optimizeFor == null ? null : OptimizeFor.parse(optimizeFor);
    } catch (IllegalArgumentException e) {
      throw new UsageError("--" + e.getMessage());
    }
    PrivacyConfig cfg = config.load();
    PrintWriter out = spec.commandLine().getOut();
    for (FieldConfig f : cfg.fields()) {
      MechanismChoice choice = f.choice().orElse(null);
      OptimizeFor question =
          asked != null ? asked : choice != null ? choice.optimizeFor() : OptimizeFor.AGGREGATION;
      long records =
          recordsPerWindow != null
              ? share(recordsPerWindow, cfg.sampling().orElse(null))
              : choice != null
                  ? choice.recordsPerWindow()
                  : share(MechanismChoice.DEFAULT_RECORDS_PER_WINDOW, cfg.sampling().orElse(null));
      MechanismAdvisor.Advice advice = MechanismAdvisor.advise(f.spec(), question, records);
      print(out, f, advice);
    }
    return 0;
  }

  /** A field's reports among n records: with field sampling, K of the units' records. */
  private static long share(long records, FieldSampling sampling) {
    return sampling == null ? records : sampling.reportsAmong(records);
  }

  private static void print(PrintWriter out, FieldConfig f, MechanismAdvisor.Advice advice) {
    out.printf(
        Locale.ROOT,
        "field '%s' on [%s, %s]%s, epsilon %s per report, %d reports per window, optimize-for %s%n",
        f.name(),
        num(f.min()),
        num(f.max()),
        f.domain().isCircular() ? " (circular)" : "",
        num(f.epsilon()),
        advice.records(),
        advice.question().id());
    out.printf(
        Locale.ROOT,
        "| mechanism | one value (%s) | mean interval: worst | uniform | ends | middle |"
            + " distribution error | worst regret |%n",
        f.objective().metric().id());
    out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (MechanismAdvisor.Row r : advice.rows()) {
      out.printf(
          Locale.ROOT,
          "| %s%s | %s | %s | %s | %s | %s | %s | %s |%n",
          r.type().id(),
          r.type() == advice.choice() ? " (chosen)" : "",
          num(r.valueError()),
          num(r.meanWidthWorst()),
          num(r.meanWidthUniform()),
          num(r.meanWidthEnds()),
          num(r.meanWidthMiddle()),
          num(r.distributionError() / advice.records()),
          num(r.regret(advice.question())));
    }
    String configured =
        f.choice().isPresent()
            ? "choice"
            : "configured " + f.mechanism().id() + "; auto would choose";
    out.printf(Locale.ROOT, "%s %s%n%n", configured, advice.reason());
  }

  private static String num(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    if (Double.isInfinite(v)) {
      return "none";
    }
    return String.format(Locale.ROOT, "%.4g", v);
  }
}
