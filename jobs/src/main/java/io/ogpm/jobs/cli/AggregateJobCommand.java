package io.ogpm.jobs.cli;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.topics.TopicLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Runs AggregateJob: perturbed topic to windowed stats topic. */
@Command(
    name = "aggregate-job",
    mixinStandardHelpOptions = true,
    description =
        "Runs the Flink job that reads the perturbed topic (read_committed) and writes one JSON object"
            + " per event-time window, field and group to the stats topic: count, histograms, means with 95%% intervals.")
public final class AggregateJobCommand implements Callable<Integer> {
  @ArgGroup(exclusive = true, multiplicity = "1")
  JobConfigSource config;

  @Option(
      names = "--input-topic",
      defaultValue = TopicLayout.PERTURBED,
      description = "Perturbed topic. Default: ${DEFAULT-VALUE}.")
  String inputTopic;

  @Option(
      names = "--output-topic",
      defaultValue = TopicLayout.STATS,
      description = "Stats topic. Default: ${DEFAULT-VALUE}.")
  String outputTopic;

  @Option(
      names = "--group-by",
      paramLabel = "FIELD",
      description = "A passthrough field to group by (e.g. activity); default: one global group.")
  String groupBy;

  @Option(
      names = "--time-field",
      paramLabel = "FIELD",
      description =
          "A passthrough field with the event time (epoch ms or ISO-8601); default: the Kafka timestamp.")
  String timeField;

  @Option(
      names = "--window",
      defaultValue = "1m",
      converter = DurationConverter.class,
      description = "Window size. Default: ${DEFAULT-VALUE}.")
  Duration window;

  @Option(
      names = "--slide",
      converter = DurationConverter.class,
      description = "Slide of sliding windows; default: tumbling.")
  Duration slide;

  @Option(
      names = "--allowed-lateness",
      defaultValue = "5m",
      converter = DurationConverter.class,
      description =
          "Late records within this delay update their window (see --late-update-interval). Default: ${DEFAULT-VALUE}.")
  Duration allowedLateness;

  @Option(
      names = "--late-update-interval",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "Late records update their window's statistics at most this often (processing time), and once"
              + " more at the end of the allowed lateness. Default: ${DEFAULT-VALUE}.")
  Duration lateUpdateInterval;

  @Option(
      names = "--out-of-orderness",
      defaultValue = "5s",
      converter = DurationConverter.class,
      description = "Bounded out-of-orderness of the watermarks. Default: ${DEFAULT-VALUE}.")
  Duration outOfOrderness;

  @Option(
      names = "--idle-timeout",
      defaultValue = "30s",
      converter = DurationConverter.class,
      description =
          "A partition without records for this long moves its event time on with the wall clock, so the last"
              + " window of a stream that stops closes; one that never had a record stops holding back the others."
              + " Default: ${DEFAULT-VALUE}.")
  Duration idleTimeout;

  @Option(
      names = "--bins",
      defaultValue = "50",
      description = "Histogram bins. Default: ${DEFAULT-VALUE}.")
  int bins;

  @Option(
      names = "--quantiles",
      paramLabel = "P[,P...]",
      split = ",",
      defaultValue = "0.1,0.5,0.9",
      description =
          "Quantiles each estimate reports with 95%% intervals, as probabilities in (0, 1), increasing."
              + " Default: ${DEFAULT-VALUE}.")
  double[] quantiles;

  @Option(
      names = "--method",
      defaultValue = "em",
      description = "Headline histogram and mean: raw or em. Default: ${DEFAULT-VALUE}.")
  String method;

  @Mixin KafkaOptions kafka;

  @Override
  public Integer call() {
    AggregateJob.Settings settings = settings();
    kafka.run(
        "aggregate",
        settings,
        kafka.check(settings),
        List.of(outputTopic),
        env -> AggregateJob.build(env, settings));
    return 0;
  }

  /** The job's settings from the parsed options, validated (naming a bad option). */
  public AggregateJob.Settings settings() {
    kafka.validate();
    if (!method.equals("raw") && !method.equals("em")) {
      throw new UsageError("--method must be raw or em, got '" + method + "'");
    }
    // The aggregation's options (window, slide, lateness, bins...) are checked by the library's
    // builder, whose messages name them as the command line does (OptionNames).
    PrivacyConfig cfg = config.load();
    try {
      return kafka
          .applyTo(AggregateJob.Settings.builder())
          .aggregation(
              a ->
                  a.config(cfg)
                      .groupBy(groupBy)
                      .window(window)
                      .slide(slide)
                      .allowedLateness(allowedLateness)
                      .lateUpdateInterval(lateUpdateInterval)
                      .bins(bins)
                      .quantiles(quantiles)
                      .method(method.equals("em") ? EstimationMethod.EM : EstimationMethod.RAW))
          .inputTopic(inputTopic)
          .outputTopic(outputTopic)
          .timeField(timeField)
          .outOfOrderness(outOfOrderness)
          .idleTimeout(idleTimeout)
          .build();
    } catch (IllegalArgumentException e) {
      throw new UsageError(OptionNames.commandLine(e.getMessage()));
    }
  }
}
