package io.ogpm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The aggregate job's first step, in Flink's operator test harness: one value per configured field
 * of each perturbed record, with the record's group (a passthrough field) and event time; what
 * holds no usable value is skipped and counted in {@code valuesSkipped}, since the perturbed topic
 * may carry records from elsewhere.
 */
class FieldValueExtractorTest {
  static final String CONFIG = """
      passthrough: [ts, activity]
      fields:
        - {name: x, min: 0, max: 1, epsilon: 1}
        - {name: att.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2}
      """;
  static final PrivacyConfig FIELDS = PrivacyConfig.parse(CONFIG);
  static final Mechanism X = MechanismCatalog.of(FIELDS.field("x").orElseThrow().spec());

  /** The values extracted from these records (event time i for the i-th), and the skip count. */
  record Extracted(List<FieldValue> values, long skipped) {}

  static Extracted extract(String groupField, List<byte[]> records) throws Exception {
    CapturedMetrics metrics = new CapturedMetrics();
    List<FieldValue> values = new ArrayList<>();
    try (var h = new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(new FieldValueExtractor(FIELDS, groupField)),
        metrics.environment)) {
      h.open();
      for (int i = 0; i < records.size(); i++) {
        h.processElement(new TimedValue(records.get(i), i), i);
      }
      for (StreamRecord<? extends FieldValue> r : h.extractOutputStreamRecords()) {
        assertThat(r.getTimestamp()).isEqualTo(r.getValue().getEventTime());
        values.add(r.getValue());
      }
    }
    metrics.environment.close();
    return new Extracted(values, ((Counter) metrics.operator.get("valuesSkipped")).getCount());
  }

  static Extracted extractJson(String groupField, String... json) throws Exception {
    List<byte[]> records = new ArrayList<>();
    for (String j : json) {
      records.add(j.getBytes(StandardCharsets.UTF_8));
    }
    return extract(groupField, records);
  }

  @Test
  void eachConfiguredFieldBecomesOneValueWithTheGroupAndTheEventTime() throws Exception {
    Extracted e = extractJson("activity",
        "{\"x\":0.25,\"att\":{\"roll\":-1.5},\"activity\":\"walking\",\"ts\":5,\"other\":0.5}",
        "{\"x\":0.75,\"att\":{\"roll\":3},\"activity\":\"sitting\"}");
    assertThat(e.values()).extracting(FieldValue::getGroup, FieldValue::getField, FieldValue::getValue,
        FieldValue::getEventTime).containsExactly(
            tuple("walking", "x", 0.25, 0L), tuple("walking", "att.roll", -1.5, 0L),
            tuple("sitting", "x", 0.75, 1L), tuple("sitting", "att.roll", 3.0, 1L));
    assertThat(e.skipped()).isZero();
  }

  /** The window key tells fields and groups apart, and gives each back. */
  @Test
  void theWindowKeyIsTheFieldAndTheGroup() throws Exception {
    Extracted e = extractJson("activity", "{\"x\":0.25,\"att\":{\"roll\":1},\"activity\":\"walking\"}",
        "{\"x\":0.5,\"activity\":\"walking\"}", "{\"x\":0.5,\"activity\":\"sitting\"}", "{\"x\":0.5}");
    List<String> keys = e.values().stream().map(FieldValue::key).toList();
    assertThat(keys.get(2)).as("same field and group, same key").isEqualTo(keys.get(0));
    assertThat(new java.util.HashSet<>(keys)).hasSize(4);
    assertThat(keys).extracting(FieldValue::fieldOf).containsExactly("x", "att.roll", "x", "x", "x");
    assertThat(keys).extracting(FieldValue::groupOf).containsExactly("walking", "walking", "walking", "sitting", null);
  }

  @Test
  void groupsAreTheTextOfTheGroupFieldAndNullWhereItIsAbsent() throws Exception {
    Extracted e = extractJson("activity", "{\"x\":0.5,\"activity\":\"a b\"}", "{\"x\":0.5,\"activity\":3}",
        "{\"x\":0.5,\"activity\":true}", "{\"x\":0.5,\"activity\":null}", "{\"x\":0.5}",
        "{\"x\":0.5,\"activity\":{\"k\":[1,2]}}");
    assertThat(e.values()).extracting(FieldValue::getGroup)
        .containsExactly("a b", "3", "true", null, null, "{\"k\":[1,2]}");
    // A dotted group field addresses a nested object.
    assertThat(extractJson("meta.room", "{\"x\":0.5,\"meta\":{\"room\":\"attic\"}}").values())
        .extracting(FieldValue::getGroup).containsExactly("attic");
    // Without --group-by, one global group whatever the records hold.
    assertThat(extractJson(null, "{\"x\":0.5,\"activity\":\"walking\"}").values())
        .extracting(FieldValue::getGroup).containsExactly((String) null);
  }

  /**
   * The output domain is {@code [outputLo, outputHi)}, as the mechanism's: both of its ends are where
   * a value stops being possible for a perturbed one.
   */
  @Test
  void valuesOutsideTheMechanismsOutputDomainAreSkippedAndCounted() throws Exception {
    double lo = X.outputLo();
    double hi = X.outputHi();
    Extracted e = extractJson(null, x(lo), x(Math.nextDown(hi)), x(hi), x(Math.nextDown(lo)), x(-1e300), x(1e300));
    assertThat(e.values()).extracting(FieldValue::getValue).containsExactly(lo, Math.nextDown(hi));
    // Each record also lacks att.roll: one skipped value per record for it.
    assertThat(e.skipped()).isEqualTo(4 + 6);
  }

  /** Every configured value a record lacks, or holds as something else than a number, counts once. */
  @Test
  void missingAndNonNumericValuesAreSkippedAndCounted() throws Exception {
    Extracted e = extractJson(null, "{\"att\":{\"roll\":1}}", "{\"x\":\"0.5\",\"att\":{\"roll\":null}}",
        "{\"x\":true,\"att\":[1]}", "{\"x\":{\"v\":0.5},\"att\":{\"roll\":{}}}", "{}");
    assertThat(e.values()).extracting(FieldValue::getField, FieldValue::getValue).containsExactly(tuple("att.roll", 1.0));
    assertThat(e.skipped()).isEqualTo(9);
  }

  /** A record that is no JSON object (or no record: a tombstone) yields nothing and counts once. */
  @Test
  void recordsThatAreNoJsonObjectAreSkippedAndCountedOnce() throws Exception {
    List<byte[]> records = List.of(new byte[0], new byte[] {(byte) 0xC3, 0x28}, bytes("{\"x\":0.5"),
        bytes("[0.5]"), bytes("0.5"), bytes("null"), bytes("\"x\""), bytes("{\"x\":0.5,\"att\":{\"roll\":0}}"));
    Extracted e = extract(null, records);
    assertThat(e.values()).hasSize(2);
    assertThat(e.skipped()).isEqualTo(7);
  }

  static String x(double value) {
    return "{\"x\":" + value + "}";
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
