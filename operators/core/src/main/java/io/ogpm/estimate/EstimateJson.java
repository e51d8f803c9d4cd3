package io.ogpm.estimate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.annotation.Internal;

/**
 * The JSON form of a field's estimate, shared by the {@code estimate} command and the stats topic:
 * {@code count}, {@code histogram} (k frequencies over the domain, summing to 1), and {@code mean}
 * with {@code meanInterval} (classical) or {@code circularMean}, {@code circularMeanInterval},
 * {@code resultantLength} and {@code resultantLengthInterval} (circular); every estimator's own
 * value under {@code means} (no intervals there); the raw and reconstructed histograms under {@code
 * histograms}; and {@code distribution}, where the mechanism has a cumulative band ({@link
 * io.ogpm.estimate.DistributionEstimate}): {@code cdf} with {@code points}, {@code lower} and
 * {@code upper}, a simultaneous 95 % band for the share of the window's inputs at or below each
 * point (on a circle: in the arc from the domain's start to it); {@code quantiles}, one object
 * {@code p}, {@code estimate}, {@code lower}, {@code upper} per probability asked for; {@code
 * exceedances}, one object {@code threshold}, {@code estimate}, {@code lower}, {@code upper} per
 * threshold asked for (the share of the inputs above it), both lists in increasing order and
 * possibly empty.
 *
 * <p>What the intervals cover: each holds the truth of the window in at least 95 % of windows,
 * whatever the inputs. {@code meanInterval} holds the mean of the window's actual inputs: it is the
 * range of means consistent with the window's outputs, {@code meanIntervalMethod} says which of
 * their statistics and how: {@code studentised-output-mean} (their mean, its margin from the
 * window's own variance) or {@code studentised-output-mean-and-tails} (also the tails at the ends
 * of their histogram, where the mechanism clamps), or below the studentised regime {@code
 * output-mean} and {@code output-mean-and-tails} (the margin from the mechanism's largest variance;
 * {@link io.ogpm.estimate.MeanIntervalMethod}). {@code meanIdentifiedWidth} is the part of that
 * interval more readings would not remove, and {@code meanAlternative} names, where that part is
 * most of it, the mechanism whose interval would be narrower ({@code mechanism}, {@code
 * expectedWidth}). {@code circularMeanInterval} and {@code resultantLengthInterval} hold the
 * direction and length of the inputs' mean resultant vector, together ({@link
 * io.ogpm.estimate.CircularMeans}); the direction interval is {@code [lo, hi]} when the data say
 * nothing about the direction, and an interval whose lower end is above its upper end crosses the
 * seam. An interval is {@code null} where the mechanism allows no valid one (a mechanism that is
 * not rotation invariant on a circle). An empty window has no mean of any kind (its estimate has
 * none), and no band or distribution. The quantiles and exceedances are read off the cumulative
 * band: with it, every one of them holds its truth (of the window's actual inputs) in at least 95 %
 * of windows, all at once.
 *
 * <p>The headline {@code mean} (and {@code circularMean}) is the reconstructed one for method
 * {@code em}; otherwise the unbiased one where the mechanism has one, else the raw mean. Both
 * methods share the interval, which does not come from the reconstruction; a headline estimate that
 * falls outside it is moved to its nearest end. A quantile's or exceedance's {@code estimate} is
 * the reconstruction's (linear within each bin) where there is one, moved into its interval, else
 * the interval's middle.
 */
@Internal
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
    if (e.linear() != null) {
      LinearMeans m = e.linear();
      putWithInterval(out, "mean", useEm ? m.reconstructedMean() : m.mean());
      out.put("meanIntervalMethod", m.intervalMethod().code());
      if (!Double.isNaN(m.identifiedWidth())) {
        out.put("meanIdentifiedWidth", m.identifiedWidth());
      }
      if (m.alternative() != null) {
        out.putObject("meanAlternative")
            .put("mechanism", m.alternative().mechanism().id())
            .put("expectedWidth", m.alternative().expectedWidth());
      }
      ObjectNode means = out.putObject("means");
      means.putObject("raw").put("estimate", m.raw());
      if (!Double.isNaN(m.unbiased())) {
        ObjectNode u = means.putObject("unbiased");
        u.put("estimate", m.unbiased());
        u.put("exactForInputsFrom", m.unbiasedFrom());
        u.put("exactForInputsTo", m.unbiasedTo());
      }
      putReconstructed(means, m.reconstructed());
    }
    if (e.circular() != null) {
      CircularMeans m = e.circular();
      putWithInterval(out, "circularMean", useEm ? m.reconstructedDirection() : m.direction());
      putWithInterval(out, "resultantLength", m.resultantLength());
      ObjectNode means = out.putObject("means");
      means.putObject("raw").put("estimate", m.direction().estimate());
      putReconstructed(means, m.reconstructed());
    }
    ObjectNode histograms = out.putObject("histograms");
    histograms.set("raw", array(e.rawHistogram()));
    if (e.reconstructedHistogram() != null) {
      histograms.set("reconstructed", array(e.reconstructedHistogram()));
      out.put("emIterations", e.iterations());
    }
    if (e.distribution() != null) {
      out.set("distribution", distribution(e.distribution()));
    }
    return out;
  }

  /** {@code {"cdf": {...}, "quantiles": [...], "exceedances": [...]}}. */
  private static ObjectNode distribution(DistributionEstimate d) {
    ObjectNode out = JSON.objectNode();
    ObjectNode cdf = out.putObject("cdf");
    cdf.set("points", array(d.cdf().points()));
    cdf.set("lower", array(d.cdf().lower()));
    cdf.set("upper", array(d.cdf().upper()));
    ArrayNode quantiles = out.putArray("quantiles");
    for (QuantileEstimate q : d.quantiles()) {
      putInterval(quantiles.addObject().put("p", q.probability()), q.interval());
    }
    ArrayNode exceedances = out.putArray("exceedances");
    for (ExceedanceEstimate x : d.exceedances()) {
      putInterval(exceedances.addObject().put("threshold", x.threshold()), x.interval());
    }
    return out;
  }

  /** An interval as {@code estimate}, {@code lower} and {@code upper}. */
  private static void putInterval(ObjectNode out, Interval i) {
    out.put("estimate", i.estimate());
    out.put("lower", i.lower());
    out.put("upper", i.upper());
  }

  /** An estimate and its interval, as {@code key} and {@code keyInterval}. */
  private static void putWithInterval(ObjectNode out, String key, Interval i) {
    out.put(key, i.estimate());
    out.set(key + "Interval", pair(i));
  }

  /** The reconstruction's own estimate under {@code means}, where there is one. */
  private static void putReconstructed(ObjectNode means, double reconstructed) {
    if (!Double.isNaN(reconstructed)) {
      means.putObject("reconstructed").put("estimate", reconstructed);
    }
  }

  private static ArrayNode array(double[] values) {
    ArrayNode a = JSON.arrayNode(values.length);
    for (double v : values) {
      a.add(v);
    }
    return a;
  }

  /** {@code [lower, upper]}, or a JSON null where there is no valid interval. */
  private static JsonNode pair(Interval i) {
    return i.hasBounds() ? JSON.arrayNode(2).add(i.lower()).add(i.upper()) : JSON.nullNode();
  }
}
