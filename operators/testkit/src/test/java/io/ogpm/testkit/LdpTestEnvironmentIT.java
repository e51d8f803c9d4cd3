package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.kafka.DeadLetterSerializer;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.PerturbedRecordSerializer;
import io.ogpm.flink.kafka.RawRecordDeserializer;
import io.ogpm.flink.perturb.DeadLetters;
import io.ogpm.flink.perturb.PerturbFunction;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The extension on a real broker and MiniCluster: jobs run on its cluster at its parallelism, one
 * subtask on each of two task managers; a budget's raw topic is stamped by the broker; an unbounded
 * job is awaited by count and cancelled; the parameters it resolves are its own broker and cluster;
 * a nested class shares them.
 */
class LdpTestEnvironmentIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder()
          .taskManagers(2)
          .slotsPerTaskManager(1)
          .brokerProperty("num.partitions", "3")
          .build();

  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      user-field: user
      passthrough: [id]
      fields:
        - {name: x, min: 0, max: 1, epsilon: 1}
      budget: {epsilon: 3, period: P1D}
      """);
  static final Instant LONG_AGO = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * Perturbation with the library's functions and a budget, unbounded, at the cluster's
   * parallelism.
   */
  static void job(StreamExecutionEnvironment env, String prefix) {
    env.enableCheckpointing(500);
    KafkaSettings kafka = KafkaSettings.of(ENV.bootstrapServers());
    SingleOutputStreamOperator<PerturbedRecord> perturbed =
        env.fromSource(
                KafkaSource.<RawRecord>builder()
                    .setBootstrapServers(ENV.bootstrapServers())
                    .setTopics(prefix + "-raw")
                    .setStartingOffsets(OffsetsInitializer.earliest())
                    .setDeserializer(new RawRecordDeserializer())
                    .build(),
                WatermarkStrategy.noWatermarks(),
                "raw")
            .process(new PerturbFunction(CONFIG, KeySource.none(), false))
            .uid("perturb");
    SingleOutputStreamOperator<PerturbedRecord> released =
        perturbed
            .keyBy(PerturbedRecord::getUser)
            .process(
                new io.ogpm.flink.budget.BudgetFunction(
                    CONFIG.budget().get(), io.ogpm.config.ConfigFingerprint.of(CONFIG).value()))
            .uid("budget");
    released.sinkTo(
        kafka.exactlyOnceSink(new PerturbedRecordSerializer(prefix + "-out"), prefix + "-out"));
    perturbed
        .getSideOutput(DeadLetters.TAG)
        .union(released.getSideOutput(DeadLetters.TAG))
        .sinkTo(
            kafka.exactlyOnceSink(new DeadLetterSerializer(prefix + "-dead"), prefix + "-dead"));
  }

  @Test
  void anUnboundedJobRunsOnTheClusterAndIsAwaitedByCount(
      KafkaFixture kafka, @InjectMiniCluster MiniCluster cluster) throws Exception {
    assertThat(kafka).isSameAs(ENV.kafka());
    assertThat(cluster).isSameAs(ENV.miniCluster());
    assertThat(ENV.parallelism()).isEqualTo(2);
    kafka.createRawTopic("u-raw", 2);
    kafka.createTopic("u-out", 2);
    kafka.createTopic("u-dead", 1);
    List<TestRecord> records = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      // The producer stamps every record in the past; the broker's clock replaces it.
      records.add(
          TestRecord.json("{\"id\":\"u" + i + "\",\"user\":\"user-" + (i % 4) + "\",\"x\":0.5}")
              .withKey("user-" + (i % 4))
              .withTimestamp(LONG_AGO));
    }
    long before = System.currentTimeMillis();
    List<KafkaRecord> inputs = kafka.produceRecords("u-raw", records);
    assertThat(inputs).allSatisfy(r -> assertThat(r.timestamp()).isGreaterThanOrEqualTo(before));

    StreamExecutionEnvironment env = ENV.executionEnvironment();
    job(env, "u");
    JobClient job = env.executeAsync("unbounded");
    Map<String, List<KafkaRecord>> out = kafka.awaitCommitted(inputs.size(), "u-out", "u-dead");
    job.cancel().get();
    Await.jobStatus(job, JobStatus.CANCELED);

    // A budget of 3 per day, 1 per record: 3 records of each of 4 users (one day, unless midnight
    // passed between producing and perturbing, which the broker's stamps would show).
    long days =
        inputs.stream().map(r -> r.timestamp() / Duration.ofDays(1).toMillis()).distinct().count();
    assertThat(out.get("u-out")).hasSize((int) (12 * days));
    assertThat(out.get("u-dead"))
        .extracting(r -> r.header("ogpm-reason"))
        .containsOnly("budget-exhausted");
    PrivacyAssertions.assertPrivacyContract(CONFIG, inputs, out.get("u-out"), out.get("u-dead"));
    // Parallelism 2: the budget, which counts what it releases, has one subtask on each task
    // manager.
    CapturedMetrics metrics = ENV.metrics().ofJob("unbounded");
    assertThat(metrics.count("recordsPerturbed")).isEqualTo(2);
    assertThat(metrics.counter("recordsPerturbed")).isEqualTo(12 * days);
    assertThat(metrics.counter("recordsDeadLettered", "reason", "budget-exhausted"))
        .isEqualTo(40 - 12 * days);
    assertThat(ENV.metrics().ofJob("another job").count("recordsPerturbed")).isZero();
  }

  @Test
  void awaitingACountThatNeverComesFailsNamingWhatWasSeen() {
    ENV.kafka().createTopic("quiet", 1);
    ENV.kafka().produceJson("quiet", "{}");
    assertThatThrownBy(
            () ->
                Await.until(
                    "2 committed records in topic quiet",
                    Duration.ofSeconds(1),
                    () -> ENV.kafka().readCommitted("quiet").size(),
                    n -> n >= 2))
        .isInstanceOf(AssertionError.class)
        .hasMessage("2 committed records in topic quiet: not within PT1S; last seen: 1");
  }

  @Nested
  class Nested_ {
    @Test
    void aNestedClassSharesTheBrokerAndTheCluster(
        LdpTestEnvironment env, @InjectMiniCluster MiniCluster cluster) {
      assertThat(env).isSameAs(ENV);
      assertThat(cluster).isSameAs(ENV.miniCluster());
      assertThat(StreamExecutionEnvironment.getExecutionEnvironment().getParallelism())
          .isEqualTo(2);
    }
  }
}
