package io.ogpm.jobs.topics;

import java.util.Map;
import java.util.Optional;

/** A broker's id and its effective configuration. */
public record ObservedBroker(int id, Map<String, String> configs) {
  public ObservedBroker {
    configs = Map.copyOf(configs);
  }

  public Optional<String> config(String key) {
    return Optional.ofNullable(configs.get(key));
  }
}
