package io.ogpm.jobs.cli;

import io.ogpm.flink.kafka.KafkaSettings;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How a command reaches Kafka: the bootstrap servers, the client properties file and how long the
 * command waits for Kafka. The job commands and {@code ogpm topics} take the same options, so that
 * an operator passes both the same file and reads the same errors.
 */
public final class KafkaConnectionOptions {
  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT,...",
      defaultValue = "localhost:9092",
      description = "Kafka bootstrap servers. Default: ${DEFAULT-VALUE}.")
  String bootstrapServers;

  @Option(
      names = "--kafka-properties",
      paramLabel = "FILE",
      description =
          "Kafka client properties (SASL, SSL, timeouts), one file for the jobs and ogpm topics: applied to every"
              + " Kafka client. Its transaction.timeout.ms, if any, is the jobs' transaction timeout (default 600000,"
              + " the sinks' own).")
  Path kafkaProperties;

  @Option(
      names = "--kafka-timeout",
      paramLabel = "DURATION",
      defaultValue = "30s",
      converter = DurationConverter.class,
      description =
          "How long the command waits for each answer from Kafka (brokers reachable, topics present) before it"
              + " gives up; a running job's clients have their own timeouts. Default: ${DEFAULT-VALUE}.")
  Duration kafkaTimeout;

  /**
   * The bootstrap servers with the client properties; a usage error naming {@code
   * --kafka-properties} where the file cannot be read.
   */
  public KafkaSettings settings() {
    try {
      return KafkaSettings.of(bootstrapServers, kafkaProperties);
    } catch (IllegalArgumentException e) {
      throw new UsageError("--kafka-properties: " + e.getMessage());
    }
  }

  /** How long each request may take; a usage error unless it is positive. */
  public Duration timeout() {
    if (kafkaTimeout.isZero() || kafkaTimeout.isNegative()) {
      throw new UsageError("--kafka-timeout must be positive, got " + kafkaTimeout);
    }
    return kafkaTimeout;
  }
}
