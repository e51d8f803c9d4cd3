package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.estimate.CumulativeBand;
import io.ogpm.estimate.DistributionEstimate;
import io.ogpm.estimate.Interval;
import io.ogpm.estimate.QuantileEstimate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One stats-topic record, as the demo reads it back.
 *
 * @param distribution the cumulative band and the quantiles read off it ({@code distribution} of
 *     the record; its exceedances left out: the demo asks for none), or null where the mechanism
 *     has no band
 */
record WindowStat(
    long windowStart,
    long windowEnd,
    String group,
    String field,
    long count,
    double mean,
    double lower,
    double upper,
    double[] histogram,
    double[] rawHistogram,
    boolean circular,
    double resultantLength,
    DistributionEstimate distribution,
    double identifiedWidth,
    String alternative,
    double alternativeWidth) {

  static WindowStat of(JsonNode s) {
    boolean circular = s.has("circularMean");
    JsonNode interval = circular ? s.get("circularMeanInterval") : s.get("meanInterval");
    return new WindowStat(
        Instant.parse(s.get("windowStart").asText()).toEpochMilli(),
        Instant.parse(s.get("windowEnd").asText()).toEpochMilli(),
        s.get("group").isNull() ? null : s.get("group").asText(),
        s.get("field").asText(),
        s.get("count").asLong(),
        circular ? s.get("circularMean").asDouble() : s.get("mean").asDouble(),
        // null where the mechanism allows no valid interval.
        interval == null || interval.isNull() ? Double.NaN : interval.get(0).asDouble(),
        interval == null || interval.isNull() ? Double.NaN : interval.get(1).asDouble(),
        doubles(s.get("histogram")),
        doubles(s.get("histograms").get("raw")),
        circular,
        circular ? s.get("resultantLength").asDouble() : Double.NaN,
        s.has("distribution") ? distribution(s.get("distribution")) : null,
        s.has("meanIdentifiedWidth") ? s.get("meanIdentifiedWidth").asDouble() : Double.NaN,
        s.has("meanAlternative") ? s.get("meanAlternative").get("mechanism").asText() : null,
        s.has("meanAlternative")
            ? s.get("meanAlternative").get("expectedWidth").asDouble()
            : Double.NaN);
  }

  /**
   * The window's p-quantile with its interval, or null: no band, or the aggregation did not ask for
   * p (it asks for 0.1, 0.5 and 0.9 by default).
   */
  QuantileEstimate quantile(double p) {
    if (distribution == null) {
      return null;
    }
    return distribution.quantiles().stream()
        .filter(q -> q.probability() == p)
        .findFirst()
        .orElse(null);
  }

  /**
   * The truth's key of this window, group and field ({@link GroundTruth#key}): a window refired
   * within the allowed lateness comes again under the same key, and the last one wins.
   */
  String key() {
    return GroundTruth.key(windowStart, group == null ? "" : group, field);
  }

  private static DistributionEstimate distribution(JsonNode d) {
    JsonNode cdf = d.get("cdf");
    List<QuantileEstimate> quantiles = new ArrayList<>();
    for (JsonNode q : d.get("quantiles")) {
      quantiles.add(
          new QuantileEstimate(
              q.get("p").asDouble(),
              new Interval(number(q, "estimate"), number(q, "lower"), number(q, "upper"))));
    }
    return new DistributionEstimate(
        new CumulativeBand(
            doubles(cdf.get("points")), doubles(cdf.get("lower")), doubles(cdf.get("upper"))),
        quantiles,
        List.of());
  }

  /** A JSON number, NaN for null (the stats topic's NaN). */
  private static double number(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? Double.NaN : v.asDouble();
  }

  private static double[] doubles(JsonNode a) {
    double[] out = new double[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).isNull() ? Double.NaN : a.get(i).asDouble();
    }
    return out;
  }
}
