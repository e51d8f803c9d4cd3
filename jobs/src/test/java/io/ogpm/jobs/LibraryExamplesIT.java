package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.PerturbationResult;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.RecordAccess;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.PerturbationSinks;
import io.ogpm.flink.kafka.RawRecordSource;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of README.md and docs/datastream.md, run: the two examples, JSON records from Kafka
 * and the job's own POJOs, on a Flink MiniCluster (and a real broker for the first). The example
 * code below is the pages', with the test's topic names.
 */
class LibraryExamplesIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();

  static final ObjectMapper JSON = new ObjectMapper();

  /** README.md and docs/datastream.md: "JSON records from Kafka". */
  static void jsonExample(
      StreamExecutionEnvironment env,
      String bootstrapServers,
      Path configFile,
      String rawTopic,
      String perturbedTopic,
      String deadLetterTopic) {
    PrivacyConfig config = PrivacyConfig.load(configFile);
    KafkaSettings kafka = KafkaSettings.of(bootstrapServers);
    env.enableCheckpointing(1_000); // the exactly-once sinks commit on checkpoints

    LdpPerturbation ldp = LdpPerturbation.builder().config(config).uidPrefix("my-job").build();
    DataStream<RawRecord> raw =
        env.fromSource(
                RawRecordSource.builder().kafka(kafka).topics(rawTopic).groupId("my-job").build(),
                ldp.rawWatermarks(),
                "raw records")
            .uid("raw-source"); // broker times, if a bound needs them

    PerturbationResult<PerturbedRecord> result = ldp.apply(raw);

    result
        .perturbed()
        .sinkTo(PerturbationSinks.perturbed(kafka, perturbedTopic, "my-job"))
        .uid("perturbed-sink");
    result
        .deadLetters()
        .sinkTo(PerturbationSinks.deadLetters(kafka, deadLetterTopic, "my-job"))
        .uid("dead-letter-sink");
  }

  @Test
  void jsonRecordsFromKafka(@TempDir Path dir) throws Exception {
    KafkaFixture kafka = ENV.kafka();
    Path config =
        Files.writeString(
            dir.resolve("ogpm.yaml"),
            """
        id-field: id
        passthrough: [id, ts]
        fields:
          - {name: accel_x, min: -2, max: 2, epsilon: 1}
        """);
    kafka.createTopic("ex-raw", 2);
    kafka.createTopic("ex-perturbed", 2);
    kafka.createTopic("ex-dead", 1);
    List<String> records = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      String x = i % 50 == 49 ? "\"7.345612\"" : Double.toString((i % 40) / 10.0 - 2);
      records.add(
          "{\"id\":\"r" + i + "\",\"ts\":" + i + ",\"accel_x\":" + x + ",\"name\":\"SECRET\"}");
    }
    List<KafkaRecord> inputs = kafka.produceJson("ex-raw", records);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    jsonExample(env, kafka.bootstrapServers(), config, "ex-raw", "ex-perturbed", "ex-dead");
    JobClient job = env.executeAsync("README example: JSON records from Kafka");
    try {
      Map<String, List<KafkaRecord>> read =
          kafka.awaitCommitted(records.size(), "ex-perturbed", "ex-dead");
      List<KafkaRecord> out = read.get("ex-perturbed");
      List<KafkaRecord> dead = read.get("ex-dead");
      assertThat(out.size() + dead.size()).isEqualTo(records.size());
      assertThat(dead).hasSize(4);
      Set<String> ids = new HashSet<>();
      for (KafkaRecord r : out) {
        JsonNode v = JSON.readTree(r.value());
        assertThat(ids.add(v.get("id").asText())).isTrue();
        assertThat(v.get("accel_x").asDouble()).isBetween(-2.0, 2.0);
        assertThat(r.valueAsString()).doesNotContain("SECRET");
      }
      for (KafkaRecord r : dead) {
        assertThat(JSON.readTree(r.value()).get("reason").asText()).isEqualTo("not-a-number");
        assertThat(r.valueAsString()).doesNotContain("7.345612");
      }
      PrivacyAssertions.assertPrivacyContract(PrivacyConfig.load(config), inputs, out, dead);
    } finally {
      job.cancel().get();
    }
  }

  /**
   * README.md and docs/datastream.md: "Your own POJO". A Flink POJO: public fields (or getters and
   * setters), a no-argument constructor.
   */
  public static class SensorReading {
    public String deviceId;
    public String user;
    public long timestamp;
    public double temperature;
    public double heading;
    public String firmware;

    public SensorReading() {}

    SensorReading(String deviceId, long timestamp, double temperature, double heading) {
      this.deviceId = deviceId;
      this.user = "owner of " + deviceId;
      this.timestamp = timestamp;
      this.temperature = temperature;
      this.heading = heading;
      this.firmware = "fw-1.2";
    }
  }

  /** README.md and docs/datastream.md: "Your own POJO". */
  static PerturbationResult<SensorReading> pojoExample(DataStream<SensorReading> readings) {
    PrivacyConfig config =
        PrivacyConfig.parse(
            """
        id-field: deviceId
        passthrough: [deviceId, timestamp]
        fields:
          - {name: temperature, min: -40, max: 60, epsilon: 1, out-of-range: clamp}
          - {name: heading, domain: circular, min: 0, max: 360, epsilon: 1}
        """);
    return LdpPerturbation.builder()
        .config(config)
        .uidPrefix("sensors")
        .build()
        .apply(readings, RecordAccess.pojo(SensorReading.class));
  }

  @Test
  void yourOwnPojos() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<SensorReading> input = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      double heading = i % 100 == 99 ? Double.NaN : (i * 7.3) % 360;
      input.add(new SensorReading("device-" + (i % 5), 1_000L + i, -60 + i * 0.5, heading));
    }
    PerturbationResult<SensorReading> ldp = pojoExample(env.fromData(input));
    try (CloseableIterator<SensorReading> perturbed = ldp.perturbed().collectAsync();
        CloseableIterator<DeadLetterRecord> dead = ldp.deadLetters().collectAsync()) {
      env.execute("README example: your own POJOs");
      List<SensorReading> out = new ArrayList<>();
      perturbed.forEachRemaining(out::add);
      List<DeadLetterRecord> letters = new ArrayList<>();
      dead.forEachRemaining(letters::add);
      assertThat(out.size() + letters.size()).isEqualTo(input.size());
      assertThat(letters).hasSize(3).allMatch(d -> d.getReason().equals("not-a-number"));
      Set<Long> timestamps = new HashSet<>();
      for (SensorReading r : out) {
        assertThat(r.temperature).isBetween(-40.0, 60.0);
        assertThat(r.heading).isGreaterThanOrEqualTo(0.0).isLessThan(360.0);
        assertThat(r.deviceId).startsWith("device-");
        assertThat(timestamps.add(r.timestamp)).isTrue();
        assertThat(r.user).isNull();
        assertThat(r.firmware).isNull();
      }
      assertThat(timestamps).hasSize(297);
    }
  }
}
