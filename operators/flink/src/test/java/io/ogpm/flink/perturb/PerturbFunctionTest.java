package io.ogpm.flink.perturb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.record.HostileInputs;
import io.ogpm.record.ReasonCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The perturb operator in Flink's test harness: what it passes on, and what it counts. */
class PerturbFunctionTest {
  static final String FIELDS =
      """
      id-field: id
      user-field: user
      fields: [{name: x, min: 0, max: 1, epsilon: 0.5}, {name: y, min: 0, max: 1, epsilon: 1}]
      """;
  static final ObjectMapper JSON = new ObjectMapper();

  private static RawRecord raw(int i, TimestampType type) {
    String json =
        "{\"id\":\"r"
            + i
            + "\",\"user\":\"u\",\"x\":0.5,\"y\":"
            + (i % 2 == 0 ? "0.25" : "\"bad\"")
            + "}";
    return new RawRecord(json.getBytes(StandardCharsets.UTF_8), "raw", 1, i, 1_000 + i, type);
  }

  /** Ten records, five of them bad; returns the operator's captured metrics. */
  private static CapturedMetrics run(PrivacyConfig config, List<PerturbedRecord> out)
      throws Exception {
    CapturedMetrics metrics = new CapturedMetrics();
    try (var h =
        new OneInputStreamOperatorTestHarness<>(
            new ProcessOperator<>(new PerturbFunction(config, KeySource.none(), false)),
            metrics.environment)) {
      h.open();
      for (int i = 0; i < 10; i++) {
        h.processElement(
            raw(i, i < 5 ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME), 0);
      }
      out.addAll(h.extractOutputValues());
    }
    metrics.environment.close();
    return metrics;
  }

  @Test
  void withoutABudgetThePerturbedRecordsAreTheReleasedOnes() throws Exception {
    List<PerturbedRecord> out = new java.util.ArrayList<>();
    CapturedMetrics metrics = run(PrivacyConfig.parse(FIELDS), out);
    assertThat(out).hasSize(5);
    assertThat(out)
        .extracting(PerturbedRecord::getFingerprint)
        .containsOnly(io.ogpm.config.ConfigFingerprint.of(PrivacyConfig.parse(FIELDS)).value());
    assertThat(((Counter) metrics.operator.get("recordsPerturbed")).getCount()).isEqualTo(5);
    assertThat(((Gauge<?>) metrics.operator.get("epsilonSpent")).getValue()).isEqualTo(7.5);
  }

  @Test
  void withABudgetTheBudgetOperatorCountsTheReleasedRecords() throws Exception {
    List<PerturbedRecord> out = new java.util.ArrayList<>();
    CapturedMetrics metrics =
        run(PrivacyConfig.parse(FIELDS + "budget: {epsilon: 3, period: 1d}\n"), out);
    assertThat(out).hasSize(5);
    // Not released yet: the budget operator sets the fingerprint, so it does not cross the shuffle.
    assertThat(out).extracting(PerturbedRecord::getFingerprint).containsOnlyNulls();
    assertThat(metrics.operator.get("recordsPerturbed")).isNull();
    assertThat(metrics.operator.get("epsilonSpent")).isNull();
  }

  @Test
  void theTimestampAndItsTypeTravelWithTheRecord() throws Exception {
    List<PerturbedRecord> out = new java.util.ArrayList<>();
    run(PrivacyConfig.parse(FIELDS), out);
    assertThat(out)
        .extracting(PerturbedRecord::getTimestamp)
        .containsExactly(1_000L, 1_002L, 1_004L, 1_006L, 1_008L);
    assertThat(out)
        .extracting(PerturbedRecord::getTimestampType)
        .containsExactly(
            TimestampType.LOG_APPEND_TIME,
            TimestampType.LOG_APPEND_TIME,
            TimestampType.LOG_APPEND_TIME,
            TimestampType.CREATE_TIME,
            TimestampType.CREATE_TIME);
    assertThat(out)
        .extracting(PerturbedRecord::getSourceOffset)
        .containsExactly(0L, 2L, 4L, 6L, 8L);
    assertThat(out).extracting(PerturbedRecord::getSourceTopic).containsOnly("raw");
    assertThat(out).extracting(PerturbedRecord::getSourcePartition).containsOnly(1);
  }

