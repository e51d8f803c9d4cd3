package io.ogpm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.OperatingSystemMXBean;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.kafka.AggregationKafka;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.PerturbationSinks;
import io.ogpm.flink.kafka.RawRecordSource;
import io.ogpm.flink.perturb.DeadLetters;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.JobEnvironment;
import io.ogpm.jobs.JobRunner;
import io.ogpm.jobs.PerturbJob;
import io.ogpm.kafka.embedded.EmbeddedBroker;
import io.ogpm.sample.BundledSample;
import java.io.PrintWriter;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The pipelines side by side, on an embedded Kafka broker and one Flink MiniCluster that runs every
 * job in turn (as a session cluster would), with the deployable jobs' exactly-once sinks and
 * checkpoints:
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
 * gives one ratio, and the spread of the ratios says how far to trust them. Untimed rounds of every
 * pipeline come first, until the JIT has compiled each one's code. Besides rates, the perturbation
 * reports the process's CPU time per record, which load elsewhere on the machine does not change.
 *
 * <p>Perturbation throughput is the records over the span of the broker's append times of the
 * output (the output topics take {@code LogAppendTime}): from the first record written to the last,
 * without the job's start and its final commit. The aggregation writes too few records for that, so
 * both aggregation pipelines are timed by the job's net run time (start-up included, the same for
 * both); the perturbation is reported on that basis too, to compare the two jobs.
 */
final class PipelineBench {
  static final String RAW = "bench.raw";
  static final String RAW_ONE_FIELD = "bench.raw-1";
  static final String RAW_MANY_GROUPS = "bench.raw-groups";
  static final int USERS = 1000;

  /** The pipelines compared: see {@link #compared}. */
  static final int KINDS = 5;

  static final int GROUPS = 100;

  /**
   * The many-groups case's groups: about 100 records per group and window at the default window.
   */
  static final int MANY_GROUPS = 1000;

  static final Duration CHECKPOINTS = Duration.ofSeconds(5);

