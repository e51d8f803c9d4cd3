package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.FlinkTypes;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.kafka.KafkaSettings;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/**
 * The perturb job as built (no broker needed): its settings' validation, what it sets on the
 * environment (the job's business, not the library's), its uids (fixed, so that its savepoints
 * restore) and Flink's own serializers on every stream.
 */
class PerturbJobTest {
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      user-field: user
      passthrough: [id]
      fields: [{name: x, min: 0, max: 1, epsilon: 1}]
      budget: {epsilon: 10, period: 1d}
      """);
  static final KafkaSettings KAFKA = KafkaSettings.of("kafka:9092");

  static PerturbJob.Settings.Builder settings() {
    return PerturbJob.Settings.builder().config(CONFIG).kafka(KAFKA);
  }

  @Test
  void theSettingsHaveDefaultsAndNameWhatIsWrong() {
    PerturbJob.Settings s = settings().build();
    assertThat(s.inputTopic()).isEqualTo("ogpm.raw");
    assertThat(s.outputTopic()).isEqualTo("ogpm.perturbed");
    assertThat(s.deadLetterTopic()).isEqualTo("ogpm.dead-letters");
    assertThat(s.groupId()).isEqualTo("ogpm-perturb");
    assertThat(s.transactionalIdPrefix()).isEqualTo("ogpm-perturb");
    assertThat(s.keySource().isKeyed()).isFalse();
    assertThat(s.bounded()).isFalse();
    assertThat(s.fromEarliest()).isTrue();
    assertThat(s.checkpointInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.parallelism()).isZero();
    assertThat(s.config()).isSameAs(CONFIG);
    assertThat(s.kafka()).isSameAs(KAFKA);

    assertThatThrownBy(() -> PerturbJob.Settings.builder().kafka(KAFKA).build())
        .hasMessage("config: required");
    assertThatThrownBy(() -> PerturbJob.Settings.builder().config(CONFIG).build())
        .hasMessage("kafka: required");
    assertThatThrownBy(() -> settings().keySource(null).build())
        .hasMessage("keySource: required (KeySource.none() for secure randomness)");
    assertThatThrownBy(() -> settings().inputTopic(" ").build())
        .hasMessage("inputTopic: must not be blank, got ' '");
    assertThatThrownBy(() -> settings().groupId(null).build()).hasMessage("groupId: required");
    assertThatThrownBy(() -> settings().transactionalIdPrefix("").build())
        .hasMessage("transactionalIdPrefix: must not be blank, got ''");
    assertThatThrownBy(() -> settings().outputTopic("ogpm.raw").build())
        .hasMessage("outputTopic: must differ from the input topic, got 'ogpm.raw'");
    assertThatThrownBy(() -> settings().deadLetterTopic("ogpm.raw").build())
        .hasMessage("deadLetterTopic: must differ from the input topic, got 'ogpm.raw'");
    assertThatThrownBy(() -> settings().deadLetterTopic("ogpm.perturbed").build())
        .hasMessage("deadLetterTopic: must differ from the output topic, got 'ogpm.perturbed'");
    assertThatThrownBy(() -> settings().checkpointInterval(Duration.ZERO).build())
        .hasMessage("checkpointInterval: must be at least 10 ms, got PT0S");
    assertThatThrownBy(() -> settings().checkpointInterval(Duration.ofMillis(5)).build())
        .hasMessage("checkpointInterval: must be at least 10 ms, got PT0.005S");
    assertThatThrownBy(() -> settings().parallelism(-1).build())
        .hasMessage("parallelism: must be at least 0 (0: the cluster's default), got -1");
    PrivacyConfig noId = PrivacyConfig.parse("fields: [{name: x, min: 0, max: 1, epsilon: 1}]");
    assertThatThrownBy(() -> settings().config(noId).keySource(KeySource.environment("K")).build())
        .hasMessage(
            "randomness: keyed randomness (key in $K) needs an id-field in the configuration");
  }

  static Set<String> uids(StreamGraph graph) {
    Set<String> out = new TreeSet<>();
    for (StreamNode n : graph.getStreamNodes()) {
      if (n.getTransformationUID() != null) {
        out.add(n.getTransformationUID());
      }
    }
    return out;
  }

  @Test
  void theJobSetsUpItsEnvironmentAndKeepsItsUids() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    PerturbJob.build(
        env,
        settings().checkpointInterval(Duration.ofSeconds(3)).parallelism(3).bounded(true).build(),
        UnaryOperator.identity());
    assertThat(env.getCheckpointConfig().getCheckpointInterval()).isEqualTo(3_000);
    assertThat(env.getCheckpointConfig().getCheckpointingConsistencyMode())
        .isEqualTo(CheckpointingMode.EXACTLY_ONCE);
    assertThat(env.getParallelism()).isEqualTo(3);
    assertThat(env.getConfiguration().get(PipelineOptions.GENERIC_TYPES)).isFalse();
    assertThat(env.getConfig().isObjectReuseEnabled()).isTrue();
    StreamGraph graph = env.getStreamGraph();
    assertThat(uids(graph))
        .contains(
            "raw-source", "perturb", "budget-by-period", "perturbed-sink", "dead-letter-sink");
    assertThat(FlinkTypes.assertNoKryo(graph)).isNotEmpty();
  }

  @Test
  void withoutParallelismTheEnvironmentsStays() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    int before = env.getParallelism();
    PerturbJob.build(env, settings().build());
    assertThat(env.getParallelism()).isEqualTo(before);
    assertThat(uids(env.getStreamGraph())).contains("raw-source", "perturb", "budget-by-period");
  }
}
