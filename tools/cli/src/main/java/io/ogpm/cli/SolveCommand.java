package io.ogpm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.solve.CollapseCheck;
import io.ogpm.mechanism.solve.GpmProblem;
import io.ogpm.mechanism.solve.GpmSolver;
import io.ogpm.mechanism.solve.SolvedGpm;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Solves for the optimal m-piece GPM numerically (the paper's framework), or checks its collapse.
 */
@Command(
    name = "solve",
    mixinStandardHelpOptions = true,
    description = {
      "Solves for the optimal m-piece GPM numerically (multi-start BOBYQA; paper",
      "section \"Framework for Deriving the Optimal GPM\"), in the worst case or at",
      "one input. Prints one JSON object: the pieces at the optimised input (lo for",
      "--worst), adjacent pieces of equal density merged (Lemma 2), and the exact",
      "error of the mechanism kept, which passes the exact LDP check:",
      "{\"pieces\":[{\"from\":a,\"to\":b,\"density\":d},...],\"error\":e,...}",
      "--check-collapse N instead compares the 4- and 5-piece optima with the",
      "3-piece optimum at N pairs (eps, x) on [0, 1) (the paper's Monte Carlo",
      "check): one JSON line per comparison, then a summary."
    })
final class SolveCommand implements Callable<Integer> {
  @Option(
      names = "--pieces",
      paramLabel = "M",
      defaultValue = "3",
      description = "Number of pieces m, 3 to 12. Default: ${DEFAULT-VALUE}.")
  int pieces;

  @Mixin MetricOption metric;

  @Option(
      names = "--epsilon",
      paramLabel = "E",
      description = "Privacy parameter, > 0 (not with --check-collapse).")
  Double epsilon;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  static final class Target {
    @Option(names = "--worst", description = "Minimise the worst-case error over the domain.")
    boolean worst;

    @Option(
        names = "--x0",
        paramLabel = "X",
        description = "Minimise the error at input X, in [lo, hi].")
    Double x0;

    @Option(
        names = "--check-collapse",
        paramLabel = "N",
        description =
            "Check at N Sobol pairs (eps in [0.1, 10), x in [0, 1)) that m = 4 and 5 collapse to m = 3.")
    Integer checkCollapse;
  }

  @Option(
      names = "--lo",
      paramLabel = "A",
      defaultValue = "0",
      description = "Lower end of the domain. Default: ${DEFAULT-VALUE}.")
  double lo;

  @Option(
      names = "--hi",
      paramLabel = "B",
      defaultValue = "1",
      description = "Upper end of the domain. Default: ${DEFAULT-VALUE}.")
  double hi;

  @Option(
      names = "--starts",
      paramLabel = "S",
      defaultValue = "" + GpmSolver.DEFAULT_STARTS,
      description = "BOBYQA starts (Sobol points). Default: ${DEFAULT-VALUE}.")
  int starts;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    GpmSolver solver;
    try {
      solver = GpmSolver.withStarts(starts);
    } catch (IllegalArgumentException e) {
      throw new UsageError("--" + e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    if (target.checkCollapse != null) {
      if (epsilon != null) {
        throw new UsageError(
            "--epsilon does not apply to --check-collapse (it draws eps in [0.1, 10))");
      }
      return checkCollapse(solver, target.checkCollapse, out);
    }
    if (epsilon == null) {
      throw new UsageError("--epsilon is required");
    }
    GpmProblem problem;
    try {
      Checks.ordered("--lo", lo, "--hi", hi);
      problem =
          target.worst
              ? GpmProblem.worstCase(lo, hi, epsilon, pieces, metric.value)
              : GpmProblem.at(lo, hi, epsilon, pieces, metric.value, target.x0);
    } catch (IllegalArgumentException e) {
      throw new UsageError(
          e.getMessage().startsWith("--") ? e.getMessage() : "--" + e.getMessage());
    }
    SolvedGpm solved = solver.solve(problem);
    ObjectMapper json = new ObjectMapper();
    ObjectNode root = json.createObjectNode();
    PiecesJson.put(root, solved.pieces());
    root.put("error", solved.error());
    root.put("at", target.worst ? lo : target.x0);
    root.put("searchError", solved.searchError());
    out.println(json.writeValueAsString(root));
    return 0;
  }

  private int checkCollapse(GpmSolver solver, int n, PrintWriter out) throws Exception {
    if (n < 1) {
      throw new UsageError("--check-collapse must be >= 1, got " + n);
    }
    CollapseCheck check = CollapseCheck.with(solver);
    ObjectMapper json = new ObjectMapper();
    int failed = 0;
    int total = 0;
    List<double[]> pairs = CollapseCheck.pairs(n);
    for (double[] pair : pairs) {
      for (int m : new int[] {4, 5}) {
        CollapseCheck.Outcome o = check.check(pair[0], pair[1], m, metric.value);
        total++;
        failed += o.collapsed() ? 0 : 1;
        ObjectNode line =
            json.createObjectNode()
                .put("epsilon", o.epsilon())
                .put("x", o.x())
                .put("pieces", m)
                .put("collapsed", o.collapsed())
                .put("error", o.error())
                .put("threePieceError", o.referenceError())
                .put("boundaryGap", o.boundaryGap());
        if (o.failure() != null) {
          line.put("failure", o.failure());
        }
        out.println(json.writeValueAsString(line));
      }
    }
    out.println(
        json.writeValueAsString(
            json.createObjectNode()
                .put("metric", metric.value.id())
                .put("checked", total)
                .put("collapsed", total - failed)
                .put("failed", failed)));
    return failed == 0 ? 0 : 1;
  }
}
