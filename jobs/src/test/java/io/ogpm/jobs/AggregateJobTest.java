package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.FlinkTypes;
import io.ogpm.flink.kafka.KafkaSettings;
import java.time.Duration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.Test;

/**
 * The aggregate job as built (no broker needed): its settings' validation, what it sets on the
 * environment, its uids (stable, so savepoints restore) and Flink's own serializers on every stream
 * and key, with generic types disabled (building would fail if any type needed Kryo).
 */
class AggregateJobTest {
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [ts, g]
      fields:
        - {name: x, min: 0, max: 1, epsilon: 1}
        - {name: a, domain: circular, min: 0, max: 360, epsilon: 2}
      """);
  static final KafkaSettings KAFKA = KafkaSettings.of("kafka:9092");

  static AggregateJob.Settings.Builder settings() {
    return AggregateJob.Settings.builder().aggregation(a -> a.config(CONFIG)).kafka(KAFKA);
  }

  @Test
  void theSettingsHaveDefaultsAndNameWhatIsWrong() {
    AggregateJob.Settings s = settings().build();
    assertThat(s.inputTopic()).isEqualTo("ogpm.perturbed");
    assertThat(s.outputTopic()).isEqualTo("ogpm.stats");
    assertThat(s.groupId()).isEqualTo("ogpm-aggregate");
    assertThat(s.transactionalIdPrefix()).isEqualTo("ogpm-aggregate");
    assertThat(s.timeField()).isNull();
    assertThat(s.outOfOrderness()).isEqualTo(Duration.ofSeconds(5));
    assertThat(s.idleTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.bounded()).isFalse();
    assertThat(s.checkpointInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.parallelism()).isZero();
    assertThat(s.config()).isSameAs(CONFIG);
    assertThat(s.aggregation().window()).isEqualTo(Duration.ofMinutes(1));
    assertThat(settings().aggregation(a -> a.uidPrefix("mine")).build().aggregation().uidPrefix())
        .as("the job's uids are its own")
        .isEqualTo("ogpm-aggregate");
    assertThat(s.toBuilder().aggregation(a -> a.bins(7)).build().aggregation().bins()).isEqualTo(7);
    assertThat(s.aggregation().quantiles()).containsExactly(0.1, 0.5, 0.9);
    assertThat(s.toBuilder().aggregation(a -> a.quantiles(0.5)).build().aggregation().quantiles())
        .containsExactly(0.5);
    assertThat(s.toBuilder().outputTopic("other").build().outputTopic()).isEqualTo("other");
    assertThat(s.outputTopic()).isEqualTo("ogpm.stats");

    assertThatThrownBy(
            () -> AggregateJob.Settings.builder().aggregation(a -> a.config(CONFIG)).build())
        .hasMessage("kafka: required");
    assertThatThrownBy(() -> settings().inputTopic(" ").build())
        .hasMessage("inputTopic: must not be blank, got ' '");
    assertThatThrownBy(() -> settings().groupId(null).build()).hasMessage("groupId: required");
    assertThatThrownBy(() -> settings().outputTopic("ogpm.perturbed").build())
        .hasMessage("outputTopic: must differ from the input topic, got 'ogpm.perturbed'");
    assertThatThrownBy(() -> settings().outOfOrderness(Duration.ofSeconds(-1)).build())
        .hasMessage("outOfOrderness: must be at least 0, got PT-1S");
    assertThatThrownBy(() -> settings().idleTimeout(Duration.ZERO).build())
        .hasMessage("idleTimeout: must be positive, got PT0S");
    assertThatThrownBy(() -> settings().checkpointInterval(Duration.ofMillis(5)).build())
        .hasMessage("checkpointInterval: must be at least 10 ms, got PT0.005S");
    assertThatThrownBy(() -> settings().parallelism(-1).build())
        .hasMessage("parallelism: must be at least 0 (0: the cluster's default), got -1");
    assertThatThrownBy(() -> settings().aggregation(a -> a.groupBy("nope")).build())
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> settings().timeField("x").build()).hasMessageContaining("x");
  }

  @Test
  void theJobSetsUpItsEnvironmentKeepsItsUidsAndNeedsNoKryo() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    AggregateJob.build(
        env,
        settings()
            .aggregation(a -> a.groupBy("g"))
            .timeField("ts")
            .checkpointInterval(Duration.ofSeconds(3))
            .parallelism(3)
            .bounded(true)
            .build());
    assertThat(env.getCheckpointConfig().getCheckpointInterval()).isEqualTo(3_000);
    assertThat(env.getCheckpointConfig().getCheckpointingConsistencyMode())
        .isEqualTo(CheckpointingMode.EXACTLY_ONCE);
    assertThat(env.getParallelism()).isEqualTo(3);
    assertThat(env.getConfiguration().get(PipelineOptions.GENERIC_TYPES)).isFalse();
    assertThat(env.getConfig().isObjectReuseEnabled()).isTrue();
    StreamGraph graph = env.getStreamGraph();
    assertThat(PerturbJobTest.uids(graph))
        .contains(
            "perturbed-source",
            "ogpm-aggregate-pre-aggregate",
            "ogpm-aggregate-window-estimates",
            "stats-sink");
    assertThat(FlinkTypes.assertNoKryo(graph)).isNotEmpty();
  }

  @Test
  void withoutParallelismTheEnvironmentsStays() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    int before = env.getParallelism();
    AggregateJob.build(env, settings().build());
    assertThat(env.getParallelism()).isEqualTo(before);
  }
}
