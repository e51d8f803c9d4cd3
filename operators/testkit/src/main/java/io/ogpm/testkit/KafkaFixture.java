package io.ogpm.testkit;

import io.ogpm.kafka.KafkaClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A running Kafka cluster for tests, whatever hosts it: the in-JVM broker or a Docker container,
 * with the helpers a test of an LDP pipeline needs: topics that keep records stamped in the past,
 * raw topics stamped by the broker, producing JSON records, reading committed output to its end,
 * and waiting for a count.
 *
 * <p>Why an interface: the same tests must run here (no Docker, {@link EmbeddedKafka}) and against
 * the official {@code apache/kafka} image where Docker exists ({@link ContainerKafkaFixture});
 * {@link KafkaFixtures#start()} picks one. {@link LdpTestEnvironment} and {@link
 * KafkaFixtureExtension} give one to a test class.
 */
public interface KafkaFixture extends AutoCloseable {

  /**
   * Broker settings of every test fixture. Tests stamp records at fixed past instants (2026-01-01)
   * for reproducible windows and budget periods, and time-based retention (7 days by default) would
   * delete such records at the broker's first retention check, 30 s after it starts, and a test
   * class that runs longer would lose its input ({@code DemoTopicsIT} shows the effect on topics).
   */
  Map<String, String> TEST_BROKER_PROPERTIES = Map.of("log.retention.ms", "-1");

  /**
   * Topic settings of {@link #createTopic(String, int)}: no time-based retention, so records
   * stamped in the past stay whatever the broker's default (the fixtures' brokers have none either,
   * but a topic created here keeps its records on any broker).
   */
  Map<String, String> KEEP_RECORDS = Map.of("retention.ms", "-1");

  /**
   * Topic settings of {@link #createRawTopic(String, int)}: {@link #KEEP_RECORDS} and {@code
   * message.timestamp.type=LogAppendTime}, the broker's clock that a privacy budget with {@code
   * clock: log-append-time} (the default) requires of its raw topic.
   */
  Map<String, String> RAW_TOPIC =
      Map.of("retention.ms", "-1", "message.timestamp.type", "LogAppendTime");

  /**
   * How long tests wait for a condition (records read, a job running, a metric reached). Tests end
   * as soon as the condition holds; the deadline only bounds a real failure, so it is generous: a
   * shared 2-core machine under load can be many times slower than an idle one.
   */
  Duration PATIENCE = Duration.ofMinutes(5);

  /** The {@code bootstrap.servers} value for clients. */
  String bootstrapServers();

  /**
   * Creates a topic (replication factor 1) with exactly these topic-level configs and returns once
   * every partition has a leader.
   */
  void createTopic(String name, int partitions, Map<String, String> configs);

  /**
   * Creates a topic that keeps its records however old their timestamps ({@link #KEEP_RECORDS}).
   */
  default void createTopic(String name, int partitions) {
    createTopic(name, partitions, KEEP_RECORDS);
  }

  /**
   * Creates a raw topic for a perturbation with a privacy budget: the broker stamps each record
   * with its own clock ({@link #RAW_TOPIC}), so a producer cannot choose its budget period.
   */
  default void createRawTopic(String name, int partitions) {
    createTopic(name, partitions, RAW_TOPIC);
  }

  /**
   * Writes {@code values} (no keys) with a plain, non-transactional producer and waits for acks.
   */
  default void produce(String topic, List<byte[]> values) {
    KafkaClients.produce(bootstrapServers(), topic, values);
  }

  /**
   * Writes records with a plain, non-transactional producer, waits for every acknowledgement and
   * returns where each landed, in order (the inputs of {@link PrivacyAssertions}).
   */
  default List<KafkaRecord> produce(String topic, TestRecord... records) {
    return produceRecords(topic, Arrays.asList(records));
  }

