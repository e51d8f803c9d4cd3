package io.ogpm.flink.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.FieldReader;
import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.kafka.PerturbedValuesDeserializerTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/**
 * The other two ways to perturbed values, in Flink's operator test harnesses: perturbed records of
 * the same job ({@link LdpAggregation#parser}: their fingerprint and timestamp in place of the
 * Kafka header and timestamp), and your own records read by name ({@link
 * LdpAggregation#fromRecords}).
 */
class PerturbedValuesSourcesTest {
  static final String FINGERPRINT =
      ConfigFingerprint.of(PerturbedValuesDeserializerTest.CONFIG).value();

  /** An aggregation of the test's configuration, whose readers are under test. */
  static LdpAggregation.Builder aggregation() {
    return LdpAggregation.builder()
        .config(PerturbedValuesDeserializerTest.CONFIG)
        .window(Duration.ofSeconds(1));
  }

  static PerturbedRecord record(String json, String fingerprint, long timestamp) {
    PerturbedRecord r =
        new PerturbedRecord(null, json.getBytes(StandardCharsets.UTF_8), 3, "u", timestamp, null);
    r.setFingerprint(fingerprint);
    return r;
  }

  @Test
  void perturbedRecordsOfThisJobAreParsedOnceUnderTheSameRules() throws Exception {
    FlatMapFunction<PerturbedRecord, PerturbedValues> parser =
        aggregation().groupBy("activity").build().parser("ts");
    CapturedMetrics metrics = new CapturedMetrics();
    try (var h =
        new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(parser), metrics.environment)) {
      h.open();
      h.processElement(
          record("{\"x\":0.25,\"activity\":\"walking\",\"ts\":5}", FINGERPRINT, 77), 77);
      h.processElement(record("{\"x\":0.75,\"att\":{\"roll\":1}}", FINGERPRINT, 78), 78);
      h.processElement(record("{\"x\":0.5}", "v1:0000000000000001", 79), 79);
      h.processElement(record("{\"x\":0.5}", null, 80), 80);
      h.processElement(record("[0.5]", FINGERPRINT, 81), 81);
      assertThat(h.extractOutputValues())
          .extracting(
              v -> v.getValues()[0], PerturbedValues::getGroup, PerturbedValues::getEventTime)
          .containsExactly(tuple(0.25, "walking", 5L), tuple(0.75, null, 78L));
    }
    assertThat(((Counter) metrics.operator.get("valuesSkipped")).getCount()).isEqualTo(1 + 1);
    assertThat(metrics.count("reason", "config-mismatch", "recordsSkipped")).isEqualTo(1);
    assertThat(metrics.count("reason", "config-missing", "recordsSkipped")).isEqualTo(1);
  }

  /** A POJO of the user's, read through a FieldReader. */
  public static final class Reading {
    public double x;
    public Double roll;
    public String activity;

    Reading(double x, Double roll, String activity) {
      this.x = x;
      this.roll = roll;
      this.activity = activity;
    }
  }

  @Test
  void yourOwnRecordsAreReadByNameWithTheirStreamTimestamp() throws Exception {
    FieldReader<Reading> reader =
        (r, name) ->
            switch (name) {
              case "x" -> r.x;
              case "att.roll" -> r.roll;
              case "activity" -> r.activity;
              default -> null;
            };
    CapturedMetrics metrics = new CapturedMetrics();
    var function = aggregation().groupBy("activity").build().fromRecords(reader);
    try (var h = ProcessFunctionTestHarnesses.forProcessFunction(function)) {
      h.processElement(new Reading(0.25, -1.0, "walking"), 10);
      h.processElement(new Reading(2.0, null, "sitting"), 11);
      h.processElement(new Reading(0.5, 9.0, null), 12);
      assertThat(h.extractOutputValues())
          .extracting(
              v -> v.getValues()[0],
              v -> v.getValues()[1],
              PerturbedValues::getGroup,
              PerturbedValues::getEventTime)
          .containsExactly(tuple(0.25, -1.0, "walking", 10L), tuple(0.5, Double.NaN, null, 12L));
    }
    assertThatThrownBy(() -> aggregation().build().fromRecords(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("reader: a FieldReader is required");
    assertThatThrownBy(() -> aggregation().groupBy("user").build())
        .hasMessageStartingWith("groupBy: 'user' is not a passthrough field");
  }

  @Test
  void valuesSkippedByYourReaderAreCounted() throws Exception {
    FieldReader<Reading> reader =
        (r, name) -> name.equals("x") ? (Object) r.x : name.equals("att.roll") ? r.roll : null;
    var function =
        new RecordValuesFunction<>(
            AggregationFields.checked(PerturbedValuesDeserializerTest.CONFIG, null, null), reader);
    CapturedMetrics metrics = new CapturedMetrics();
    try (var h =
        new OneInputStreamOperatorTestHarness<>(
            new org.apache.flink.streaming.api.operators.ProcessOperator<>(function),
            metrics.environment)) {
      h.open();
      h.processElement(new Reading(0.5, 9.0, "walking"), 1);
      h.processElement(new Reading(-1, null, "walking"), 2);
      // Without a timestamp in the stream: Long.MIN_VALUE, which the aggregation refuses loudly.
      h.processElement(
          new org.apache.flink.streaming.runtime.streamrecord.StreamRecord<>(
              new Reading(0.5, 0.0, null)));
      assertThat(h.extractOutputValues())
          .extracting(PerturbedValues::getGroup, PerturbedValues::getEventTime)
          .containsExactly(tuple(null, 1L), tuple(null, Long.MIN_VALUE));
    }
    assertThat(((Counter) metrics.operator.get("valuesSkipped")).getCount()).isEqualTo(1 + 2);
  }

  /**
   * With field sampling, the NaN (or null) of a field a record did not report is no lack; 9.0 still
   * is.
   */
  @Test
  void fieldsYourRecordsDidNotReportAreNotCountedWhenSampled() throws Exception {
    io.ogpm.config.PrivacyConfig sampled =
        io.ogpm.config.PrivacyConfig.parse(
            """
        sampling: {fields-per-record: 1}
        fields:
          - {name: x, min: 0, max: 1, epsilon: 1}
          - {name: att.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2}
        """);
    FieldReader<Reading> reader =
        (r, name) -> name.equals("x") ? (Object) r.x : name.equals("att.roll") ? r.roll : null;
    var function =
        new RecordValuesFunction<>(AggregationFields.checked(sampled, null, null), reader);
    CapturedMetrics metrics = new CapturedMetrics();
    try (var h =
        new OneInputStreamOperatorTestHarness<>(
            new org.apache.flink.streaming.api.operators.ProcessOperator<>(function),
            metrics.environment)) {
      h.open();
      h.processElement(new Reading(0.5, null, "walking"), 1);
      h.processElement(new Reading(Double.NaN, 1.0, "walking"), 2);
      h.processElement(new Reading(Double.NaN, 9.0, "walking"), 3);
      assertThat(h.extractOutputValues())
          .extracting(PerturbedValues::getEventTime)
          .containsExactly(1L, 2L);
    }
    assertThat(((Counter) metrics.operator.get("valuesSkipped")).getCount()).isEqualTo(1);
  }

  @Test
  void namedRowsAreReadByDottedNames() {
    Row att = Row.withNames();
    att.setField("roll", 1.5);
    Row row = Row.withNames();
    row.setField("x", 0.25);
    row.setField("att", att);
    FieldReader<Row> rows = FieldReader.rows();
    assertThat(rows.read(row, "x")).isEqualTo(0.25);
    assertThat(rows.read(row, "att.roll")).isEqualTo(1.5);
    assertThat(rows.read(row, "att.pitch")).isNull();
    assertThat(rows.read(row, "y")).isNull();
    assertThat(rows.read(row, "x.y")).isNull();
    assertThat(rows.read(Row.of(0.25), "x")).as("a positional row has no names").isNull();
  }

  @Test
  void watermarksTakeTheEventTime() {
    TimestampAssigner<PerturbedValues> assigner =
        LdpAggregation.watermarks(Duration.ofSeconds(1)).createTimestampAssigner(null);
    assertThat(assigner.extractTimestamp(new PerturbedValues(new double[] {0.5}, null, 42), 7))
        .isEqualTo(42);
  }

  @Test
  void valuesAreComparedWhole() {
    PerturbedValues a = new PerturbedValues(new double[] {0.5, Double.NaN}, "g", 3);
    assertThat(a)
        .isEqualTo(new PerturbedValues(new double[] {0.5, Double.NaN}, "g", 3))
        .hasSameHashCodeAs(new PerturbedValues(new double[] {0.5, Double.NaN}, "g", 3))
        .isNotEqualTo(new PerturbedValues(new double[] {0.5, 0.1}, "g", 3))
        .isNotEqualTo(new PerturbedValues(new double[] {0.5, Double.NaN}, null, 3))
        .isNotEqualTo(new PerturbedValues(new double[] {0.5, Double.NaN}, "g", 4));
    assertThat(a.toString()).isEqualTo("PerturbedValues{[0.5, NaN], group=g, eventTime=3}");
    assertThat(List.of(a)).isNotEmpty();
  }
}
