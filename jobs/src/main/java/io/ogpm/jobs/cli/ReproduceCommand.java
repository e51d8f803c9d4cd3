package io.ogpm.jobs.cli;

import io.ogpm.jobs.reproduce.Claim;
import io.ogpm.jobs.reproduce.PaperEvaluation;
import io.ogpm.jobs.reproduce.Reports;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** Regenerates the paper's evaluation as CSV files, PNG charts and summary.md. */
@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    description = "Regenerates the paper's evaluation (exact expected errors) as CSV files and PNG charts in DIR,"
        + " with summary.md comparing every headline number.")
final class ReproduceCommand implements Callable<Integer> {
  @Option(names = "--out", paramLabel = "DIR", required = true, description = "Output directory (created if absent).")
  Path out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PaperEvaluation evaluation = PaperEvaluation.compute();
    Reports.write(evaluation.figures(), evaluation.claims(), out);
    for (Claim c : evaluation.claims()) {
      spec.commandLine().getOut().printf("%-70s paper %-9s ours %s%n", c.statement(), c.paperFormatted(), c.oursFormatted());
    }
    spec.commandLine().getOut().println("wrote " + evaluation.figures().size() + " figures and summary.md to " + out);
    return 0;
  }
}