  /** As {@link #produce(String, TestRecord...)}, for a list. */
  default List<KafkaRecord> produceRecords(String topic, List<TestRecord> records) {
    List<ProducerRecord<byte[], byte[]>> sent =
        records.stream().map(r -> r.toProducerRecord(topic)).toList();
    List<RecordMetadata> landed = KafkaClients.produceRecords(bootstrapServers(), sent);
    List<KafkaRecord> out = new ArrayList<>(sent.size());
    for (int i = 0; i < sent.size(); i++) {
      out.add(KafkaRecord.of(sent.get(i), landed.get(i)));
    }
    return out;
  }

  /** Writes one record per JSON text (UTF-8, no key) and returns where each landed, in order. */
  default List<KafkaRecord> produceJson(String topic, List<String> jsons) {
    return produceRecords(topic, jsons.stream().map(TestRecord::json).toList());
  }

  /** As {@link #produceJson(String, List)}. */
  default List<KafkaRecord> produceJson(String topic, String... jsons) {
    return produceJson(topic, Arrays.asList(jsons));
  }

  /**
   * Writes one record per non-blank line of a JSON-lines file (UTF-8), in order, and returns where
   * each landed.
   */
  default List<KafkaRecord> produceJsonLines(String topic, Path file) {
    try {
      return produceJson(
          topic,
          Files.readAllLines(file, StandardCharsets.UTF_8).stream()
              .filter(l -> !l.isBlank())
              .toList());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * Reads every partition of {@code topic} from the beginning up to its current end offset (the
   * last stable offset when {@code readCommitted}, so open transactions are not waited for).
   *
   * @throws IllegalStateException if the end is not reached within {@code timeout}
   */
  default List<ConsumerRecord<byte[], byte[]>> consumeAll(
      String topic, boolean readCommitted, Duration timeout) {
    return KafkaClients.consumeAll(bootstrapServers(), topic, readCommitted, timeout);
  }

  /**
   * Reads the committed records of {@code topic}, every partition from the beginning to its end as
   * of the call: it first waits until each transaction open below that end is decided, so a read
   * started right after a job commits sees all of it.
   *
   * @throws IllegalStateException if a transaction stays open, or the end is not reached, within
   *     {@link #PATIENCE}; the message names the topic and partition
   */
  default List<KafkaRecord> readCommitted(String topic) {
    return KafkaRecord.of(consumeAll(topic, true, PATIENCE));
  }

  /**
   * Reads every record of {@code topic} to its current end, those of open and aborted transactions
   * included (to see what a failed attempt wrote, e.g. replays after a failure).
   */
  default List<KafkaRecord> readUncommitted(String topic) {
    return KafkaRecord.of(consumeAll(topic, false, PATIENCE));
  }

  /**
   * Waits until {@code topic} holds at least {@code count} committed records and returns them all
   * (possibly more: assert the exact number if that matters).
   *
   * @throws AssertionError if fewer are committed after {@link #PATIENCE}, naming how many
   */
  default List<KafkaRecord> awaitCommitted(String topic, int count) {
    return Await.until(
            count + " committed records in topic " + topic,
            () -> new ReadCounts.OfTopic(readCommitted(topic)),
            c -> c.records().size() >= count)
        .records();
  }

  /**
   * Waits until the committed records of {@code topics} together number at least {@code total} (a
   * perturbation has accounted for {@code total} inputs once its perturbed and dead-letter topics
   * hold that many) and returns each topic's records.
   *
   * @throws AssertionError if fewer are committed after {@link #PATIENCE}, naming how many per
   *     topic
   */
  default Map<String, List<KafkaRecord>> awaitCommitted(int total, String... topics) {
    return Await.until(
            total + " committed records in topics " + String.join(", ", topics),
            () -> {
              Map<String, List<KafkaRecord>> read = new LinkedHashMap<>();
              for (String t : topics) {
                read.put(t, readCommitted(t));
              }
              return new ReadCounts.OfTopics(read);
            },
            c -> c.total() >= total)
        .records();
  }

  /** Stops the cluster and frees its resources; does not throw checked exceptions. */
  @Override
  void close();
}
