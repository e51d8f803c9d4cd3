package io.ogpm.demo;

import io.ogpm.jobs.topics.TopicLayout;
import io.ogpm.kafka.SingleBrokerTopics;

/**
 * The demo's topics: the layout {@code ogpm topics} creates for a deployment ({@link TopicLayout},
 * the jobs' default names, as many raw and perturbed partitions as perturb subtasks), on the demo's
 * one broker. The raw and stats topics take the broker's clock, as the layout requires. The topics
 * the jobs write keep every record ({@link TopicLayout.Builder#keepOutputs()}): time-based
 * retention (7 days by default) compares record timestamps with the wall clock, and records stamped
 * long ago (the sample's 2026-01-01) would be deleted minutes after they are written. The embedded
 * broker's data is deleted on exit.
 */
final class DemoTopics {
  static final String RAW = TopicLayout.RAW;
  static final String PERTURBED = TopicLayout.PERTURBED;
  static final String DEAD = TopicLayout.DEAD_LETTERS;
  static final String STATS = TopicLayout.STATS;

  private DemoTopics() {}

  /**
   * The layout for a perturb job of {@code parallelism} subtasks on one broker: one replica each.
   */
  static TopicLayout layout(int parallelism) {
    return TopicLayout.builder()
        .perturbParallelism(parallelism)
        .replicationFactor(1)
        .keepOutputs()
        .build();
  }

  /**
   * Creates the topics on the broker at {@code bootstrapServers}; returns once each has leaders.
   */
  static void create(String bootstrapServers, int parallelism) {
    try (SingleBrokerTopics topics = SingleBrokerTopics.connect(bootstrapServers)) {
      layout(parallelism)
          .topics()
          .forEach(t -> topics.create(t.name(), t.partitions(), t.configs()));
    }
  }
}
