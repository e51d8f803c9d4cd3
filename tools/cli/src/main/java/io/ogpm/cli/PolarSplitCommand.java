package io.ogpm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.polar.PolarSplit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The split of eps between a polar coordinate's radius and angle that minimises the total error.
 */
@Command(
    name = "polar-split",
    mixinStandardHelpOptions = true,
    description = {
      "Splits eps between the radius ([0, R), classical OGPM) and the angle",
      "([0, 2 pi), circular OGPM) of a polar coordinate so that the total",
      "worst-case error is least (paper \"An Extension: 2D Polar Coordinates\").",
      "Prints one JSON object:",
      "{\"epsRadius\":e1,\"epsAngle\":e2,\"error\":total,\"errorRadius\":..,\"errorAngle\":..}",
      "and with --curve N the total at N + 1 splits from epsRadius 0 to eps."
    })
final class PolarSplitCommand implements Callable<Integer> {
  @Option(
      names = "--epsilon",
      paramLabel = "E",
      required = true,
      description = "Total privacy parameter of the pair, > 0.")
  double epsilon;

  @Option(
      names = "--radius-max",
      paramLabel = "R",
      defaultValue = "1",
      description = "The radius domain is [0, R). Default: ${DEFAULT-VALUE}.")
  double radiusMax;

  @Option(
      names = "--metric",
      paramLabel = "l1|l2",
      required = true,
      converter = MechanismOptions.MetricConverter.class,
      description =
          "The loss: |y1 - x1|^k + d(y2, x2)^k, d the circular distance; k = 1 (l1) or 2 (l2).")
  ErrorMetric metric;

  @Option(
      names = "--objective",
      paramLabel = "l1|l2",
      converter = MechanismOptions.ObjectiveConverter.class,
      description =
          "The objective both mechanisms are optimal for (l1: Theorems 3 and 4). Default: the metric.")
  Objective objective;

  @Option(
      names = "--curve",
      paramLabel = "N",
      description = "Also print the total error at N + 1 evenly spaced splits.")
  Integer curve;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Objective o = objective != null ? objective : Objective.valueOf(metric.name());
    PolarSplit split;
    try {
      split = PolarSplit.of(epsilon, radiusMax, metric, o);
      if (curve != null && curve < 1) {
        throw new IllegalArgumentException("curve must be >= 1, got " + curve);
      }
    } catch (IllegalArgumentException e) {
      throw new UsageError("--" + e.getMessage());
    }
    PolarSplit.Point best = split.optimum();
    ObjectMapper json = new ObjectMapper();
    ObjectNode root =
        json.createObjectNode()
            .put("epsilon", epsilon)
            .put("radiusMax", radiusMax)
            .put("metric", metric.id())
            .put("objective", o.id())
            .put("epsRadius", best.epsRadius())
            .put("epsAngle", best.epsAngle())
            .put("error", best.error())
            .put("errorRadius", best.errorRadius())
            .put("errorAngle", best.errorAngle());
    if (curve != null) {
      ArrayNode points = root.putArray("curve");
      for (PolarSplit.Point p : split.curve(curve)) {
        points
            .addObject()
            .put("epsRadius", p.epsRadius())
            .put("epsAngle", p.epsAngle())
            .put("error", p.error());
      }
    }
    spec.commandLine().getOut().println(json.writeValueAsString(root));
    return 0;
  }
}