  /**
   * The aggregation's watermarks, the same for the aggregate job and the count it is compared with.
   */
  static final Duration OUT_OF_ORDERNESS = Duration.ofMinutes(5);

  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);

  /** Topic settings: records kept whatever their time stamps (the sample's are in the past). */
  static final Map<String, String> KEEP = Map.of("retention.ms", "-1");

  /**
   * Topic settings: kept, each record stamped by the broker ({@code LogAppendTime}), as the
   * budget's clock requires of a raw topic and {@link #timing} reads of an output topic.
   */
  static final Map<String, String> STAMPED_BY_BROKER =
      Map.of("retention.ms", "-1", "message.timestamp.type", "LogAppendTime");

  private final int records;
  private final int repetitions;
  private final int parallelism;
  private final int recordsPerWindow;

  /**
   * The aggregation's headline estimate: {@code em} reconstructs every emission, {@code raw} does
   * not.
   */
  private final EstimationMethod method;

  private final int warmUpRounds;
  private final PrintWriter log;
  private EmbeddedBroker kafka;
  private Cluster cluster;
  private KafkaSettings settings;
  private int runs;

  PipelineBench(
      int records,
      int repetitions,
      int parallelism,
      int recordsPerWindow,
      EstimationMethod method,
      int warmUpRounds,
      PrintWriter log) {
    this.method = method;
    this.warmUpRounds = warmUpRounds;
    this.records = records;
    this.repetitions = repetitions;
    this.parallelism = parallelism;
    this.recordsPerWindow = recordsPerWindow;
    this.log = log;
  }

  ObjectNode run() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("records", records);
    out.put("repetitions", repetitions);
    out.put("parallelism", parallelism);
    out.put("warmUpRounds", warmUpRounds);
    out.put("availableProcessors", Runtime.getRuntime().availableProcessors());
    try (EmbeddedBroker broker = EmbeddedBroker.start();
        Cluster flink = Cluster.start(parallelism)) {
      kafka = broker;
      cluster = flink;
      settings = KafkaSettings.of(broker.bootstrapServers());
      PrivacyConfig six = PrivacyConfig.parse(BundledSample.config());
      PrivacyConfig one = PrivacyConfig.parse(ONE_FIELD);
      kafka.createTopic(RAW, 2, STAMPED_BY_BROKER);
      kafka.createTopic(RAW_ONE_FIELD, 2, STAMPED_BY_BROKER);
      produce(RAW, GROUPS);
      produce(RAW_ONE_FIELD, GROUPS);
      kafka.createTopic(RAW_MANY_GROUPS, 2, STAMPED_BY_BROKER);
      produce(RAW_MANY_GROUPS, MANY_GROUPS);
      log("produced %d records into %s, %s and %s", records, RAW, RAW_ONE_FIELD, RAW_MANY_GROUPS);

      // Five pipelines, in an order rotated from one repetition to the next: the perturbation with
      // the sample's per-user budget (a shuffle by user and keyed state), the perturbation alone
      // (the sample's configuration without its budget), the identity map, and the two
      // perturbations with the privacy left out (the same record path writing the values as read;
      // the one in place of the budget's keeps its shuffle by user, without state).
      PrivacyConfig withoutBudget = PrivacyConfig.parse(withoutBudget(BundledSample.config()));
      PrivacyConfig[] perturbations = {six, withoutBudget};
      String[] kinds = {
        "perturbation",
        "perturbation without budget",
        "identity",
        "unperturbed, shuffled by user",
        "unperturbed"
      };
      // Untimed rounds of all of them first. The JIT compiles each pipeline's own code only once it
      // runs, behind a queue of Kafka's and Flink's methods: on two cores a pipeline reaches its
      // steady rate in its third run of 1,000,000 records or so, and one timed before that is slow
      // for want of compiled code, not for its work.
      for (int w = 0; w < warmUpRounds; w++) {
        for (int kind = 0; kind < KINDS; kind++) {
          compared(kind, perturbations, "bench.warm-up." + kind + "." + w);
        }
        log("warm-up round %d done", w);
      }
      List<List<Timing>> timings = new ArrayList<>();
      for (int kind = 0; kind < KINDS; kind++) {
        timings.add(new ArrayList<>());
      }
      String perturbedTopic = null;
      for (int rep = 0; rep < repetitions; rep++) {
        for (int k = 0; k < KINDS; k++) {
          int kind = (k + rep) % KINDS;
          String topic = "bench." + kind + "." + rep;
          Timing t = compared(kind, perturbations, topic);
          timings.get(kind).add(t);
          perturbedTopic = kind == 0 && perturbedTopic == null ? topic : perturbedTopic;
          log(
              "%s %d: %.0f records/s (append span), %.0f records/s (net run time), %.2f us CPU per record"
                  + " (%.2f us in the job's threads), %s",
              kinds[kind],
              rep,
              t.appendRate,
              t.netRate,
              t.cpuMicros,
              t.jobCpuMicros,
              t.jitMillis < 0
                  ? "JIT time not measured by this JVM"
                  : t.jitMillis + " ms of it JIT compilation");
        }
      }
      List<Double> perturbedNet = timings.get(0).stream().map(Timing::netRate).toList();
      ObjectNode p = out.putObject("perturbation");
      against(p, timings.get(0), timings.get(2), "identity");
      against(p.putObject("againstUnperturbed"), timings.get(0), timings.get(3), "unperturbed");
      p.put("netRunTimeRecordsPerSecond", Math.round(median(perturbedNet)));
      ObjectNode alone = out.putObject("perturbationWithoutBudget");
      against(alone, timings.get(1), timings.get(2), "identity");
      against(alone.putObject("againstUnperturbed"), timings.get(1), timings.get(4), "unperturbed");
      // The ceiling of any perturbation against the identity map: the same job with no privacy at
      // all, which still reads and writes every record.
      against(
          out.putObject("unperturbedAgainstIdentity"), timings.get(4), timings.get(2), "identity");

      String oneTopic = "bench.perturbed-1";
      Timing oneField = perturbJob(one, RAW_ONE_FIELD, oneTopic);
      log("perturbation, one field: %.0f records/s (net run time)", oneField.netRate);
      String manyTopic = "bench.perturbed-groups";
      Timing many = perturbJob(six, RAW_MANY_GROUPS, manyTopic);
      log("perturbation, %d groups: %.0f records/s (net run time)", MANY_GROUPS, many.netRate);
      out.set("aggregation", aggregation(six, perturbedTopic, GROUPS, median(perturbedNet)));
      out.set("aggregationManyGroups", aggregation(six, manyTopic, MANY_GROUPS, many.netRate));
      out.set("aggregationOneFieldNoGroup", aggregation(one, oneTopic, 1, oneField.netRate));
    }
    return out;
  }

  /** The aggregation against the count per window; {@code groups} 1: no group, else by activity. */
  private ObjectNode aggregation(
      PrivacyConfig config, String input, int groups, double perturbNetRate) {
    String group = groups == 1 ? null : "activity";
    for (int w = 0; w < warmUpRounds; w++) {
      aggregateJob(config, input, group);
      countJob(config, input, group);
    }
    List<Run> estimates = new ArrayList<>();
    List<Run> counts = new ArrayList<>();
    for (int rep = 0; rep < repetitions; rep++) {
      for (int k = 0; k < 2; k++) {
        boolean estimate = (k == 0) == (rep % 2 == 0);
        Run run = estimate ? aggregateJob(config, input, group) : countJob(config, input, group);
        (estimate ? estimates : counts).add(run);
        log(
            "%s (%s) %d: %.0f records/s (net run time), %.2f us CPU per record in the job's threads",
            estimate ? "aggregation" : "count per window",
            group == null
                ? "one field, no group"
                : config.fields().size() + " fields, " + groups + " groups",
            rep,
            run.netRate(records),
            run.jobCpuMicros(records));
      }
    }
    ObjectNode a = JsonNodeFactory.instance.objectNode();
    a.put("fields", config.fields().size());
    a.put("groups", groups);
    a.put("recordsPerWindow", recordsPerWindow);
    a.put("method", method.code());
    pairs(a, "recordsPerSecond", rates(estimates), "countRecordsPerSecond", rates(counts));
    a.put("measure", "records over the job's net run time (start-up included, alike for both)");
    ObjectNode cpu = a.putObject("cpu");
    pairs(
        cpu,
        "countMicrosPerRecord",
        counts.stream().map(r -> r.cpuMicros(records)).toList(),
        "microsPerRecord",
        estimates.stream().map(r -> r.cpuMicros(records)).toList(),
        true);
    cpu.put(
        "measure",
        "CPU time of the whole process (broker, clients, jobs, JIT) while the job ran, per record;"
            + " ratio: the count's over the aggregation's");
    if (Stream.concat(estimates.stream(), counts.stream()).allMatch(r -> r.jobCpuNanos >= 0)) {
      ObjectNode job = a.putObject("jobCpu");
      pairs(
          job,
          "countMicrosPerRecord",
          counts.stream().map(r -> r.jobCpuMicros(records)).toList(),
          "microsPerRecord",
          estimates.stream().map(r -> r.jobCpuMicros(records)).toList(),
          true);
      job.put(
          "measure",
          "CPU time of the job's own threads (Flink tasks, Kafka source fetchers, the sinks' producers;"
              + " not the broker, the garbage collector or the JIT) per record; ratio: the count's over the aggregation's");
    }
    a.put("perturbationRecordsPerSecond", Math.round(perturbNetRate));
    a.put("overPerturbation", round(median(rates(estimates)) / perturbNetRate));
    return a;
  }

  private List<Double> rates(List<Run> runs) {
    return runs.stream().map(r -> r.netRate(records)).toList();
  }

  /**
   * A perturbation against a baseline ({@code baseline}: the identity map or the unperturbed record
   * path), repetition by repetition: rates (records over the span of the output's broker append
   * times) and the process's CPU per record, whose ratio (the baseline's over the perturbation's)
   * is what the rates' ratio would be on a machine that only ran these jobs and whose every core
   * they kept busy.
   */
  private static void against(
      ObjectNode o, List<Timing> perturbed, List<Timing> base, String baseline) {
    pairs(
        o,
        "recordsPerSecond",
        perturbed.stream().map(Timing::appendRate).toList(),
        baseline + "RecordsPerSecond",
        base.stream().map(Timing::appendRate).toList());
    o.put("measure", "records over the span of the output's broker append times");
    ObjectNode cpu = o.putObject("cpu");
    pairs(
        cpu,
        baseline + "MicrosPerRecord",
        base.stream().map(Timing::cpuMicros).toList(),
        "microsPerRecord",
        perturbed.stream().map(Timing::cpuMicros).toList(),
        true);
    cpu.put(
        "measure",
        "CPU time of the whole process (broker, clients, jobs, JIT) while the job ran, per record;"
            + " ratio: the "
            + baseline
            + "'s over the perturbation's");
    if (Stream.concat(base.stream(), perturbed.stream()).allMatch(t -> t.jobCpuMicros >= 0)) {
      ObjectNode job = o.putObject("jobCpu");
      pairs(
          job,
          baseline + "MicrosPerRecord",
          base.stream().map(Timing::jobCpuMicros).toList(),
          "microsPerRecord",
          perturbed.stream().map(Timing::jobCpuMicros).toList(),
          true);
      job.put(
          "measure",
          "CPU time of the job's own threads (Flink tasks, Kafka source fetchers, the sinks' producers;"
              + " not the broker, the garbage collector or the JIT) per record; ratio: the "
              + baseline
              + "'s over the"
              + " perturbation's");
    }
    if (Stream.concat(base.stream(), perturbed.stream()).allMatch(t -> t.jitMillis >= 0)) {
      // Left out where the JVM does not measure it: a 0 would read as "no compilation".
      ArrayNode jit = cpu.putArray(baseline + "JitMillisRuns");
      base.forEach(t -> jit.add(t.jitMillis));
      ArrayNode perturbedJit = cpu.putArray("jitMillisRuns");
      perturbed.forEach(t -> perturbedJit.add(t.jitMillis));
      cpu.put(
          "jitMeasure",
          "time the JIT compilers spent while each run's job ran (CompilationMXBean), in ms: part"
              + " of its CPU time, and one cause of the spread between runs of one pipeline");
    }
  }

  /**
   * The medians of a pair's two series, the median of their ratios, and the spread of the ratios.
   */
  private static void pairs(
      ObjectNode o, String name, List<Double> a, String otherName, List<Double> b) {
    pairs(o, name, a, otherName, b, false);
  }

  /**
   * As {@link #pairs(ObjectNode, String, List, String, List)}; {@code fractional}: the series to
   * 0.01, not to 1.
   */
  private static void pairs(
      ObjectNode o,
      String name,
      List<Double> a,
      String otherName,
      List<Double> b,
      boolean fractional) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      ratios.add(a.get(i) / b.get(i));
    }
    o.set(name, figure(median(a), fractional));
    o.set(otherName, figure(median(b), fractional));
    o.put("ratio", round(median(ratios)));
    o.put(
        "ratioMin",
        round(ratios.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN)));
    o.put(
        "ratioMax",
        round(ratios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)));
    ArrayNode all = o.putArray("ratios");
    ratios.forEach(r -> all.add(round(r)));
    ArrayNode as = o.putArray(name + "Runs");
    a.forEach(x -> as.add(figure(x, fractional)));
    ArrayNode bs = o.putArray(otherName + "Runs");
    b.forEach(x -> bs.add(figure(x, fractional)));
  }

  private static JsonNode figure(double x, boolean fractional) {
    return fractional
        ? JsonNodeFactory.instance.numberNode(Math.round(x * 100) / 100.0)
        : JsonNodeFactory.instance.numberNode(Math.round(x));
  }

  /**
   * One run: records per second two ways, the process's CPU microseconds per record while the job
   * ran, the job's own threads' ({@link JobThreadCpu}; -1: not measured by this JVM), and the JIT
   * compilers' milliseconds meanwhile (-1: not measured by this JVM).
   */
  private record Timing(
      double appendRate, double netRate, double cpuMicros, double jobCpuMicros, long jitMillis) {}

  /**
   * Creates a timed pipeline's output topic: two partitions, kept, each record stamped by the
   * broker ({@code LogAppendTime}), whose append times {@link #timing} reads.
   */
  private void createTimedOutput(String output) {
    kafka.createTopic(output, 2, STAMPED_BY_BROKER);
  }

  /** Creates the dead-letter topic of a pipeline writing to {@code output}; returns its name. */
  private String createDeadLetters(String output) {
    String dead = output + ".dead-letters";
    kafka.createTopic(dead, 1, KEEP);
    return dead;
  }

  private Timing perturbJob(PrivacyConfig config, String input, String output) {
    createTimedOutput(output);
    String dead = createDeadLetters(output);
    String id = "bench-" + runs++;
    StreamExecutionEnvironment env = environment();
    PerturbJob.build(
        env,
        PerturbJob.Settings.builder()
            .config(config)
            .kafka(settings)
            .inputTopic(input)
            .outputTopic(output)
            .deadLetterTopic(dead)
            .groupId(id)
            .transactionalIdPrefix(id)
            .keySource(KeySource.none())
            .bounded(true)
            .checkpointInterval(CHECKPOINTS)
            .parallelism(parallelism)
            .build());
    return execute(env, "bench perturbation", List.of(output, dead));
  }

  private Timing identityJob(String input, String output) {
    createTimedOutput(output);
    String id = "bench-" + runs++;
    StreamExecutionEnvironment env = environment();
    JobEnvironment.configure(env, CHECKPOINTS, parallelism);
    env.fromSource(
            RawRecordSource.builder()
                .kafka(settings)
                .topics(input)
                .groupId(id)
                .bounded(true)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "raw records")
        .map(new Identity())
        .returns(TypeInformation.of(PerturbedRecord.class))
        .sinkTo(PerturbationSinks.perturbed(settings, output, id));
    return execute(env, "bench identity", List.of(output));
  }

  /**
   * Pipeline {@code kind} of the {@value #KINDS} compared: the perturbation under {@code
   * perturbations[kind]} (0: with the budget, 1: without), the identity map (2), and the
   * unperturbed record path with the budget's shuffle (3) or without (4).
   */
  private Timing compared(int kind, PrivacyConfig[] perturbations, String output) {
    return switch (kind) {
      case 0, 1 -> perturbJob(perturbations[kind], RAW, output);
      case 2 -> identityJob(RAW, output);
      default -> unperturbedJob(perturbations[1], kind == 3, RAW, output);
    };
  }

  /**
   * The perturb job's topology, source, record path, sinks and, {@code byUser}, the budget's
   * shuffle, with the privacy left out ({@link Unperturbed}).
   */
  private Timing unperturbedJob(PrivacyConfig config, boolean byUser, String input, String output) {
    createTimedOutput(output);
    String dead = createDeadLetters(output);
    String id = "bench-" + runs++;
    String fingerprint = ConfigFingerprint.of(config).value();
    StreamExecutionEnvironment env = environment();
    JobEnvironment.configure(env, CHECKPOINTS, parallelism);
    SingleOutputStreamOperator<PerturbedRecord> path =
        env.fromSource(
                RawRecordSource.builder()
                    .kafka(settings)
                    .topics(input)
                    .groupId(id)
                    .bounded(true)
                    .build(),
                WatermarkStrategy.noWatermarks(),
                "raw records")
            .process(
                new Unperturbed.RecordPath(config, byUser ? null : fingerprint),
                TypeInformation.of(PerturbedRecord.class))
            .name("unperturbed");
    DataStream<PerturbedRecord> released =
        byUser
            ? path.keyBy(PerturbedRecord::getUser, Types.STRING)
                .process(
                    new Unperturbed.ByUser(fingerprint), TypeInformation.of(PerturbedRecord.class))
                .name("by user")
            : path;
    released.sinkTo(PerturbationSinks.perturbed(settings, output, id)).name("perturbed topic");
    path.getSideOutput(DeadLetters.TAG)
        .sinkTo(PerturbationSinks.deadLetters(settings, dead, id))
        .name("dead-letter topic");
    return execute(env, "bench unperturbed", List.of(output, dead));
  }

  /**
   * Runs a bounded job to its end, taking the process's CPU time meanwhile, and times its output
   * ({@code outputs}' first).
   */
  private Timing execute(StreamExecutionEnvironment env, String name, List<String> outputs) {
    Run run = run(env, name, outputs);
    return timing(run.result, run.cpuNanos, run.jobCpuNanos, run.jitMillis, outputs.get(0));
  }

  /**
   * A bounded job's run: its result, the process's CPU nanoseconds while it ran, its own threads'
   * ({@link JobThreadCpu}; -1: not measured by this JVM), and the JIT compilers' milliseconds
   * meanwhile (-1: not measured by this JVM).
   */
  private record Run(JobExecutionResult result, long cpuNanos, long jobCpuNanos, long jitMillis) {
    double netRate(long records) {
      return records * 1000.0 / result.getNetRuntime();
    }

    double jobCpuMicros(long records) {
      return jobCpuNanos < 0 ? -1 : jobCpuNanos / 1e3 / records;
    }

    double cpuMicros(long records) {
      return cpuNanos / 1e3 / records;
    }
  }

  /**
   * Runs a bounded job to its end, taking the process's and the job's threads' CPU time meanwhile.
   */
  private Run run(StreamExecutionEnvironment env, String name, List<String> outputs) {
    long cpu = processCpuNanos();
    long jit = jitMillis();
    JobThreadCpu jobThreads = JobThreadCpu.start();
    JobExecutionResult result;
    try {
      result = JobRunner.execute(env, name, true, settings, outputs);
    } finally {
      if (jobThreads != null) {
        jobThreads.close();
      }
    }
    long jitAfter = jitMillis();
    return new Run(
        result,
        processCpuNanos() - cpu,
        jobThreads == null ? -1 : jobThreads.nanos(),
        jit < 0 || jitAfter < 0 ? -1 : jitAfter - jit);
  }

  /** Each raw value, unchanged, as a record for the same sink. */
  static final class Identity implements MapFunction<RawRecord, PerturbedRecord> {
    @Override
    public PerturbedRecord map(RawRecord r) {
      return new PerturbedRecord(
          null, r.getValue(), 0, null, r.getTimestamp(), r.getTimestampType());
    }
  }

  private Run aggregateJob(PrivacyConfig config, String input, String group) {
    String output = "bench.stats." + runs;
    kafka.createTopic(output, 1, KEEP);
    String id = "bench-" + runs++;
    StreamExecutionEnvironment env = environment();
    AggregateJob.Settings.Builder b =
        AggregateJob.Settings.builder()
            .aggregation(
                a -> a.config(config).window(window()).groupBy(group).bins(50).method(method))
            .kafka(settings)
            .inputTopic(input)
            .outputTopic(output)
            .groupId(id)
            .transactionalIdPrefix(id)
            .timeField("ts")
            .outOfOrderness(OUT_OF_ORDERNESS)
            .idleTimeout(IDLE_TIMEOUT)
            .bounded(true)
            .checkpointInterval(CHECKPOINTS)
            .parallelism(parallelism);
    AggregateJob.build(env, b.build());
    return run(env, "bench aggregation", List.of(output));
  }

  private Run countJob(PrivacyConfig config, String input, String group) {
    String output = "bench.counts." + runs;
    kafka.createTopic(output, 1, KEEP);
    String id = "bench-" + runs++;
    StreamExecutionEnvironment env = environment();
    JobEnvironment.configure(env, CHECKPOINTS, parallelism);
    LdpAggregation.Builder a = LdpAggregation.builder().config(config).window(window());
    if (group != null) {
      a.groupBy(group);
    }
    LdpAggregation aggregation = a.build();
    env.fromSource(
            AggregationKafka.perturbedValuesSource()
                .kafka(settings)
                .topics(input)
                .groupId(id)
                .deserializer(AggregationKafka.deserializer(aggregation, "ts"))
                .bounded(true)
                .build(),
            LdpAggregation.watermarks(OUT_OF_ORDERNESS, IDLE_TIMEOUT),
            "perturbed records")
        .keyBy(new GroupKey())
        .window(TumblingEventTimeWindows.of(window()))
        .aggregate(new Count())
        .sinkTo(settings.exactlyOnceSink(countSerializer(output), id));
    return run(env, "bench count per window", List.of(output));
  }

  static final class GroupKey implements KeySelector<PerturbedValues, String> {
    @Override
    public String getKey(PerturbedValues v) {
      return v.getGroup() == null ? "" : v.getGroup();
    }
  }

  static final class Count implements AggregateFunction<PerturbedValues, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(PerturbedValues value, Long count) {
      return count + 1;
    }

    @Override
    public Long getResult(Long count) {
      return count;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  private static KafkaRecordSerializationSchema<Long> countSerializer(String topic) {
    return (count, context, timestamp) ->
        new ProducerRecord<>(topic, Long.toString(count).getBytes(StandardCharsets.UTF_8));
  }

  /** Windows of {@link #recordsPerWindow} records: the records are 1 ms apart. */
  private Duration window() {
    return Duration.ofMillis(recordsPerWindow);
  }

  private StreamExecutionEnvironment environment() {
    // Checkpoints in files, as on a cluster: in the JobManager's memory a state handle may hold at
    // most 5 MB, and the aggregation's keyed state of 1,000 groups x 6 fields is larger, so its
    // checkpoints would fail and the job restart without end.
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, cluster.checkpoints.toUri().toString());
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createRemoteEnvironment(
            cluster.rest.getHost(), cluster.rest.getPort(), conf);
    env.setParallelism(parallelism);
    return env;
  }

  /**
   * One MiniCluster for every job of the run, as a session cluster serves a deployment's jobs. A
   * MiniCluster per job would load its RPC system's classes (Pekko, Scala) afresh each time, and on
   * two cores their compilation competes with the job being timed.
   */
  private record Cluster(MiniCluster miniCluster, URI rest, Path checkpoints)
      implements AutoCloseable {
    static Cluster start(int slots) {
      Configuration conf = new Configuration();
      conf.set(RestOptions.BIND_PORT, "0");
      MiniCluster cluster =
          new MiniCluster(
              new MiniClusterConfiguration.Builder()
                  .setConfiguration(conf)
                  .setNumTaskManagers(1)
                  .setNumSlotsPerTaskManager(slots)
                  .build());
      try {
        cluster.start();
        return new Cluster(
            cluster,
            cluster.getRestAddress().get(),
            Files.createTempDirectory("ogpm-bench-checkpoints"));
      } catch (Exception e) {
        throw new IllegalStateException(
            "the benchmark's MiniCluster did not start: " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {
      try {
        miniCluster.close();
        try (Stream<Path> files = Files.walk(checkpoints)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
      } catch (Exception e) {
        throw new IllegalStateException(
            "the benchmark's MiniCluster did not stop: " + e.getMessage(), e);
      }
    }
  }

  /**
   * The sample's records, in a loop, each with an id of its own, one of {@value #USERS} users (so
   * the sample's budget lets every record through), one of {@code groups} activities, and times 1
   * ms apart.
   */
  private void produce(String topic, int groups) {
    List<String> sample = BundledSample.records(Integer.MAX_VALUE);
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ProducerConfig.LINGER_MS_CONFIG,
            20,
            ProducerConfig.BATCH_SIZE_CONFIG,
            1 << 18,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (int i = 0; i < records; i++) {
        producer.send(
            new ProducerRecord<>(
                topic,
                record(sample.get(i % sample.size()), i, groups).getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
  }

  static String record(String line, int i, int groups) {
    int tail = line.indexOf(",\"attitude\"");
    return "{\"id\":\"b"
        + i
        + "\",\"user\":\"u"
        + (i % USERS)
        + "\",\"ts\":"
        + (1767225600000L + i)
        + ",\"activity\":\"g"
        + (i % groups)
        + "\""
        + line.substring(tail);
  }

  /** A configuration's YAML without its budget section (the sample's is its last key). */
  static String withoutBudget(String yaml) {
    int budget = yaml.indexOf("\nbudget:");
    return budget < 0 ? yaml : yaml.substring(0, budget + 1);
  }

  /**
   * The sample's configuration with its first field only (same ids, users, passthrough and budget).
   */
  static final String ONE_FIELD =
      """
      id-field: id
      user-field: user
      passthrough: [id, ts, activity]
      fields:
        - {name: userAcceleration.x, min: -3.0, max: 3.0, epsilon: 1.0, out-of-range: clamp}
      budget: {epsilon: 50000, period: P1D, clock: log-append-time, max-lag: P1D}
      """;

  /** Records over the span of the output's broker append times, and over the job's net run time. */
  private Timing timing(
      JobExecutionResult result, long cpuNanos, long jobCpuNanos, long jitMillis, String output) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long count = 0;
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
      List<TopicPartition> partitions =
          List.of(new TopicPartition(output, 0), new TopicPartition(output, 1));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          first = Math.min(first, r.timestamp());
          last = Math.max(last, r.timestamp());
          count++;
        }
      }
    }
    if (count != records) {
      throw new IllegalStateException(
          output + " holds " + count + " records, not the " + records + " of the input");
    }
    return new Timing(
        records * 1000.0 / Math.max(1, last - first),
        records * 1000.0 / result.getNetRuntime(),
        cpuNanos / 1e3 / records,
        jobCpuNanos < 0 ? -1 : jobCpuNanos / 1e3 / records,
        jitMillis);
  }

  /**
   * CPU time of the whole process, every thread: the job's task threads, the broker's, the Kafka
   * clients' and the JIT compiler's. Unlike a rate, it does not depend on what else the machine
   * runs meanwhile.
   */
  private static long processCpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * The JIT compilers' time so far, in milliseconds ({@code CompilationMXBean}: the time spent in
   * compilations, summed over the compiler threads), or -1 where the JVM does not measure it.
   */
  private static long jitMillis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime()
        : -1;
  }

  private void log(String format, Object... args) {
    log.printf(java.util.Locale.ROOT, "bench: " + format + "%n", args);
    log.flush();
  }

  private static double median(List<Double> xs) {
    List<Double> s = xs.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
