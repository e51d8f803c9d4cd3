package io.ogpm.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.PerturbJob;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The pipelines side by side, on an embedded Kafka broker and one Flink MiniCluster that runs every
 * job in turn ({@link BenchCluster}), with the deployable jobs' exactly-once sinks and checkpoints:
 *
 * <ul>
 *   <li>Kafka -> perturbation -> Kafka ({@link PerturbJob} on the sample's configuration, budget
 *       included, and without the budget) against Kafka -> identity map -> Kafka (the same source
 *       and sink, each raw value written unchanged): how much of a pipeline the perturbation costs,
 *       and how much of that is the per-user budget's shuffle and state;
 *   <li>the same perturbations against the perturb job with the privacy left out ({@link
 *       Unperturbed}: the same source, record path, sinks and, in place of the budget, the same
 *       shuffle by user, each configured value written as read): how much the privacy itself costs
 *       (mechanisms, randomness, domain checks, the budget's state), apart from reading and writing
 *       the records, which any pipeline that looks into them pays;
 *   <li>Kafka -> windowed estimates -> Kafka ({@link AggregateJob}) against Kafka -> count per
 *       window -> Kafka (the same source, deserializer, watermarks and windows): how much of a
 *       pipeline the estimation costs, with 6 fields and 100 groups, 6 fields and 1,000 groups
 *       (about 100 records per group and window at the default window), and one field and no group.
 * </ul>
 *
 * <p>The pipelines compared run one after the other, in an order rotated from repetition to
 * repetition, on the same input, so that a machine whose load changes affects both alike; each pair
 * gives one ratio ({@link SideBySide}). Untimed rounds of every pipeline come first, until the JIT
 * has compiled each one's code. Besides rates, the perturbation reports the process's CPU time per
 * record, which load elsewhere on the machine does not change.
 *
 * <p>Perturbation throughput is the records over the span of the broker's append times of the
 * output ({@link AppendSpan}). The aggregation writes too few records for that, so both aggregation
 * pipelines are timed by the job's net run time (start-up included, the same for both); the
 * perturbation is reported on that basis too, to compare the two jobs.
 */
final class PipelineBench {
  /** The pipelines compared: see {@link #compared}. */
  static final int KINDS = 7;

  static final String[] KIND_NAMES = {
    "perturbation",
    "perturbation without budget",
    "identity",
    "unperturbed, shuffled by user",
    "unperturbed",
    "perturbation with contribution bound",
    "perturbation, budget without partition order"
  };

  /**
   * The bounded path: the sample's configuration, budget included, with a contribution bound in
   * front of it. Each of the input's 1,000 users sends far more than 10 records a second, so most
   * records are refused by the bound: the path pays the keyed reservoir for every record and writes
   * each to the perturbed topic or the dead letters.
   */
  static final String CONTRIBUTION = "contribution: {records: 10, window: 1s}\n";

  static final String APPEND_SPAN = "records over the span of the output's broker append times";
  static final String NET_RUN_TIME =
      "records over the job's net run time (start-up included, alike for both)";

  private final Bench.PipelineOptions options;
  private final PrintWriter log;

  PipelineBench(Bench.PipelineOptions options, PrintWriter log) {
    this.options = options;
    this.log = log;
  }

  ObjectNode run() {
    int records = options.records();
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("records", records);
    out.put("repetitions", options.repetitions());
    out.put("parallelism", options.parallelism());
    out.put("warmUpRounds", options.warmUpRounds());
    out.put("availableProcessors", Runtime.getRuntime().availableProcessors());
    try (BenchCluster cluster = BenchCluster.start(options.parallelism())) {
      PrivacyConfig six = PrivacyConfig.parse(BenchConfig.sixFields());
      PrivacyConfig one = PrivacyConfig.parse(BenchInput.ONE_FIELD);
      BenchInput.write(cluster, BenchInput.RAW, records, BenchInput.GROUPS);
      BenchInput.write(cluster, BenchInput.RAW_ONE_FIELD, records, BenchInput.GROUPS);
      BenchInput.write(cluster, BenchInput.RAW_MANY_GROUPS, records, BenchInput.MANY_GROUPS);
      log(
          "produced %d records into %s, %s and %s",
          records, BenchInput.RAW, BenchInput.RAW_ONE_FIELD, BenchInput.RAW_MANY_GROUPS);
      PerturbationPipelines perturbation = new PerturbationPipelines(cluster, records);

      // Six pipelines, in an order rotated from one repetition to the next: the perturbation with
      // the sample's per-user budget (a shuffle by user and keyed state), the perturbation alone
      // (the sample's configuration without its budget), the identity map, and the two
      // perturbations with the privacy left out (the same record path writing the values as read;
      // the one in place of the budget's keeps its shuffle by user, without state), and the
      // perturbation with a contribution bound in front of the budget, and the budget's path
      // without the stage that restores each raw partition's order.
      PrivacyConfig withoutBudget =
          PrivacyConfig.parse(BenchInput.withoutBudget(BenchConfig.sixFields()));
      PrivacyConfig bounded = PrivacyConfig.parse(BenchConfig.sixFields() + CONTRIBUTION);
      PrivacyConfig[] perturbations = {six, withoutBudget, bounded};
      // Untimed rounds of all of them first. The JIT compiles each pipeline's own code only once it
      // runs, behind a queue of Kafka's and Flink's methods: on two cores a pipeline reaches its
      // steady rate in its third run of 1,000,000 records or so, and one timed before that is slow
      // for want of compiled code, not for its work.
      for (int w = 0; w < options.warmUpRounds(); w++) {
        for (int kind = 0; kind < KINDS; kind++) {
          compared(perturbation, kind, perturbations, "bench.warm-up." + kind + "." + w);
        }
        log("warm-up round %d done", w);
      }
      List<List<Timing>> timings = new ArrayList<>();
      for (int kind = 0; kind < KINDS; kind++) {
        timings.add(new ArrayList<>());
      }
      String perturbedTopic = null;
      for (int rep = 0; rep < options.repetitions(); rep++) {
        for (int k = 0; k < KINDS; k++) {
          int kind = (k + rep) % KINDS;
          String topic = "bench." + kind + "." + rep;
          Timing t = compared(perturbation, kind, perturbations, topic);
          timings.get(kind).add(t);
          perturbedTopic = kind == 0 && perturbedTopic == null ? topic : perturbedTopic;
          log(
              "%s %d: %.0f records/s (append span), %.0f records/s (net run time), %.2f us CPU per record"
                  + " (%.2f us in the job's threads), %s",
              KIND_NAMES[kind],
              rep,
              t.rate(),
              t.netRate(),
              t.cpuMicros(),
              t.jobCpuMicros(),
              t.jitMillis() < 0
                  ? "JIT time not measured by this JVM"
                  : t.jitMillis() + " ms of it JIT compilation");
        }
      }
      List<Double> perturbedNet = timings.get(0).stream().map(Timing::netRate).toList();
      ObjectNode p = out.putObject("perturbation");
      against(p, timings.get(0), timings.get(2), "identity");
      against(p.putObject("againstUnperturbed"), timings.get(0), timings.get(3), "unperturbed");
      p.put("netRunTimeRecordsPerSecond", Math.round(SideBySide.median(perturbedNet)));
      ObjectNode alone = out.putObject("perturbationWithoutBudget");
      against(alone, timings.get(1), timings.get(2), "identity");
      against(alone.putObject("againstUnperturbed"), timings.get(1), timings.get(4), "unperturbed");
      // The ceiling of any perturbation against the identity map: the same job with no privacy at
      // all, which still reads and writes every record.
      against(
          out.putObject("unperturbedAgainstIdentity"), timings.get(4), timings.get(2), "identity");
      // The contribution bound's cost: the bounded path against today's budget path, by the rates
      // over the append span of everything each writes (perturbed and dead letters for the bound).
      ObjectNode bound = out.putObject("perturbationWithContributionBound");
      bound.put("contribution", CONTRIBUTION.trim());
      SideBySide.write(
          bound,
          "bounded perturbation",
          timings.get(5),
          "perturbation",
          timings.get(0),
          APPEND_SPAN + " (perturbed and dead-letter topics together)",
          true);
      // The partition order's cost: the budget path with the stage that restores each raw
      // partition's order (a second shuffle, by raw partition, and a keyed value per partition)
      // against the same path without it.
      SideBySide.write(
          out.putObject("partitionOrder"),
          "perturbation",
          timings.get(0),
          "unordered",
          timings.get(6),
          APPEND_SPAN,
          true);
      // Its state: up to 10 chosen records per user and open window (one or two are open).
      bound.put(
          "reservoirBytesPerRecord",
          Math.round(
              ReservoirState.meanRecordBytes(
                  cluster.bootstrapServers(), "bench.5.0", BenchInput.RAW, 1_000)));

      String oneTopic = "bench.perturbed-1";
      Timing oneField = perturbation.perturb(one, BenchInput.RAW_ONE_FIELD, oneTopic);
      log("perturbation, one field: %.0f records/s (net run time)", oneField.netRate());
      String manyTopic = "bench.perturbed-groups";
      Timing many = perturbation.perturb(six, BenchInput.RAW_MANY_GROUPS, manyTopic);
      log(
          "perturbation, %d groups: %.0f records/s (net run time)",
          BenchInput.MANY_GROUPS, many.netRate());
      AggregationPipelines aggregation =
          new AggregationPipelines(cluster, records, options.recordsPerWindow(), options.method());
      out.set(
          "aggregation",
          aggregation(
              aggregation,
              six,
              perturbedTopic,
              BenchInput.GROUPS,
              SideBySide.median(perturbedNet)));
      out.set(
          "aggregationManyGroups",
          aggregation(aggregation, six, manyTopic, BenchInput.MANY_GROUPS, many.netRate()));
      out.set(
          "aggregationOneFieldNoGroup",
          aggregation(aggregation, one, oneTopic, 1, oneField.netRate()));
    }
    return out;
  }

  /**
   * Pipeline {@code kind} of the {@value #KINDS} compared: the perturbation under {@code
   * perturbations[kind]} (0: with the budget, 1: without), the identity map (2), the unperturbed
   * record path with the budget's shuffle (3) or without (4), the perturbation with a contribution
   * bound before the budget (5), and the perturbation with the budget but without the stage that
   * restores each raw partition's order after it (6).
   */
  private static Timing compared(
      PerturbationPipelines pipelines, int kind, PrivacyConfig[] perturbations, String output) {
    return switch (kind) {
      case 0, 1 -> pipelines.perturb(perturbations[kind], BenchInput.RAW, output);
      case 2 -> pipelines.identity(BenchInput.RAW, output);
      case 5 -> pipelines.perturb(perturbations[2], BenchInput.RAW, output, true);
      case 6 -> pipelines.perturb(perturbations[0], BenchInput.RAW, output, false, false);
      default -> pipelines.unperturbed(perturbations[1], kind == 3, BenchInput.RAW, output);
    };
  }

  /**
   * A perturbation against a baseline ({@code baseline}: the identity map or the unperturbed record
   * path), by the rates over the output's append span, with the JIT's time of each run.
   */
  private static void against(
      ObjectNode o, List<Timing> perturbed, List<Timing> base, String baseline) {
    SideBySide.write(o, "perturbation", perturbed, baseline, base, APPEND_SPAN, true);
  }

  /** The aggregation against the count per window; {@code groups} 1: no group, else by activity. */
  private ObjectNode aggregation(
      AggregationPipelines pipelines,
      PrivacyConfig config,
      String input,
      int groups,
      double perturbNetRate) {
    String group = groups == 1 ? null : "activity";
    for (int w = 0; w < options.warmUpRounds(); w++) {
      pipelines.aggregate(config, input, group);
      pipelines.count(config, input, group);
    }
    List<Timing> estimates = new ArrayList<>();
    List<Timing> counts = new ArrayList<>();
    for (int rep = 0; rep < options.repetitions(); rep++) {
      for (int k = 0; k < 2; k++) {
        boolean estimate = (k == 0) == (rep % 2 == 0);
        Timing run =
            estimate
                ? pipelines.aggregate(config, input, group)
                : pipelines.count(config, input, group);
        (estimate ? estimates : counts).add(run);
        log(
            "%s (%s) %d: %.0f records/s (net run time), %.2f us CPU per record in the job's threads",
            estimate ? "aggregation" : "count per window",
            group == null
                ? "one field, no group"
                : config.fields().size() + " fields, " + groups + " groups",
            rep,
            run.netRate(),
            run.jobCpuMicros());
      }
    }
    ObjectNode a = JsonNodeFactory.instance.objectNode();
    a.put("fields", config.fields().size());
    a.put("groups", groups);
    a.put("recordsPerWindow", options.recordsPerWindow());
    a.put("method", options.method().code());
    SideBySide.write(a, "aggregation", estimates, "count", counts, NET_RUN_TIME, false);
    a.put("perturbationRecordsPerSecond", Math.round(perturbNetRate));
    a.put(
        "overPerturbation",
        SideBySide.round(
            SideBySide.median(estimates.stream().map(Timing::netRate).toList()) / perturbNetRate));
    return a;
  }

  private void log(String format, Object... args) {
    log.printf(Locale.ROOT, "bench: " + format + "%n", args);
    log.flush();
  }
}