  /**
   * Hostile input through the operator: every input is released or dead-lettered exactly once, each
   * dead letter names its reason (in the record and its JSON) and the input's coordinates, carries
   * the input's timestamp, is counted under its reason, and holds no raw value.
   */
  @Test
  void hostileInputIsReleasedOrDeadLetteredOnceCountedAndLeaksNoValue() throws Exception {
    List<byte[]> inputs = HostileInputs.generate(21, 400);
    List<PerturbedRecord> released = new ArrayList<>();
    List<DeadLetterRecord> dead = new ArrayList<>();
    CapturedMetrics metrics = new CapturedMetrics();
    try (var h =
        new OneInputStreamOperatorTestHarness<>(
            new ProcessOperator<>(
                new PerturbFunction(
                    PrivacyConfig.parse(HostileInputs.CONFIG_REJECT), KeySource.none(), false)),
            metrics.environment)) {
      h.open();
      for (int i = 0; i < inputs.size(); i++) {
        h.processElement(
            new RawRecord(inputs.get(i), "raw", 3, i, 5_000 + i, TimestampType.LOG_APPEND_TIME), 0);
      }
      released.addAll(h.extractOutputValues());
      for (StreamRecord<DeadLetterRecord> d : h.getSideOutput(DeadLetters.TAG)) {
        dead.add(d.getValue());
      }
    }
    metrics.environment.close();

    Set<Long> offsets = new HashSet<>();
    for (PerturbedRecord r : released) {
      assertThat(offsets.add(r.getSourceOffset())).isTrue();
      assertThat(new String(r.getValue(), StandardCharsets.UTF_8))
          .doesNotContain(HostileInputs.MARKER);
    }
    Map<String, Long> perReason = new HashMap<>();
    for (DeadLetterRecord d : dead) {
      String text = new String(d.getValue(), StandardCharsets.UTF_8);
      assertThat(text).doesNotContain(HostileInputs.MARKER);
      JsonNode json = JSON.readTree(text);
      assertThat(json.get("reason").asText()).isEqualTo(d.getReason());
      assertThat(json.get("message").asText()).isNotEmpty();
      assertThat(json.get("source").get("topic").asText()).isEqualTo("raw");
      assertThat(json.get("source").get("partition").asInt()).isEqualTo(3);
      long offset = json.get("source").get("offset").asLong();
      assertThat(offsets.add(offset)).as("offset %d once", offset).isTrue();
      assertThat(d.getTimestamp()).isEqualTo(5_000 + offset);
      perReason.merge(d.getReason(), 1L, Long::sum);
    }
    assertThat(offsets).hasSize(inputs.size());
    assertThat(released).isNotEmpty();
    assertThat(perReason.keySet())
        .contains(
            "malformed-json", "not-an-object", "missing-field", "not-a-number", "out-of-range");
    for (ReasonCode reason : ReasonCode.values()) {
      assertThat(metrics.count("reason", reason.code(), "recordsDeadLettered"))
          .as(reason.code())
          .isEqualTo(perReason.getOrDefault(reason.code(), 0L));
    }
    assertThat(((Counter) metrics.operator.get("recordsPerturbed")).getCount())
        .isEqualTo(released.size());
  }

  /**
   * Records between operators are serialised field by field by Flink, never by Kryo.
   * (PerturbedRecord has a dedicated serializer of its own: PerturbedRecordTypeSerializerTest.)
   */
  @ParameterizedTest
  @ValueSource(classes = {RawRecord.class, DeadLetterRecord.class})
  void recordsAreFlinkPojos(Class<?> type) {
    assertFlinkPojo(type);
  }

  /**
   * Asserts that Flink serialises this type as a POJO, field by field, with no field left to Kryo.
   */
  static void assertFlinkPojo(Class<?> type) {
    TypeInformation<?> info = TypeInformation.of(type);
    assertThat(info).isInstanceOf(PojoTypeInfo.class);
    PojoTypeInfo<?> pojo = (PojoTypeInfo<?>) info;
    for (int i = 0; i < pojo.getArity(); i++) {
      assertThat(pojo.getPojoFieldAt(i).getTypeInformation())
          .as(pojo.getPojoFieldAt(i).getField().getName())
          .isNotInstanceOf(GenericTypeInfo.class);
    }
  }

