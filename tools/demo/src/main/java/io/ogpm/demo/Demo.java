package io.ogpm.demo;

import io.ogpm.config.ConfigException;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.config.UserGuarantee;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.kafka.embedded.EmbeddedBroker;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;

/**
 * The demo: embedded Kafka with the deployment's topics, a Flink MiniCluster with its web UI, the
 * sample replayed into the raw topic, the perturb and aggregate jobs, and each window's estimates
 * printed next to the truth: once over the sample ({@link BatchRun}) or live until interrupted
 * ({@link FollowRun}).
 */
public final class Demo {
  static final String TIME_FIELD = "ts";
  static final String GROUP_FIELD = "activity";

  /**
   * Deadline of each read of a topic (a busy machine can be slow; a stuck transaction fails it).
   */
  static final Duration READ_TIMEOUT = Duration.ofMinutes(5);

  private Demo() {}

  /** An option of the demo names something unusable (a file that cannot be read or parsed). */
  public static final class BadOption extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadOption(String message) {
      super(message);
    }
  }

  /** The demo's options. */
  public record Options(
      int records,
      Path data,
      Path config,
      Path report,
      boolean follow,
      int webUiPort,
      Duration window,
      int bins,
      int parallelism) {}

  public static int run(Options o, PrintWriter out) throws Exception {
    PrivacyConfig config = config(o);
    boolean sampled = config.samplesFields();
    List<String> records = SampleData.records(o.data(), o.records());
    out.printf(
        "ogpm demo: %d records, %d fields, epsilon %s%s per record%n",
        records.size(), config.fields().size(), sampled ? "at most " : "", epsilonShown(config));
    config.sampling().ifPresent(f -> out.println(f.describe()));
    out.println(UserGuarantee.of(config).describe());
    out.println(mechanisms(config));
    try (EmbeddedBroker kafka = EmbeddedBroker.start()) {
      out.println("Kafka broker (embedded): " + kafka.bootstrapServers());
      DemoTopics.create(kafka.bootstrapServers(), o.parallelism());
      Configuration flink = new Configuration();
      flink.set(RestOptions.PORT, o.webUiPort());
      out.println(
          "Flink web UI: http://localhost:"
              + (o.webUiPort() == 0 ? "<any free port>" : o.webUiPort()));
      DemoSetup demo =
          new DemoSetup(
              o,
              config,
              records,
              kafka.bootstrapServers(),
              KafkaSettings.of(kafka.bootstrapServers()),
              flink,
              out);
      return o.follow() ? FollowRun.run(demo) : BatchRun.run(demo);
    }
  }

  /** The configuration the options name, and one the demo can check. */
  private static PrivacyConfig config(Options o) {
    String option = "--config" + (o.config() == null ? "" : " " + o.config());
    PrivacyConfig config;
    try {
      config = PrivacyConfig.parse(SampleData.config(o.config()));
    } catch (ConfigException e) {
      throw new BadOption(option + ": " + e.getMessage());
    }
    if (config.samplesFields()
        && (config.idField().filter(config.passthrough()::contains).isEmpty()
            || !config.passthrough().contains(TIME_FIELD))) {
      // Each field's statistics are over the records that reported it: the demo checks them
      // against the raw records it matches by id and time, which must be in the perturbed records.
      throw new BadOption(
          option
              + ": with field sampling the demo needs the id-field and "
              + TIME_FIELD
              + " among the passthrough fields, to match each perturbed record to the fields it"
              + " reported");
    }
    return config;
  }

  /**
   * A record's epsilon: exact without field sampling; with it, a hair below a round figure, shown
   * round.
   */
  static String epsilonShown(PrivacyConfig config) {
    double e = config.epsilonPerRecord();
    return config.samplesFields() ? FieldSampling.rounded(e) : Double.toString(e);
  }

  /**
   * "mechanisms: a ogpm, b pm (auto: ...)": each field's mechanism, and why where {@code mechanism:
   * auto} chose it.
   */
  static String mechanisms(PrivacyConfig config) {
    StringBuilder line = new StringBuilder("mechanisms:");
    for (io.ogpm.config.FieldConfig f : config.fields()) {
      line.append(line.length() > "mechanisms:".length() ? ", " : " ")
          .append(f.name())
          .append(' ')
          .append(f.mechanism().id());
    }
    for (io.ogpm.config.FieldConfig f : config.fields()) {
      f.choice()
          .ifPresent(
              c ->
                  line.append(System.lineSeparator())
                      .append("  ")
                      .append(f.name())
                      .append(", auto for ")
                      .append(c.optimizeFor().id())
                      .append(" at ")
                      .append(c.recordsPerWindow())
                      .append(" reports per window: ")
                      .append(c.reason()));
    }
    return line.toString();
  }
}
