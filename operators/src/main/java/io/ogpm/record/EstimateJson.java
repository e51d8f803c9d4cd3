package io.ogpm.record;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.estimate.CircularMeans;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.Interval;
import io.ogpm.estimate.LinearMeans;

/**
 * The JSON form of a field's estimate, shared by the {@code estimate} command and the stats topic:
 * {@code count}, {@code histogram} (k frequencies over the domain, summing to 1), and {@code mean}
 * with {@code meanInterval} (classical) or {@code circularMean}, {@code circularMeanInterval},
 * {@code resultantLength} and {@code resultantLengthInterval} (circular); every estimator under
 * {@code means}; the raw and reconstructed histograms under {@code histograms}.
 *
 * <p>The headline {@code mean} is the reconstructed one for method {@code em}; otherwise the
 * unbiased one where the mechanism has one, else the raw mean.
 */
public final class EstimateJson {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private EstimateJson() {}

  /** Renders an estimate; {@code reconstructed} selects the headline histogram and mean. */
  public static ObjectNode render(FieldEstimate e, boolean reconstructed) {
    ObjectNode out = JSON.objectNode();
    boolean useEm = reconstructed && e.reconstructedHistogram() != null;
    out.put("count", e.count());
    out.put("method", useEm ? "em" : "raw");
    out.set("histogram", array(useEm ? e.reconstructedHistogram() : e.rawHistogram()));
    if (e.linear() != null && e.count() > 0) {
      LinearMeans m = e.linear();
      Interval headline = useEm ? m.reconstructed() : m.unbiased() != null ? m.unbiased() : m.raw();
      out.put("mean", headline.estimate());
      out.set("meanInterval", pair(headline));
      ObjectNode means = out.putObject("means");
      means.set("raw", interval(m.raw()));
      if (m.unbiased() != null) {
        ObjectNode u = interval(m.unbiased());
        u.put("exactForInputsFrom", m.unbiasedFrom());
        u.put("exactForInputsTo", m.unbiasedTo());
        means.set("unbiased", u);
      }
      if (m.reconstructed() != null) {
        means.set("reconstructed", interval(m.reconstructed()));
      }
    }
    if (e.circular() != null && e.count() > 0) {
      CircularMeans m = e.circular();
      Interval headline = useEm ? m.reconstructedDirection() : m.direction();
      out.put("circularMean", headline.estimate());
      out.set("circularMeanInterval", pair(headline));
      out.put("resultantLength", m.resultantLength().estimate());
      out.set("resultantLengthInterval", pair(m.resultantLength()));
      ObjectNode means = out.putObject("means");
      means.set("raw", interval(m.direction()));
      if (m.reconstructedDirection() != null) {
        means.set("reconstructed", interval(m.reconstructedDirection()));
      }
    }
    ObjectNode histograms = out.putObject("histograms");
    histograms.set("raw", array(e.rawHistogram()));
    if (e.reconstructedHistogram() != null) {
      histograms.set("reconstructed", array(e.reconstructedHistogram()));
      out.put("emIterations", e.iterations());
    }
    return out;
  }

  private static ArrayNode array(double[] values) {
    ArrayNode a = JSON.arrayNode(values.length);
    for (double v : values) {
      a.add(v);
    }
    return a;
  }

  private static ArrayNode pair(Interval i) {
    return JSON.arrayNode(2).add(i.lower()).add(i.upper());
  }

  private static ObjectNode interval(Interval i) {
    ObjectNode o = JSON.objectNode();
    o.put("estimate", i.estimate());
    o.put("lower", i.lower());
    o.put("upper", i.upper());
    return o;
  }
}
