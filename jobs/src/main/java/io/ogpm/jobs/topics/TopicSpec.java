package io.ogpm.jobs.topics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A topic of the deployment: its name, its role (who reads and writes it), how it is created
 * (partitions, replication factor, topic settings) and what an existing one must satisfy.
 */
public record TopicSpec(
    String name,
    String role,
    int partitions,
    int replicationFactor,
    Map<String, String> configs,
    List<TopicRequirement> requirements) {
  public TopicSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    configs = Collections.unmodifiableMap(new LinkedHashMap<>(configs));
    requirements = List.copyOf(requirements);
  }
}
