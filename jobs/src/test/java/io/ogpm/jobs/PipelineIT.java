package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.PerturbedRecordSerializer;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.testkit.CapturedMetrics;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Raw JSON records through PerturbJob and AggregateJob on a Flink MiniCluster against a real Kafka
 * broker: every input accounted for, nothing undeclared or raw in any output topic, window
 * statistics within the mechanism's bounds of the truth, circular means right across the seam.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();

  static final String CONFIG_YAML =
      """
      id-field: id
      user-field: user
      passthrough: [id, ts, activity]
      fields:
        - name: accel_x
          min: -2.0
          max: 2.0
          epsilon: 2.0
        - name: attitude.roll
          domain: circular
          min: -3.141592653589793
          max: 3.141592653589793
          epsilon: 2.0
      """;
  static final PrivacyConfig CONFIG = PrivacyConfig.parse(CONFIG_YAML);
  static final ObjectMapper JSON = new ObjectMapper();
  static final int GOOD = 4_000;
  static final long WINDOW_MS = 10_000;
  static final long START = 1_700_000_000_000L - 1_700_000_000_000L % WINDOW_MS;

  /** Inputs by id, for checking; filled by the first test. */
  static final Map<String, double[]> INPUTS = new HashMap<>();

  static int badRecords;

  @Test
  @Order(1)
  void perturbJobAccountsForEveryInputAndLeaksNothing() throws Exception {
    KafkaFixture kafka = ENV.kafka();
    kafka.createTopic("raw", 3);
    kafka.createTopic("perturbed", 3);
    kafka.createTopic("dead", 1);
    List<String> records = new ArrayList<>();
    AesCtrSource rnd = AesCtrSource.seeded(77);
    for (int i = 0; i < GOOD; i++) {
      String activity = i % 2 == 0 ? "walk" : "stairs";
      // accel_x: walkers around 0.5, stairs around -1; roll within 0.3 rad of the seam at +-pi.
      double accel = (activity.equals("walk") ? 0.5 : -1.0) + 0.4 * (rnd.nextUniform() - 0.5);
      double roll = Math.PI - 0.3 + 0.6 * rnd.nextUniform();
      roll = roll > Math.PI ? roll - 2 * Math.PI : roll;
      String id = "rec-" + i;
      INPUTS.put(id, new double[] {accel, roll});
      long ts = START + (long) (i * (4.0 * WINDOW_MS / GOOD));
      records.add(
          "{\"id\":\""
              + id
              + "\",\"user\":\"user-"
              + (i % 7)
              + "\",\"ts\":"
              + ts
              + ",\"activity\":\""
              + activity
              + "\",\"accel_x\":"
              + accel
              + ",\"attitude\":{\"roll\":"
              + roll
              + ",\"pitch\":0.123456},\"name\":\"SECRET-NAME\"}");
    }
    String[] bad = {
      "{not json",
      "[1,2,3]",
      "{\"id\":\"b1\",\"user\":\"u\",\"ts\":1,\"attitude\":{\"roll\":0.1}}",
      "{\"id\":\"b2\",\"user\":\"u\",\"accel_x\":\"7.654321\",\"attitude\":{\"roll\":0.1}}",
      "{\"id\":\"b3\",\"user\":\"u\",\"accel_x\":7.654321,\"attitude\":{\"roll\":0.1}}",
      ""
    };
    records.addAll(List.of(bad));
    badRecords = bad.length;
    List<KafkaRecord> inputs = kafka.produceJson("raw", records);

    StreamExecutionEnvironment env = ENV.executionEnvironment();
    PerturbJob.build(
        env,
        PerturbJob.Settings.builder()
            .config(CONFIG)
            .kafka(KafkaSettings.of(kafka.bootstrapServers()))
            .inputTopic("raw")
            .outputTopic("perturbed")
            .deadLetterTopic("dead")
            .groupId("perturb-test")
            .transactionalIdPrefix("perturb-test")
            .keySource(KeySource.none())
            .bounded(true)
            .checkpointInterval(Duration.ofSeconds(1))
            .parallelism(2)
            .build());
    env.execute("perturb test");

    List<KafkaRecord> out = kafka.readCommitted("perturbed");
    List<KafkaRecord> dead = kafka.readCommitted("dead");
    assertThat(out.size() + dead.size()).isEqualTo(records.size());
    assertThat(dead).hasSize(badRecords);
    PrivacyAssertions.assertPrivacyContract(CONFIG, inputs, out, dead);
    Set<String> seen = new HashSet<>();
    Set<String> allowed = Set.of("id", "ts", "activity", "accel_x", "attitude");
    for (KafkaRecord r : out) {
      String text = r.valueAsString();
      JsonNode v = JSON.readTree(text);
      assertThat(names(v)).isSubsetOf(allowed);
      assertThat(names(v.get("attitude"))).containsExactly("roll");
      assertThat(text).doesNotContain("SECRET-NAME", "user", "0.123456");
      String id = v.get("id").asText();
      assertThat(seen.add(id)).as("each id once").isTrue();
      double[] input = INPUTS.get(id);
      assertThat(v.get("accel_x").asDouble()).isNotEqualTo(input[0]);
      assertThat(text).doesNotContain(Double.toString(input[0]), Double.toString(input[1]));
      assertThat(r.keyAsString()).isEqualTo(id);
      assertThat(r.header(PerturbedRecordSerializer.EPSILON_HEADER)).isEqualTo("4.0");
      // No budget here: the perturb operator sets it.
      assertThat(r.header(ConfigFingerprint.HEADER))
          .isEqualTo(ConfigFingerprint.of(CONFIG).value());
    }
    assertThat(seen).isEqualTo(INPUTS.keySet());
    Set<String> reasons = new HashSet<>();
    for (KafkaRecord r : dead) {
      String text = r.valueAsString();
      JsonNode d = JSON.readTree(text);
      reasons.add(d.get("reason").asText());
      assertThat(d.get("source").get("topic").asText()).isEqualTo("raw");
      assertThat(d.get("source").has("offset")).isTrue();
      assertThat(text).doesNotContain("7.654321", "SECRET");
    }
    assertThat(reasons)
        .containsExactlyInAnyOrder(
            "malformed-json", "not-an-object", "missing-field", "not-a-number", "out-of-range");

    // Metrics, summed over the subtasks.
    CapturedMetrics metrics = ENV.metrics().ofJob("perturb test");
    assertThat(metrics.counter("recordsPerturbed")).isEqualTo(GOOD);
    assertThat(metrics.counter("recordsDeadLettered", "reason", "malformed-json")).isEqualTo(2);
    assertThat(metrics.counter("recordsDeadLettered", "reason", "out-of-range")).isEqualTo(1);
    assertThat(metrics.counter("recordsDeadLettered", "reason", "budget-exhausted")).isZero();
    assertThat(metrics.gauge("epsilonSpent")).isEqualTo(4.0 * GOOD);
  }

  @Test
  @Order(2)
  void aggregateJobEstimatesEachWindowWithinTheMechanismsBounds() throws Exception {
    KafkaFixture kafka = ENV.kafka();
    kafka.createTopic("stats", 1);
    // The perturb job's two subtasks interleave the raw partitions' records in the perturbed topic,
    // so event times there are out of order by up to the whole test's span (40 s): the watermark
    // allows a minute, so no record is late.
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    AggregateJob.build(
        env,
        AggregateJob.Settings.builder()
            .aggregation(
                a ->
                    a.config(CONFIG)
                        .groupBy("activity")
                        .window(Duration.ofMillis(WINDOW_MS))
                        .bins(20))
            .kafka(KafkaSettings.of(kafka.bootstrapServers()))
            .inputTopic("perturbed")
            .outputTopic("stats")
            .groupId("aggregate-test")
            .transactionalIdPrefix("aggregate-test")
            .timeField("ts")
            .outOfOrderness(Duration.ofMinutes(1))
            .idleTimeout(Duration.ofSeconds(5))
            .bounded(true)
            .checkpointInterval(Duration.ofSeconds(1))
            .parallelism(2)
            .build());
    env.execute("aggregate test");

    List<KafkaRecord> stats = kafka.readCommitted("stats");
    // 4 windows x 2 activities x 2 fields.
    assertThat(stats).hasSize(16);
    long accelCount = 0;
    for (KafkaRecord r : stats) {
      JsonNode s = JSON.readTree(r.value());
      String field = s.get("field").asText();
      String activity = s.get("group").asText();
      long windowStart = java.time.Instant.parse(s.get("windowStart").asText()).toEpochMilli();
      assertThat((windowStart - START) % WINDOW_MS).isZero();
      double[] truth = truth(activity, windowStart, field);
      assertThat(s.get("count").asLong()).isEqualTo((long) truth[2]);
      if (field.equals("accel_x")) {
        accelCount += s.get("count").asLong();
        // Every input lies where OGPM's mean function is affine (|x| <= 1.2, affine on |x| < 1.5 at
        // eps
        // 2), so the unbiased estimate's standard deviation is at most sd = sqrt(maxVar / n) /
        // slope:
        // it is within 4.89 sd of the truth (p = 1e-6, as the secure randomness draws a new sample
        // every run). The 95 % interval widened by 4.89 - 1.96 sd on each side holds the truth as
        // often: widening [L, U] by d moves the consistent means out by at least d / slope.
        Mechanism m = MechanismCatalog.of(CONFIG.fields().get(0).spec());
        double slope = (m.outputMean(0.5) - m.outputMean(-0.5));
        double sd = Math.sqrt(m.maxOutputVariance() / s.get("count").asDouble()) / slope;
        assertThat(Math.abs(s.get("means").get("unbiased").get("estimate").asDouble() - truth[0]))
            .isLessThan(4.89 * sd);
        assertThat(truth[0])
            .isBetween(
                s.get("meanInterval").get(0).asDouble() - (4.89 - 1.96) * sd,
                s.get("meanInterval").get(1).asDouble() + (4.89 - 1.96) * sd);
      } else {
        // Circular mean near the seam: the angle to the true mean, not the linear difference. The
        // mean resultant vector's components along and across the truth's direction have standard
        // deviations at most s = sqrt(max((1 - rho2) / 2, (1 + rho2) / 2 - rho1^2) / n) / rho1; the
        // inputs lie within 0.3 rad of the seam, so R >= sin(0.3) / 0.3 = 0.985. Both components
        // within 4.89 s (p = 2e-6) bound the angle by asin(4.89 s / (0.985 - 4.89 s)).
        Mechanism m = MechanismCatalog.of(CONFIG.fields().get(1).spec());
        double rho1 = m.noiseCosineMoment(0, 1);
        double rho2 = m.noiseCosineMoment(0, 2);
        double sd =
            Math.sqrt(
                    Math.max((1 - rho2) / 2, (1 + rho2) / 2 - rho1 * rho1)
                        / s.get("count").asDouble())
                / rho1;
        double angle =
            Math.abs(
                Math.IEEEremainder(
                    s.get("means").get("raw").get("estimate").asDouble() - truth[1], 2 * Math.PI));
        if (0.985 - 4.89 * sd > 4.89 * sd) {
          assertThat(angle).isLessThan(Math.asin(4.89 * sd / (0.985 - 4.89 * sd)));
        }
        assertThat(s.get("circularMeanInterval").isArray()).isTrue();
        assertThat(Math.abs(Math.IEEEremainder(truth[1] - Math.PI, 2 * Math.PI))).isLessThan(0.3);
      }
      double total = 0;
      for (JsonNode f : s.get("histogram")) {
        total += f.asDouble();
      }
      assertThat(total).isBetween(1 - 1e-9, 1 + 1e-9);
    }
    assertThat(accelCount).isEqualTo(GOOD);
  }

  /** {linear mean of accel_x, circular mean of roll, count} of the inputs in a window and group. */
  private static double[] truth(String activity, long windowStart, String field) {
    double sum = 0;
    double c = 0;
    double s = 0;
    int n = 0;
    for (int i = 0; i < GOOD; i++) {
      long ts = START + (long) (i * (4.0 * WINDOW_MS / GOOD));
      String a = i % 2 == 0 ? "walk" : "stairs";
      if (!a.equals(activity) || ts < windowStart || ts >= windowStart + WINDOW_MS) {
        continue;
      }
      double[] in = INPUTS.get("rec-" + i);
      sum += in[0];
      c += Math.cos(in[1]);
      s += Math.sin(in[1]);
      n++;
    }
    return new double[] {sum / n, Math.atan2(s, c), n};
  }

  private static List<String> names(JsonNode node) {
    List<String> out = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      out.add(it.next());
    }
    return out;
  }
}
