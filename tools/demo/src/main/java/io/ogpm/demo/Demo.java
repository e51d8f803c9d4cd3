package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.ConfigException;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.estimate.Histograms;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.JobRunner;
import io.ogpm.jobs.PerturbJob;
import io.ogpm.kafka.KafkaClients;
import io.ogpm.kafka.KafkaTopics;
import io.ogpm.kafka.embedded.EmbeddedBroker;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.record.JsonFields;
import io.ogpm.record.ReasonCode;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The demo: embedded Kafka, a Flink MiniCluster with its web UI, the sample replayed into the raw
 * topic, PerturbJob then AggregateJob, and each window's estimates printed next to the truth.
 */
public final class Demo {
  static final String RAW = "ogpm.raw";
  static final String PERTURBED = "ogpm.perturbed";
  static final String DEAD = "ogpm.dead-letters";
  static final String STATS = "ogpm.stats";
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
    PrivacyConfig config;
    try {
      config = PrivacyConfig.parse(SampleData.config(o.config()));
    } catch (ConfigException e) {
      throw new Demo.BadOption(
          "--config" + (o.config() == null ? "" : " " + o.config()) + ": " + e.getMessage());
    }
    boolean sampled = config.samplesFields();
    if (sampled
        && (o.follow() || config.idField().filter(config.passthrough()::contains).isEmpty())) {
      // Each field's statistics are over the records that reported it: the demo checks them
      // against the raw records it matches by id, which needs the id in the perturbed records
      // and a bounded run (the live demo does not re-read the perturbed topic).
      throw new Demo.BadOption(
          "--config"
              + (o.config() == null ? "" : " " + o.config())
              + ": with field sampling the"
              + " demo needs "
              + (o.follow()
                  ? "a bounded run (no --follow)"
                  : "the id-field among the passthrough fields")
              + ", to match each perturbed record to the fields it reported");
    }
    List<String> records = SampleData.records(o.data(), o.records());
    out.printf(
        "ogpm demo: %d records, %d fields, epsilon %s%s per record%n",
        records.size(), config.fields().size(), sampled ? "at most " : "", epsilonShown(config));
    config.sampling().ifPresent(f -> out.println(f.describe()));
    try (EmbeddedBroker kafka = EmbeddedBroker.start()) {
      out.println("Kafka broker (embedded): " + kafka.bootstrapServers());
      createTopics(kafka.bootstrapServers());
      KafkaSettings settings = KafkaSettings.of(kafka.bootstrapServers());
      Configuration flink = new Configuration();
      flink.set(RestOptions.PORT, o.webUiPort());
      out.println(
          "Flink web UI: http://localhost:"
              + (o.webUiPort() == 0 ? "<any free port>" : o.webUiPort()));
      if (o.follow()) {
        return follow(o, out, config, records, kafka, settings, flink);
      }
      List<RecordMetadata> landed = replay(kafka.bootstrapServers(), records);
      out.printf("replayed %d records into %s%n", records.size(), RAW);
      StreamExecutionEnvironment perturbEnv =
          StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(flink);
      PerturbJob.build(perturbEnv, perturbSettings(o, config, settings, true));
      JobRunner.execute(
          perturbEnv, "ogpm perturb (demo)", true, settings, List.of(PERTURBED, DEAD));
      List<ConsumerRecord<byte[], byte[]>> perturbed =
          KafkaClients.consumeAll(kafka.bootstrapServers(), PERTURBED, true, READ_TIMEOUT);
      List<ConsumerRecord<byte[], byte[]>> dead =
          KafkaClients.consumeAll(kafka.bootstrapServers(), DEAD, true, READ_TIMEOUT);
      Set<String> deadSources = deadLetterSources(dead);
      Map<String, Long> deadByReason = deadLetterReasons(dead);
      try {
        Accounting.checkRecords(records.size(), perturbed.size(), dead.size(), deadSources);
      } catch (Accounting.MismatchException e) {
        if (o.report() != null) {
          Path file =
              DemoReport.write(
                  o.report(),
                  new DemoReport.Content(
                      e.getMessage(),
                      config,
                      o.window(),
                      ReportAccounting.of(
                          records.size(),
                          (long) perturbed.size(),
                          deadByReason,
                          Map.of(),
                          Map.of()),
                      GroundTruth.of(
                          List.of(),
                          config,
                          TIME_FIELD,
                          GROUP_FIELD,
                          o.window().toMillis(),
                          o.bins()),
                      List.of(),
                      null,
                      null,
                      false));
          out.println("report (the mismatch in red): " + file.toAbsolutePath());
          out.flush();
        }
        throw e;
      }
      out.printf(
          "PerturbJob: %d records perturbed into %s, %d dead-lettered into %s%n",
          perturbed.size(), PERTURBED, dead.size(), DEAD);
      StreamExecutionEnvironment aggregateEnv =
          StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(flink);
      AggregateJob.build(aggregateEnv, aggregateSettings(o, config, settings, true));
      JobRunner.execute(aggregateEnv, "ogpm aggregate (demo)", true, settings, List.of(STATS));
      ObjectMapper json = new ObjectMapper();
      Map<String, WindowStat> latest = new HashMap<>();
      for (ConsumerRecord<byte[], byte[]> r :
          KafkaClients.consumeAll(kafka.bootstrapServers(), STATS, true, READ_TIMEOUT)) {
        WindowStat s = WindowStat.of(json.readTree(r.value()));
        // A window refired within the allowed lateness is a newer record: the last one wins.
        latest.put(
            GroundTruth.key(s.windowStart(), s.group() == null ? "" : s.group(), s.field()), s);
      }
      List<WindowStat> stats = new ArrayList<>(latest.values());
      GroundTruth truth =
          GroundTruth.of(
              perturbedInputs(records, landed, deadSources),
              config,
              TIME_FIELD,
              GROUP_FIELD,
              o.window().toMillis(),
              o.bins(),
              sampled ? GroundTruth.reportedIn(perturbed, config) : GroundTruth.ALL);
      Map<String, Long> counts = new HashMap<>();
      latest.forEach((k, s) -> counts.put(k, s.count()));
      Path report = null;
      if (o.report() != null) {
        Map<String, FieldEstimator> estimators = new HashMap<>();
        Map<String, FieldEstimate> overall = overall(config, perturbed, o.bins(), estimators);
        report =
            DemoReport.write(
                o.report(),
                new DemoReport.Content(
                    String.format(
                        Locale.ROOT,
                        "%d records replayed; %d perturbed, %d dead-lettered; %d window statistics; epsilon %s per record.",
                        records.size(),
                        perturbed.size(),
                        dead.size(),
                        stats.size(),
                        (sampled ? "at most " : "") + epsilonShown(config)),
                    config,
                    o.window(),
                    ReportAccounting.of(
                        records.size(),
                        (long) perturbed.size(),
                        deadByReason,
                        truth.counts(),
                        counts),
                    truth,
                    stats,
                    overall,
                    estimators,
                    false));
      }
      try {
        Accounting.checkWindows(truth.counts(), counts);
      } catch (Accounting.MismatchException e) {
        if (report != null) {
          out.println("report (the mismatch in red): " + report.toAbsolutePath());
          out.flush();
        }
        throw e;
      }
      out.printf(
          "AggregateJob: %d window statistics (windows x groups x fields) into %s, each over all its records%n",
          stats.size(), STATS);
      print(out, config, stats, truth);
      if (report != null) {
        out.println("report: " + report.toAbsolutePath());
      }
      out.flush();
      return 0;
    }
  }

  /**
   * The demo's topics. Time-based retention (7 days by default) compares record timestamps with the
   * wall clock, and the sample is stamped 2026-01-01: on topics with the broker's default
   * retention, whole segments of the replay (and the stats, stamped with window ends) would be
   * deleted minutes after they are written. The raw topic takes the broker's log-append time
   * instead of the producer's (which also gives the privacy budget a clock the producer does not
   * control); no demo topic deletes by time (the embedded broker's data is deleted on exit).
   */
  static void createTopics(String bootstrapServers) {
    Map<String, String> keep = Map.of("retention.ms", "-1");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      create(
          admin,
          RAW,
          2,
          Map.of(
              "retention.ms", "-1", BudgetClock.TOPIC_SETTING, BudgetClock.LOG_APPEND_TIME_VALUE));
      create(admin, PERTURBED, 2, keep);
      create(admin, DEAD, 1, keep);
      create(admin, STATS, 1, keep);
    }
  }

  private static void create(
      Admin admin, String name, int partitions, Map<String, String> configs) {
    KafkaTopics.createAndAwait(
        admin, new NewTopic(name, partitions, (short) 1).configs(configs), READ_TIMEOUT);
  }

  private static PerturbJob.Settings perturbSettings(
      Options o, PrivacyConfig config, KafkaSettings kafka, boolean bounded) {
    return PerturbJob.Settings.builder()
        .config(config)
        .kafka(kafka)
        .inputTopic(RAW)
        .outputTopic(PERTURBED)
        .deadLetterTopic(DEAD)
        .groupId("ogpm-demo-perturb")
        .transactionalIdPrefix("ogpm-demo-perturb")
        .keySource(KeySource.none())
        .bounded(bounded)
        .checkpointInterval(Duration.ofSeconds(2))
        .parallelism(o.parallelism())
        .build();
  }

  /**
   * The replay writes the whole sample at once and two perturb subtasks interleave it, so event
   * times in the perturbed topic are out of order by up to the sample's span: the watermark allows
   * five minutes (a live deployment would use seconds).
   */
  private static AggregateJob.Settings aggregateSettings(
      Options o, PrivacyConfig config, KafkaSettings kafka, boolean bounded) {
    return AggregateJob.Settings.builder()
        .aggregation(a -> a.config(config).groupBy(GROUP_FIELD).window(o.window()).bins(o.bins()))
        .kafka(kafka)
        .inputTopic(PERTURBED)
        .outputTopic(STATS)
        .groupId("ogpm-demo-aggregate")
        .transactionalIdPrefix("ogpm-demo-aggregate")
        .timeField(TIME_FIELD)
        .outOfOrderness(Duration.ofMinutes(5))
        .idleTimeout(Duration.ofSeconds(5))
        .bounded(bounded)
        .checkpointInterval(Duration.ofSeconds(2))
        .parallelism(o.parallelism())
        .build();
  }

  /** Where each dead letter's input was read: {@code partition/offset} in the raw topic. */
  static Set<String> deadLetterSources(List<ConsumerRecord<byte[], byte[]>> dead)
      throws java.io.IOException {
    ObjectMapper json = new ObjectMapper();
    Set<String> out = new HashSet<>();
    for (ConsumerRecord<byte[], byte[]> d : dead) {
      JsonNode source = json.readTree(d.value()).get("source");
      out.add(source.get("partition").asInt() + "/" + source.get("offset").asLong());
    }
    return out;
  }

  /** Dead letters per reason code. */
  static Map<String, Long> deadLetterReasons(List<ConsumerRecord<byte[], byte[]>> dead)
      throws java.io.IOException {
    ObjectMapper json = new ObjectMapper();
    Map<String, Long> out = new java.util.TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> d : dead) {
      out.merge(json.readTree(d.value()).path("reason").asText("(none)"), 1L, Long::sum);
    }
    return out;
  }

  /** The replayed records that were not dead-lettered: the inputs of the perturbed topic. */
  /**
   * A record's epsilon: exact without field sampling; with it, a hair below a round figure, shown
   * round.
   */
  static String epsilonShown(PrivacyConfig config) {
    double e = config.epsilonPerRecord();
    return config.samplesFields() ? FieldSampling.rounded(e) : Double.toString(e);
  }

  static List<String> perturbedInputs(
      List<String> records, List<RecordMetadata> landed, Set<String> deadSources) {
    List<String> out = new ArrayList<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      if (!deadSources.contains(landed.get(i).partition() + "/" + landed.get(i).offset())) {
        out.add(records.get(i));
      }
    }
    return out;
  }

  /**
   * Writes the records keyed by user (so each user's records stay in order), stamped at their event
   * time; the raw topic replaces that stamp by the broker's append time (windows read the event
   * time from the time field).
   */
  static List<RecordMetadata> replay(String bootstrap, List<String> records) {
    ObjectMapper json = new ObjectMapper();
    List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(records.size());
    for (String r : records) {
      Long ts = null;
      byte[] key = null;
      try {
        JsonNode root = json.readTree(r);
        JsonNode t = JsonFields.at(root, List.of(TIME_FIELD));
        ts = t != null && t.canConvertToLong() ? t.asLong() : null;
        JsonNode user = root.get("user");
        key = user == null ? null : user.asText().getBytes(StandardCharsets.UTF_8);
      } catch (java.io.IOException e) {
        // Not JSON: replayed as it is, to show the dead-letter path.
      }
      out.add(new ProducerRecord<>(RAW, null, ts, key, r.getBytes(StandardCharsets.UTF_8)));
    }
    return KafkaClients.produceRecords(bootstrap, out);
  }

  private static void print(
      PrintWriter out, PrivacyConfig config, List<WindowStat> stats, GroundTruth truth) {
    Map<String, FieldConfig> fields = new HashMap<>();
    config.fields().forEach(f -> fields.put(f.name(), f));
    out.printf(
        "%-24s %-11s %-20s %6s %10s %10s %23s %9s %9s%n",
        "window",
        "group",
        "field",
        "n",
        "true mean",
        "estimate",
        "95% interval",
        "hist EM",
        "hist raw");
    stats.stream()
        .sorted(
            (a, b) ->
                a.windowStart() != b.windowStart()
                    ? Long.compare(a.windowStart(), b.windowStart())
                    : a.field().compareTo(b.field()))
        .forEach(
            s -> {
              FieldConfig f = fields.get(s.field());
              GroundTruth.Cell c = truth.cell(s.windowStart(), s.group(), s.field());
              out.printf(
                  Locale.ROOT,
                  "%-24s %-11s %-20s %6d %10.4f %10.4f  [%9.4f, %9.4f] %9.4f %9.4f%n",
                  Instant.ofEpochMilli(s.windowStart()),
                  s.group(),
                  s.field(),
                  s.count(),
                  c == null ? Double.NaN : DemoReport.trueMean(f, c),
                  s.mean(),
                  s.lower(),
                  s.upper(),
                  c == null ? Double.NaN : Histograms.l1(s.histogram(), c.frequencies()),
                  c == null ? Double.NaN : Histograms.l1(s.rawHistogram(), c.frequencies()));
            });
    out.println(
        "(circular fields: circular means in the field's units; hist: sum of |frequency - true frequency| over the bins)");
  }

  /** Estimates over the whole perturbed replay, per field (for the report's histograms). */
  private static Map<String, FieldEstimate> overall(
      PrivacyConfig config,
      List<ConsumerRecord<byte[], byte[]>> perturbed,
      int bins,
      Map<String, FieldEstimator> estimators)
      throws Exception {
    ObjectMapper json = new ObjectMapper();
    Map<String, FieldAccumulator> acc = new HashMap<>();
    for (FieldConfig f : config.fields()) {
      FieldEstimator e = FieldEstimator.of(MechanismCatalog.of(f.spec()), bins);
      estimators.put(f.name(), e);
      acc.put(f.name(), e.newAccumulator());
    }
    for (ConsumerRecord<byte[], byte[]> r : perturbed) {
      JsonNode root = json.readTree(r.value());
      for (FieldConfig f : config.fields()) {
        JsonNode v = JsonFields.at(root, f.path());
        if (v != null && v.isNumber()) {
          acc.get(f.name()).add(v.asDouble(), estimators.get(f.name()).binning());
        }
      }
    }
    Map<String, FieldEstimate> out = new HashMap<>();
    for (FieldConfig f : config.fields()) {
      FieldEstimator e = estimators.get(f.name());
      out.put(f.name(), e.estimate(acc.get(f.name()), e.canReconstruct()));
    }
    return out;
  }

  /**
   * Live: both jobs unbounded in one MiniCluster, the sample replayed in a loop at its real pace
   * (50 Hz per subject) with each record's time set to the wall clock, and each window's estimates
   * printed as the window closes, next to the truth of what was sent. Runs until interrupted.
   */
  private static int follow(
      Options o,
      PrintWriter out,
      PrivacyConfig config,
      List<String> records,
      EmbeddedBroker kafka,
      KafkaSettings settings,
      Configuration flink)
      throws Exception {
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(flink);
    PerturbJob.build(env, perturbSettings(o, config, settings, false));
    // Live records close the windows, so the idle timeout only has to outlast the longest gap in
    // what the aggregation reads: read_committed, it sees the perturbed records a checkpoint at a
    // time, and on a loaded machine a checkpoint took more than 5 s, after which a silent
    // partition's
    // event time moved on and the next commit's records were late (DemoFollowIT saw it).
    AggregateJob.build(
        env,
        aggregateSettings(o, config, settings, false).toBuilder()
            .outOfOrderness(Duration.ofSeconds(2))
            .idleTimeout(Duration.ofSeconds(30))
            .build());
    JobClient job = env.executeAsync("ogpm perturb + aggregate (demo, follow)");
    // The truth the demo keeps: what was sent, and what of it was dead-lettered, over 30 windows.
    Duration horizon = o.window().multipliedBy(30);
    LiveReplay replay =
        LiveReplay.start(kafka.bootstrapServers(), RAW, records, TIME_FIELD, horizon);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  replay.stop();
                  job.cancel();
                }));
    out.printf(
        "replaying %d records in a loop at 50 Hz per subject, timestamped now; windows of %ds print as they"
            + " close (Ctrl-C to stop). Other producers can write to %s at %s.%n",
        records.size(), o.window().toSeconds(), RAW, kafka.bootstrapServers());
    out.flush();
    ObjectMapper json = new ObjectMapper();
    // The report's windows: the last statistics per window, group and field, within the replay's
    // horizon (whose truth the demo keeps), rewritten each time a window closes.
    Map<String, WindowStat> closed = new HashMap<>();
    long shownMs = o.window().multipliedBy(25).toMillis();
    // Records dead-lettered (a spent budget, a rejected value) are not in any window: the truth
    // leaves them out, and the accounting counts them by reason.
    LiveDeadLetters dead = new LiveDeadLetters(horizon.toMillis());
    try (LiveTopic statsTopic = LiveTopic.open(kafka.bootstrapServers(), STATS, READ_TIMEOUT);
        LiveTopic deadTopic = LiveTopic.open(kafka.bootstrapServers(), DEAD, READ_TIMEOUT)) {
      if (o.report() != null) {
        Path file =
            writeLiveReport(o, config, replay, closed, dead, liveTruth(o, config, replay, dead));
        out.println(
            "report (reloads itself every "
                + DemoReport.REFRESH_SECONDS
                + " s): "
                + file.toAbsolutePath());
        out.flush();
      }
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(2000);
        List<WindowStat> stats = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : statsTopic.readCommitted(READ_TIMEOUT)) {
          stats.add(WindowStat.of(json.readTree(r.value())));
        }
        // Read after the statistics: a record's dead letter is committed at the same checkpoint
        // as the perturbed records written beside it, before those that close its window, and the
        // statistics come a checkpoint of the aggregation later; so a closed window's are in.
        Set<String> reasonsBefore = dead.byReason().keySet();
        long now = System.currentTimeMillis();
        for (ConsumerRecord<byte[], byte[]> r : deadTopic.readCommitted(READ_TIMEOUT)) {
          dead.add(json.readTree(r.value()), now);
        }
        Map<String, Long> reasons = dead.byReason();
        reasons.forEach(
            (reason, n) -> {
              if (!reasonsBefore.contains(reason)) {
                out.printf(
                    "records are being dead-lettered as %s (%d so far)%s%n",
                    reason,
                    n,
                    reason.equals(ReasonCode.BUDGET_EXHAUSTED.code())
                        ? ": a user has spent the privacy budget of the"
                            + " period (budget in the configuration); the windows go on with the other users"
                        : "");
              }
            });
        if (!stats.isEmpty()) {
          GroundTruth truth = liveTruth(o, config, replay, dead);
          print(out, config, stats, truth);
          if (o.report() != null) {
            long oldest = System.currentTimeMillis() - shownMs;
            // A window refired within the allowed lateness is a newer record: the last one wins.
            stats.forEach(
                st ->
                    closed.put(
                        GroundTruth.key(
                            st.windowStart(), st.group() == null ? "" : st.group(), st.field()),
                        st));
            closed.values().removeIf(st -> st.windowStart() < oldest);
            writeLiveReport(o, config, replay, closed, dead, truth);
          }
        }
        out.flush();
      }
    }
    return 0;
  }

  /** The truth of the replay's horizon: what was sent and not dead-lettered. */
  private static GroundTruth liveTruth(
      Options o, PrivacyConfig config, LiveReplay replay, LiveDeadLetters dead) {
    return GroundTruth.of(
        replay.recent(dead.recentSources()),
        config,
        TIME_FIELD,
        GROUP_FIELD,
        o.window().toMillis(),
        o.bins());
  }

  /** The live report: the closed windows against {@code truth}, the truth of what was sent. */
  private static Path writeLiveReport(
      Options o,
      PrivacyConfig config,
      LiveReplay replay,
      Map<String, WindowStat> closed,
      LiveDeadLetters dead,
      GroundTruth truth) {
    Map<String, Long> all = truth.counts();
    Map<String, Long> expected = new HashMap<>();
    Map<String, Long> counted = new HashMap<>();
    closed.forEach(
        (key, st) -> {
          counted.put(key, st.count());
          expected.put(key, all.getOrDefault(key, 0L));
        });
    return DemoReport.write(
        o.report(),
        new DemoReport.Content(
            String.format(
                Locale.ROOT,
                "Live: %d records sent so far, replayed in a loop at 50 Hz per subject and timestamped now; %d windows closed"
                    + " in the last %d s. This page reloads itself every %d s.",
                replay.sent(),
                closed.values().stream().mapToLong(WindowStat::windowStart).distinct().count(),
                o.window().multipliedBy(25).toSeconds(),
                DemoReport.REFRESH_SECONDS),
            config,
            o.window(),
            ReportAccounting.of(replay.sent(), null, dead.byReason(), expected, counted),
            truth,
            new ArrayList<>(closed.values()),
            null,
            null,
            true));
  }
}
