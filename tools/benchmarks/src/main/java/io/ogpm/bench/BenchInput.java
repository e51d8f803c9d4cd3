package io.ogpm.bench;

import io.ogpm.sample.BundledSample;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The pipelines' input: the sample's records in a loop, each with an id of its own, one of {@value
 * #USERS} users (so the sample's budget lets every record through), one of a number of activities
 * (the groups), and times 1 ms apart; and the configurations they are read with.
 */
final class BenchInput {
  static final String RAW = "bench.raw";
  static final String RAW_ONE_FIELD = "bench.raw-1";
  static final String RAW_MANY_GROUPS = "bench.raw-groups";
  static final int USERS = 1000;
  static final int GROUPS = 100;

  /**
   * The many-groups case's groups: about 100 records per group and window at the default window.
   */
  static final int MANY_GROUPS = 1000;

  /**
   * The sample's configuration with its first field only (same ids, users, passthrough and budget).
   */
  static final String ONE_FIELD =
      """
      id-field: id
      user-field: user
      passthrough: [id, ts, activity]
      fields:
        - {name: userAcceleration.x, min: -3.0, max: 3.0, epsilon: 1.0, out-of-range: clamp}
      budget: {epsilon: 50000, period: P1D, clock: log-append-time, max-lag: P1D}
      """;

  private BenchInput() {}

  /** A configuration's YAML without its budget section (the sample's is its last key). */
  static String withoutBudget(String yaml) {
    int budget = yaml.indexOf("\nbudget:");
    return budget < 0 ? yaml : yaml.substring(0, budget + 1);
  }

  /**
   * Creates {@code topic} (two partitions, stamped by the broker, as a raw topic must be for the
   * budget's clock) and writes {@code records} records of {@code groups} activities into it.
   */
  static void write(BenchCluster cluster, String topic, int records, int groups) {
    cluster.createTopic(topic, 2, BenchCluster.STAMPED_BY_BROKER);
    List<String> sample = BundledSample.records(Integer.MAX_VALUE);
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            cluster.bootstrapServers(),
            ProducerConfig.LINGER_MS_CONFIG,
            20,
            ProducerConfig.BATCH_SIZE_CONFIG,
            1 << 18,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (int i = 0; i < records; i++) {
        producer.send(
            new ProducerRecord<>(
                topic,
                record(sample.get(i % sample.size()), i, groups).getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
  }

  /** Record {@code i}: the sample's {@code line} with its own id, user, time and activity. */
  static String record(String line, int i, int groups) {
    int tail = line.indexOf(",\"attitude\"");
    return "{\"id\":\"b"
        + i
        + "\",\"user\":\"u"
        + (i % USERS)
        + "\",\"ts\":"
        + (1767225600000L + i)
        + ",\"activity\":\"g"
        + (i % groups)
        + "\""
        + line.substring(tail);
  }
}
