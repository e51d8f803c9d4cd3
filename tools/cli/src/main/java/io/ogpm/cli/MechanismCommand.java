package io.ogpm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.PiecewiseDistribution;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Prints a mechanism's output distribution for one input as JSON. */
@Command(
    name = "mechanism",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the output distribution for input x as JSON (pieces and atoms):",
      "{\"pieces\":[{\"from\":a,\"to\":b,\"density\":d},...],\"atoms\":[{\"at\":v,\"mass\":m},...]}"
    })
final class MechanismCommand implements Callable<Integer> {
  @Mixin MechanismOptions options;

  @Option(names = "--x", paramLabel = "X", required = true, description = "The input, in [lo, hi].")
  double x;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Mechanism m = options.build();
    double input = options.input(m.domain(), x);
    if (!m.isPiecewise()) {
      throw new UsageError(
          "--mechanism " + m.spec().type().id() + " has no piecewise-uniform output distribution");
    }
    PiecewiseDistribution d = m.distribution(input);
    ObjectMapper json = new ObjectMapper();
    ObjectNode root = json.createObjectNode();
    PiecesJson.put(root, d.pieces());
    ArrayNode atoms = root.putArray("atoms");
    for (PiecewiseDistribution.Atom a : d.atoms()) {
      atoms.addObject().put("at", a.at()).put("mass", a.mass());
    }
    spec.commandLine().getOut().println(json.writeValueAsString(root));
    return 0;
  }
}
