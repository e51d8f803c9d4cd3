package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** One stats-topic record, as the demo reads it back. */
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
    double[] bandLower,
    double[] bandUpper,
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
        s.has("histogramBand") ? doubles(s.get("histogramBand").get("lower")) : null,
        s.has("histogramBand") ? doubles(s.get("histogramBand").get("upper")) : null,
        s.has("meanIdentifiedWidth") ? s.get("meanIdentifiedWidth").asDouble() : Double.NaN,
        s.has("meanAlternative") ? s.get("meanAlternative").get("mechanism").asText() : null,
        s.has("meanAlternative")
            ? s.get("meanAlternative").get("expectedWidth").asDouble()
            : Double.NaN);
  }

  /**
   * The truth's key of this window, group and field ({@link GroundTruth#key}): a window refired
   * within the allowed lateness comes again under the same key, and the last one wins.
   */
  String key() {
    return GroundTruth.key(windowStart, group == null ? "" : group, field);
  }

  private static double[] doubles(JsonNode a) {
    double[] out = new double[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).asDouble();
    }
    return out;
  }
}
