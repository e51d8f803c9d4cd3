package io.ogpm.demo;

import io.ogpm.flink.KeySource;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.PerturbJob;
import java.time.Duration;

/**
 * The deployable jobs' settings in the demo: the demo's topics, groups and transactional ids, 2 s
 * checkpoints, and the options' window, bins and parallelism; bounded for the batch run, unbounded
 * for the follow mode.
 */
final class DemoJobs {
  static final Duration CHECKPOINTS = Duration.ofSeconds(2);

  private DemoJobs() {}

  static PerturbJob.Settings perturb(DemoSetup demo, boolean bounded) {
    return PerturbJob.Settings.builder()
        .config(demo.config())
        .kafka(demo.kafka())
        .inputTopic(DemoTopics.RAW)
        .outputTopic(DemoTopics.PERTURBED)
        .deadLetterTopic(DemoTopics.DEAD)
        .groupId("ogpm-demo-perturb")
        .transactionalIdPrefix("ogpm-demo-perturb")
        .keySource(KeySource.none())
        .bounded(bounded)
        .checkpointInterval(CHECKPOINTS)
        .parallelism(demo.options().parallelism())
        .build();
  }

  /**
   * The batch replay writes the whole sample at once and two perturb subtasks interleave it, so
   * event times in the perturbed topic are out of order by up to the sample's span: the watermark
   * allows five minutes (a live deployment would use seconds).
   */
  static AggregateJob.Settings aggregate(DemoSetup demo, boolean bounded) {
    Demo.Options o = demo.options();
    return AggregateJob.Settings.builder()
        .aggregation(
            a ->
                a.config(demo.config()).groupBy(Demo.GROUP_FIELD).window(o.window()).bins(o.bins()))
        .kafka(demo.kafka())
        .inputTopic(DemoTopics.PERTURBED)
        .outputTopic(DemoTopics.STATS)
        .groupId("ogpm-demo-aggregate")
        .transactionalIdPrefix("ogpm-demo-aggregate")
        .timeField(Demo.TIME_FIELD)
        .outOfOrderness(Duration.ofMinutes(5))
        .idleTimeout(Duration.ofSeconds(5))
        .bounded(bounded)
        .checkpointInterval(CHECKPOINTS)
        .parallelism(o.parallelism())
        .build();
  }
}