  /** A record of raw partition {@code partition}, good (a number) or bad (a string). */
  private static RawRecord inPartition(int partition, long offset, boolean good) {
    return inPartition("raw", partition, offset, good);
  }

  private static RawRecord inPartition(String topic, int partition, long offset, boolean good) {
    String json =
        "{\"id\":\"r"
            + offset
            + "\",\"user\":\"u\",\"x\":0.5,\"y\":"
            + (good ? "0.25" : "\"bad\"")
            + "}";
    return new RawRecord(
        json.getBytes(StandardCharsets.UTF_8),
        topic,
        partition,
        offset,
        1_000 + offset,
        TimestampType.LOG_APPEND_TIME);
  }

  private static OneInputStreamOperatorTestHarness<RawRecord, PerturbedRecord> sequencing(
      int parallelism, int subtask, OperatorSubtaskState restore) throws Exception {
    var h =
        new OneInputStreamOperatorTestHarness<>(
            new ProcessOperator<>(
                new PerturbFunction(PrivacyConfig.parse(FIELDS), KeySource.none(), true)),
            8,
            parallelism,
            subtask);
    if (restore != null) {
      h.initializeState(restore);
    }
    h.open();
    return h;
  }

  private static List<String> sequences(
      OneInputStreamOperatorTestHarness<RawRecord, PerturbedRecord> h) {
    return h.extractOutputValues().stream()
        .map(r -> r.getSourcePartition() + ":" + r.getSequence())
        .toList();
  }

  @Test
  void numbersEachRawPartitionsRecordsAndGoesOnAcrossARestoreAndARescale() throws Exception {
    OperatorSubtaskState first;
    try (var h = sequencing(1, 0, null)) {
      // Bad records become dead letters here and take no number: they never cross the shuffle.
      h.processElement(inPartition(0, 10, true), 0);
      h.processElement(inPartition(1, 20, true), 0);
      h.processElement(inPartition(0, 11, false), 0);
      h.processElement(inPartition(0, 12, true), 0);
      h.processElement(inPartition(1, 21, true), 0);
      assertThat(sequences(h)).containsExactly("0:0", "1:0", "0:1", "1:1");
      first = h.snapshot(1, 1);
    }
    // Rescaled to two subtasks: each receives every partition's number; subtask 0 reads partition
    // 0 on, subtask 1 reads nothing (its copy of partition 0's number goes stale).
    OperatorSubtaskState reading;
    OperatorSubtaskState idle;
    try (var a =
            sequencing(
                2,
                0,
                AbstractStreamOperatorTestHarness.repartitionOperatorState(first, 8, 1, 2, 0));
        var b =
            sequencing(
                2,
                1,
                AbstractStreamOperatorTestHarness.repartitionOperatorState(first, 8, 1, 2, 1))) {
      a.processElement(inPartition(0, 13, true), 0);
      a.processElement(inPartition(0, 14, true), 0);
      assertThat(sequences(a)).containsExactly("0:2", "0:3");
      reading = a.snapshot(2, 2);
      idle = b.snapshot(2, 2);
    }
    // Back to one subtask: the owner's number, not the stale copy.
    OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(reading, idle);
    try (var h =
        sequencing(
            1, 0, AbstractStreamOperatorTestHarness.repartitionOperatorState(merged, 8, 2, 1, 0))) {
      h.processElement(inPartition(0, 15, true), 0);
      h.processElement(inPartition(1, 22, true), 0);
      h.processElement(inPartition(2, 0, true), 0);
      // Another topic's partition 0 has numbers of its own.
      h.processElement(inPartition("raw-b", 0, 7, true), 0);
      h.processElement(inPartition(0, 16, true), 0);
      assertThat(sequences(h)).containsExactly("0:4", "1:2", "2:0", "0:0", "0:5");
    }
  }

  @Test
  void withoutAStageThatRestoresOrderRecordsCarryNoNumber() throws Exception {
    List<PerturbedRecord> out = new ArrayList<>();
    run(PrivacyConfig.parse(FIELDS), out);
    assertThat(out)
        .extracting(PerturbedRecord::getSequence)
        .containsOnly(PerturbedRecord.NO_SEQUENCE);
  }
}
