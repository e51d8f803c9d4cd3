package io.ogpm.flink.kafka;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * How the jobs reach Kafka: bootstrap servers, plus pass-through client properties (SASL, SSL,
 * timeouts) from a properties file, applied to every source and sink.
 */
@PublicEvolving
public final class KafkaSettings implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String bootstrapServers;
  private final Properties properties;

  private KafkaSettings(String bootstrapServers, Properties properties) {
    this.bootstrapServers = bootstrapServers;
    this.properties = properties;
  }

  public static KafkaSettings of(String bootstrapServers) {
    return new KafkaSettings(bootstrapServers, new Properties());
  }

  /** With client properties read from a file (may be null). */
  public static KafkaSettings of(String bootstrapServers, Path propertiesFile) {
    Properties p = new Properties();
    if (propertiesFile != null) {
      try (Reader r = Files.newBufferedReader(propertiesFile, StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "cannot read the Kafka properties file " + propertiesFile + ": " + e.getMessage());
      }
    }
    return new KafkaSettings(bootstrapServers, p);
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  /**
   * Producer settings for the exactly-once sinks: the pass-through properties, and a transaction
   * timeout (default 10 minutes) that must not exceed the brokers' {@code
   * transaction.max.timeout.ms} (15 minutes by default).
   */
  public Properties producerProperties() {
    Properties p = properties();
    p.putIfAbsent("transaction.timeout.ms", "600000");
    return p;
  }

  /** An exactly-once Kafka sink: transactions committed on checkpoints, ids under the prefix. */
  public <T> KafkaSink<T> exactlyOnceSink(
      KafkaRecordSerializationSchema<T> serializer, String transactionalIdPrefix) {
    return KafkaSink.<T>builder()
        .setBootstrapServers(bootstrapServers)
        .setKafkaProducerConfig(producerProperties())
        .setRecordSerializer(serializer)
        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
        .setTransactionalIdPrefix(transactionalIdPrefix)
        .build();
  }

  /** Admin client settings: the pass-through properties and the bootstrap servers. */
  public Map<String, Object> adminConfig() {
    Map<String, Object> config = new HashMap<>();
    properties.forEach((k, v) -> config.put((String) k, v));
    config.put("bootstrap.servers", bootstrapServers);
    return config;
  }

  /** A copy of the pass-through properties. */
  public Properties properties() {
    Properties copy = new Properties();
    copy.putAll(properties);
    return copy;
  }
}
