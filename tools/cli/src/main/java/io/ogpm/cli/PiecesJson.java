package io.ogpm.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.mechanism.PiecewiseDistribution;
import java.util.List;

/** A piecewise-uniform density as the commands print it: {@code "pieces"} of from, to, density. */
final class PiecesJson {
  private PiecesJson() {}

  static void put(ObjectNode root, List<PiecewiseDistribution.Piece> pieces) {
    ArrayNode array = root.putArray("pieces");
    for (PiecewiseDistribution.Piece p : pieces) {
      array.addObject().put("from", p.from()).put("to", p.to()).put("density", p.density());
    }
  }
}
