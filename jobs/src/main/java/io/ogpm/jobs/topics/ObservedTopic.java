package io.ogpm.jobs.topics;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A topic as the brokers describe it: its partitions, the fewest replicas any partition has, and
 * its effective configuration (topic overrides and the brokers' defaults alike, as {@code
 * kafka-configs.sh --describe --all} shows them).
 */
public record ObservedTopic(
    String name, int partitions, int replicationFactor, Map<String, String> configs) {
  public ObservedTopic {
    Objects.requireNonNull(name, "name");
    if (partitions < 1) {
      throw new IllegalArgumentException(
          "partitions must be >= 1, got " + partitions + " for topic '" + name + "'");
    }
    if (replicationFactor < 1) {
      throw new IllegalArgumentException(
          "replicationFactor must be >= 1, got " + replicationFactor + " for topic '" + name + "'");
    }
    configs = Map.copyOf(configs);
  }

  /** The effective value of a setting, if the brokers reported one. */
  public Optional<String> config(String key) {
    return Optional.ofNullable(configs.get(key));
  }
}
