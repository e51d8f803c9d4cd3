package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.JobRunner;
import io.ogpm.jobs.PerturbJob;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.record.JsonFields;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The demo's bounded run: the records replayed once into the raw topic, the perturb job and then
 * the aggregate job each run to the end of its input, every record and every window accounted for
 * ({@link Accounting}), and each window's estimates printed next to the truth of the raw replay
 * (and written to the report, if asked). A mismatch fails the run, once the report shows it.
 */
final class BatchRun {
  private final DemoSetup demo;
  private final PrivacyConfig config;
  private final Demo.Options options;
  private final PrintWriter out;

  private BatchRun(DemoSetup demo) {
    this.demo = demo;
    this.config = demo.config();
    this.options = demo.options();
    this.out = demo.out();
  }

  /** Runs it; 0 when every record and window is accounted for. */
  static int run(DemoSetup demo) throws Exception {
    return new BatchRun(demo).run();
  }

  private int run() throws Exception {
    List<String> records = demo.records();
    BatchReplay replay = BatchReplay.write(demo.bootstrapServers(), records);
    out.printf("replayed %d records into %s%n", records.size(), DemoTopics.RAW);
    StreamExecutionEnvironment perturbEnv = demo.environment();
    PerturbJob.build(perturbEnv, DemoJobs.perturb(demo, true));
    JobRunner.execute(
        perturbEnv,
        "ogpm perturb (demo)",
        true,
        demo.kafka(),
        List.of(DemoTopics.PERTURBED, DemoTopics.DEAD));
    List<ConsumerRecord<byte[], byte[]>> perturbed = demo.readCommitted(DemoTopics.PERTURBED);
    List<ConsumerRecord<byte[], byte[]>> dead = demo.readCommitted(DemoTopics.DEAD);
    Set<String> deadSources = new HashSet<>();
    Map<String, Long> deadByReason = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    for (ConsumerRecord<byte[], byte[]> d : dead) {
      JsonNode letter = json.readTree(d.value());
      deadByReason.merge(DeadLetterJson.reason(letter), 1L, Long::sum);
      deadSources.add(
          DeadLetterJson.source(letter)
              .orElseThrow(() -> new IllegalStateException("a dead letter without its source")));
    }
    try {
      Accounting.checkRecords(records.size(), perturbed.size(), dead.size(), deadSources);
    } catch (Accounting.MismatchException e) {
      if (options.report() != null) {
        showMismatch(
            report(
                e.getMessage(),
                ReportAccounting.of(
                    records.size(), (long) perturbed.size(), deadByReason, Map.of(), Map.of()),
                demo.truth(List.of(), GroundTruth.ALL),
                List.of(),
                null,
                null));
      }
      throw e;
    }
    out.printf(
        "PerturbJob: %d records perturbed into %s, %d dead-lettered into %s%n",
        perturbed.size(), DemoTopics.PERTURBED, dead.size(), DemoTopics.DEAD);
    StreamExecutionEnvironment aggregateEnv = demo.environment();
    AggregateJob.build(aggregateEnv, DemoJobs.aggregate(demo, true));
    JobRunner.execute(
        aggregateEnv, "ogpm aggregate (demo)", true, demo.kafka(), List.of(DemoTopics.STATS));
    Map<String, WindowStat> latest = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : demo.readCommitted(DemoTopics.STATS)) {
      WindowStat s = WindowStat.of(json.readTree(r.value()));
      latest.put(s.key(), s);
    }
    List<WindowStat> stats = new ArrayList<>(latest.values());
    boolean sampled = config.samplesFields();
    List<String> released = replay.perturbedInputs(deadSources);
    GroundTruth truth =
        demo.truth(
            released,
            sampled ? ReportedFields.of(perturbed, config, Demo.TIME_FIELD) : GroundTruth.ALL);
    SubjectSpend spend =
        SubjectSpend.of(released, config, Demo.TIME_FIELD, options.window().toMillis());
    Map<String, Long> counts = new HashMap<>();
    latest.forEach((k, s) -> counts.put(k, s.count()));
    Path report = null;
    if (options.report() != null) {
      Map<String, FieldEstimator> estimators = new HashMap<>();
      Map<String, FieldEstimate> overall = overall(perturbed, estimators);
      report =
          report(
              String.format(
                  Locale.ROOT,
                  "%d records replayed; %d perturbed, %d dead-lettered; %d window statistics; epsilon %s per record; %s.",
                  records.size(),
                  perturbed.size(),
                  dead.size(),
                  stats.size(),
                  (sampled ? "at most " : "") + Demo.epsilonShown(config),
                  spend.describe()),
              ReportAccounting.of(
                  records.size(), (long) perturbed.size(), deadByReason, truth.counts(), counts),
              truth,
              stats,
              overall,
              estimators);
    }
    try {
      Accounting.checkWindows(truth.counts(), counts);
    } catch (Accounting.MismatchException e) {
      if (report != null) {
        showMismatch(report);
      }
      throw e;
    }
    out.printf(
        "AggregateJob: %d window statistics (windows x groups x fields) into %s, each over all its records%n",
        stats.size(), DemoTopics.STATS);
    out.println(spend.describe());
    WindowTable.print(out, config, stats, truth);
    if (report != null) {
      out.println("report: " + report.toAbsolutePath());
    }
    out.flush();
    return 0;
  }

  private Path report(
      String heading,
      ReportAccounting accounting,
      GroundTruth truth,
      List<WindowStat> stats,
      Map<String, FieldEstimate> overall,
      Map<String, FieldEstimator> estimators) {
    return DemoReport.write(
        options.report(),
        new DemoReport.Content(
            heading,
            config,
            options.window(),
            accounting,
            truth,
            stats,
            overall,
            estimators,
            false));
  }

  private void showMismatch(Path report) {
    out.println("report (the mismatch in red): " + report.toAbsolutePath());
    out.flush();
  }

  /**
   * Estimates over the whole perturbed replay, per field (for the report's histograms); fills
   * {@code estimators} with each field's.
   */
  private Map<String, FieldEstimate> overall(
      List<ConsumerRecord<byte[], byte[]>> perturbed, Map<String, FieldEstimator> estimators)
      throws IOException {
    ObjectMapper json = new ObjectMapper();
    Map<String, FieldAccumulator> acc = new HashMap<>();
    for (FieldConfig f : config.fields()) {
      FieldEstimator e = FieldEstimator.of(MechanismCatalog.of(f.spec()), options.bins());
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
}
