package io.ogpm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The perturb operator in Flink's test harness: what it passes on, and what it counts. */
class PerturbFunctionTest {
  static final String FIELDS = """
      id-field: id
      user-field: user
      fields: [{name: x, min: 0, max: 1, epsilon: 0.5}, {name: y, min: 0, max: 1, epsilon: 1}]
      """;

  private static RawRecord raw(int i, TimestampType type) {
    String json = "{\"id\":\"r" + i + "\",\"user\":\"u\",\"x\":0.5,\"y\":" + (i % 2 == 0 ? "0.25" : "\"bad\"") + "}";
    return new RawRecord(json.getBytes(StandardCharsets.UTF_8), "raw", 1, i, 1_000 + i, type);
  }

  /** Ten records, five of them bad; returns the operator's captured metrics. */
  private static CapturedMetrics run(PrivacyConfig config, List<PerturbedRecord> out) throws Exception {
    CapturedMetrics metrics = new CapturedMetrics();
    try (var h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(new PerturbFunction(config, KeySource.none())),
        metrics.environment)) {
      h.open();
      for (int i = 0; i < 10; i++) {
        h.processElement(raw(i, i < 5 ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME), 0);
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
    assertThat(((Counter) metrics.operator.get("recordsPerturbed")).getCount()).isEqualTo(5);
    assertThat(((Gauge<?>) metrics.operator.get("epsilonSpent")).getValue()).isEqualTo(7.5);
  }

  @Test
  void withABudgetTheBudgetOperatorCountsTheReleasedRecords() throws Exception {
    List<PerturbedRecord> out = new java.util.ArrayList<>();
    CapturedMetrics metrics = run(PrivacyConfig.parse(FIELDS + "budget: {epsilon: 3, period: 1d}\n"), out);
    assertThat(out).hasSize(5);
    assertThat(metrics.operator.get("recordsPerturbed")).isNull();
    assertThat(metrics.operator.get("epsilonSpent")).isNull();
  }

  @Test
  void theTimestampAndItsTypeTravelWithTheRecord() throws Exception {
    List<PerturbedRecord> out = new java.util.ArrayList<>();
    run(PrivacyConfig.parse(FIELDS), out);
    assertThat(out).extracting(PerturbedRecord::getTimestamp).containsExactly(1_000L, 1_002L, 1_004L, 1_006L, 1_008L);
    assertThat(out).extracting(PerturbedRecord::getTimestampType).containsExactly(TimestampType.LOG_APPEND_TIME,
        TimestampType.LOG_APPEND_TIME, TimestampType.LOG_APPEND_TIME, TimestampType.CREATE_TIME, TimestampType.CREATE_TIME);
    assertThat(out).extracting(PerturbedRecord::getSourceOffset).containsExactly(0L, 2L, 4L, 6L, 8L);
  }

  /** Records between operators are serialised field by field by Flink, never by Kryo. */
  @ParameterizedTest
  @ValueSource(classes = {RawRecord.class, PerturbedRecord.class, DeadLetterRecord.class})
  void recordsAreFlinkPojos(Class<?> type) {
    TypeInformation<?> info = TypeInformation.of(type);
    assertThat(info).isInstanceOf(PojoTypeInfo.class);
    PojoTypeInfo<?> pojo = (PojoTypeInfo<?>) info;
    for (int i = 0; i < pojo.getArity(); i++) {
      assertThat(pojo.getPojoFieldAt(i).getTypeInformation()).as(pojo.getPojoFieldAt(i).getField().getName())
          .isNotInstanceOf(GenericTypeInfo.class);
    }
  }
}
