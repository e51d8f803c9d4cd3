package io.ogpm.flink.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.ogpm.flink.WindowDistribution;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.record.JsonDoubleWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes window estimates to the stats topic as one JSON object each (docs/aggregation.md, "Reading
 * the stats"; the same as {@link io.ogpm.estimate.EstimateJson} for the {@code estimate} command,
 * with the window, group, field and bins first), stamped with the window's last millisecond ({@code
 * windowEnd - 1}, as Flink stamps a window's result), without a key.
 */
@PublicEvolving
public final class WindowEstimateSerializer
    implements KafkaRecordSerializationSchema<WindowEstimate> {
  private static final long serialVersionUID = 1L;

  /**
   * Doubles in their shortest decimal that reads back as the same double (Schubfach, as Java 19 and
   * later write {@link Double#toString}): Java 17's {@code Double.toString} is that too, but for
   * rare values outside [1e-3, 1e7) where it writes a digit more, and it costs big-integer
   * arithmetic for the 16-17 digits of a computed share.
   */
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();

  private final String topic;

  public WindowEstimateSerializer(String topic) {
    this.topic = java.util.Objects.requireNonNull(topic, "topic");
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      WindowEstimate e, KafkaSinkContext context, Long timestamp) {
    return new ProducerRecord<>(topic, null, e.getWindowEnd() - 1, null, toJson(e));
  }

  /** The JSON object of an estimate, UTF-8. */
  public static byte[] toJson(WindowEstimate e) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
    JsonDoubleWriter doubles = new JsonDoubleWriter();
    try (JsonGenerator g = JSON.createGenerator(bytes)) {
      g.writeStartObject();
      g.writeStringField("windowStart", Instant.ofEpochMilli(e.getWindowStart()).toString());
      g.writeStringField("windowEnd", Instant.ofEpochMilli(e.getWindowEnd()).toString());
      g.writeStringField("group", e.getGroup());
      g.writeStringField("field", e.getField());
      g.writeNumberField("bins", e.getBins());
      if (Double.isInfinite(e.getUserEpsilonBound())) {
        g.writeNullField("userEpsilonBound");
      } else {
        g.writeNumberField("userEpsilonBound", e.getUserEpsilonBound());
      }
      g.writeNumberField("count", e.getCount());
      g.writeStringField("method", e.getMethod() == null ? null : e.getMethod().code());
      array(g, doubles, "histogram", e.getHistogram());
      if (e.getCount() > 0 && !e.isCircular()) { // a classical field with values
        g.writeNumberField("mean", e.getMean());
        pair(g, "meanInterval", e.getMeanLower(), e.getMeanUpper());
        g.writeStringField(
            "meanIntervalMethod",
            e.getMeanIntervalMethod() == null ? null : e.getMeanIntervalMethod().code());
        if (!Double.isNaN(e.getMeanIdentifiedWidth())) {
          g.writeNumberField("meanIdentifiedWidth", e.getMeanIdentifiedWidth());
        }
        if (e.getMeanAlternative() != null) {
          g.writeObjectFieldStart("meanAlternative");
          g.writeStringField("mechanism", e.getMeanAlternative());
          g.writeNumberField("expectedWidth", e.getMeanAlternativeWidth());
          g.writeEndObject();
        }
        g.writeObjectFieldStart("means");
        estimate(g, "raw", e.getRawMean());
        if (!Double.isNaN(e.getUnbiasedMean())) {
          g.writeObjectFieldStart("unbiased");
          g.writeNumberField("estimate", e.getUnbiasedMean());
          g.writeNumberField("exactForInputsFrom", e.getUnbiasedFrom());
          g.writeNumberField("exactForInputsTo", e.getUnbiasedTo());
          g.writeEndObject();
        }
        if (!Double.isNaN(e.getReconstructedMean())) {
          estimate(g, "reconstructed", e.getReconstructedMean());
        }
        g.writeEndObject();
      }
      if (e.getCount() > 0 && e.isCircular()) { // a circular field with values
        g.writeNumberField("circularMean", e.getCircularMean());
        pair(g, "circularMeanInterval", e.getCircularMeanLower(), e.getCircularMeanUpper());
        g.writeNumberField("resultantLength", e.getResultantLength());
        pair(
            g, "resultantLengthInterval", e.getResultantLengthLower(), e.getResultantLengthUpper());
        g.writeObjectFieldStart("means");
        estimate(g, "raw", e.getRawMean());
        if (!Double.isNaN(e.getReconstructedMean())) {
          estimate(g, "reconstructed", e.getReconstructedMean());
        }
        g.writeEndObject();
      }
      g.writeObjectFieldStart("histograms");
      array(g, doubles, "raw", e.getRawHistogram());
      if (e.getReconstructedHistogram() != null) {
        array(g, doubles, "reconstructed", e.getReconstructedHistogram());
      }
      g.writeEndObject();
      if (e.getReconstructedHistogram() != null) {
        g.writeNumberField("emIterations", e.getEmIterations());
      }
      if (e.getDistribution() != null) {
        distribution(g, doubles, e.getDistribution());
      }
      g.writeEndObject();
    } catch (IOException ex) {
      throw new UncheckedIOException("cannot write a window estimate", ex);
    }
    return bytes.toByteArray();
  }

  /**
   * {@code distribution}: the cumulative band's arrays, then one object per quantile ({@code p})
   * and per exceedance ({@code threshold}) with its {@code estimate}, {@code lower} and {@code
   * upper}.
   */
  private static void distribution(JsonGenerator g, JsonDoubleWriter doubles, WindowDistribution d)
      throws IOException {
    g.writeObjectFieldStart("distribution");
    g.writeObjectFieldStart("cdf");
    array(g, doubles, "points", d.getCdfPoints());
    array(g, doubles, "lower", d.getCdfLower());
    array(g, doubles, "upper", d.getCdfUpper());
    g.writeEndObject();
    intervals(
        g,
        "quantiles",
        "p",
        d.getQuantileProbabilities(),
        d.getQuantileEstimates(),
        d.getQuantileLower(),
        d.getQuantileUpper());
    intervals(
        g,
        "exceedances",
        "threshold",
        d.getExceedanceThresholds(),
        d.getExceedanceEstimates(),
        d.getExceedanceLower(),
        d.getExceedanceUpper());
    g.writeEndObject();
  }

  /** An array of {@code {key: at[k], estimate, lower, upper}}. */
  private static void intervals(
      JsonGenerator g,
      String name,
      String key,
      double[] at,
      double[] estimate,
      double[] lower,
      double[] upper)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (int k = 0; k < at.length; k++) {
      g.writeStartObject();
      g.writeNumberField(key, at[k]);
      g.writeNumberField("estimate", estimate[k]);
      g.writeNumberField("lower", lower[k]);
      g.writeNumberField("upper", upper[k]);
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /** The histograms and band: most of an estimate's text, written by {@link JsonDoubleWriter}. */
  private static void array(JsonGenerator g, JsonDoubleWriter doubles, String name, double[] values)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (double v : values) {
      doubles.write(g, v);
    }
    g.writeEndArray();
  }

  /** {@code [lower, upper]}, or null where there is no valid interval. */
  private static void pair(JsonGenerator g, String name, double lower, double upper)
      throws IOException {
    if (Double.isNaN(lower) || Double.isNaN(upper)) {
      g.writeNullField(name);
    } else {
      g.writeArrayFieldStart(name);
      g.writeNumber(lower);
      g.writeNumber(upper);
      g.writeEndArray();
    }
  }

  private static void estimate(JsonGenerator g, String name, double value) throws IOException {
    g.writeObjectFieldStart(name);
    g.writeNumberField("estimate", value);
    g.writeEndObject();
  }
}
