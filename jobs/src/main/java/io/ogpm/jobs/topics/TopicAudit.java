package io.ogpm.jobs.topics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compares what the brokers describe with a {@link TopicLayout}: every deviation, one each, with
 * its reason; and the topic settings that would cure those a setting can cure. No I/O: the
 * decisions are tested without a broker.
 */
public final class TopicAudit {
  private TopicAudit() {}

  /**
   * Every deviation: a missing topic, then each unmet requirement of each existing topic, in the
   * layout's order, then a perturbed topic with fewer partitions than the raw topic, then each
   * broker whose transaction timeout ceiling is too low.
   *
   * @param observed the existing topics by name (a layout topic absent here does not exist)
   */
  public static List<Deviation> check(
      TopicLayout layout, Map<String, ObservedTopic> observed, List<ObservedBroker> brokers) {
    List<Deviation> out = new ArrayList<>();
    for (TopicSpec spec : layout.topics()) {
      ObservedTopic topic = observed.get(spec.name());
      if (topic == null) {
        out.add(
            new Deviation(
                spec.name(), "does not exist", "the " + spec.role() + " (ogpm topics creates it)"));
        continue;
      }
      for (TopicRequirement r : spec.requirements()) {
        r.found(topic).ifPresent(found -> out.add(new Deviation(spec.name(), found, r.why())));
      }
    }
    layout.checkPartitions(observed).ifPresent(out::add);
    for (ObservedBroker b : brokers) {
      layout.check(b).ifPresent(out::add);
    }
    return out;
  }

  /**
   * The topic settings that cure the deviations of existing topics (partitions and replication
   * factor are not among them), by topic; topics that need none are absent.
   */
  public static Map<String, Map<String, String>> fixes(
      TopicLayout layout, Map<String, ObservedTopic> observed) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    for (TopicSpec spec : layout.topics()) {
      ObservedTopic topic = observed.get(spec.name());
      if (topic == null) {
        continue;
      }
      Map<String, String> settings = new LinkedHashMap<>();
      for (TopicRequirement r : spec.requirements()) {
        Optional<Map.Entry<String, String>> fix = r.fix(topic);
        fix.ifPresent(e -> settings.put(e.getKey(), e.getValue()));
      }
      if (!settings.isEmpty()) {
        out.put(spec.name(), settings);
      }
    }
    return out;
  }
}
