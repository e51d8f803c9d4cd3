package io.ogpm.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.PrivacyAssertions;
import io.ogpm.testkit.TestRecord;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.IsolationLevel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The project as a user deploys it: a Flink 2.2.1 standalone cluster, highly available (two
 * JobManagers, one leading and one standing by, elected by a ZooKeeper server; and a TaskManager;
 * each its own JVM, built from Flink's and ZooKeeper's artifacts on Maven Central) and a Kafka
 * broker in its own JVM, all started by this test ({@link FlinkCluster}, {@link ZooKeeperServer},
 * {@link KafkaBroker}). Then, as a user would:
 *
 * <ol>
 *   <li>{@code ogpm topics} creates the topics, {@code ogpm topics --check} finds nothing to
 *       report;
 *   <li>the perturb job is submitted with the {@code flink} command line, the aggregate job through
 *       the REST API ({@code /jars/upload}, {@code /jars/:id/run}), as the web UI does; the web UI
 *       answers;
 *   <li>a first part of the MotionSense sample (with bad records mixed in) is perturbed, and the
 *       Prometheus reporter's {@code recordsPerturbed} equals the perturbed records read;
 *   <li>the TaskManager is killed with SIGKILL while the sample streams in and a transaction of the
 *       sinks is open; a new one is started and the jobs restore from their last completed
 *       checkpoint;
 *   <li>the leading JobManager is killed with SIGKILL while the sample streams in; the standby
 *       leads, and recovers both jobs (the same ids) from the last checkpoint in ZooKeeper;
 *   <li>every input is then in the perturbed or the dead-letter topic once under {@code
 *       read_committed} (the killed attempts' records are there only as aborted);
 *   <li>the aggregate job, at its defaults, writes statistics of every window that count exactly
 *       that window's records: each perturbed partition kept its raw partition's order across the
 *       kills;
 *   <li>Flink's SQL Gateway, on the same cluster, reads the perturbed topic back: as many records,
 *       and distinct ids, as the jobs committed. docs/sql.md's SQL example runs there too, and its
 *       windows' estimates are checked ({@link #theReadmeSqlExampleRunsThroughTheSqlGateway});
 *   <li>the other way round, bounded, into topics of their own: the perturb job through the REST
 *       API, the aggregate job with {@code flink run} waiting for its end; the same checks.
 * </ol>
 *
 * <p>Every process is killed when the class ends, and by a shutdown hook if the JVM stops first
 * ({@link ManagedProcesses}); logs are under {@code target/cluster/}, and a failure prints the end
 * of each. Waits are for conditions, with {@link KafkaFixture#PATIENCE}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandaloneClusterIT {
  @RegisterExtension static final ManagedProcesses PROCESSES = new ManagedProcesses();

  static final Path WORK =
      Path.of(System.getProperty("ogpm.cluster.work", "target/cluster")).toAbsolutePath();
  static final Path FLINK_LIB =
      Path.of(System.getProperty("ogpm.flink.lib", "../cluster-lib/target/lib")).toAbsolutePath();
  static final Path JOB_JAR =
      Path.of(System.getProperty("ogpm.job.jar", "../../jobs/target/ogpm-job.jar"))
          .toAbsolutePath();
  static final Path CLI_JAR =
      Path.of(System.getProperty("ogpm.cli.jar", "../../tools/cli/target/ogpm.jar"))
          .toAbsolutePath();
  static final Path FLINK_OPT =
      Path.of(System.getProperty("ogpm.flink.opt", "../cluster-lib/target/opt")).toAbsolutePath();
  static final Path README =
      Path.of(System.getProperty("ogpm.readme", "../../docs/sql.md")).toAbsolutePath();
  static final Path SAMPLE_DIR =
      Path.of(System.getProperty("ogpm.sample.dir", "../../sample-data")).toAbsolutePath();
  static final Path LOG4J =
      Path.of(System.getProperty("ogpm.log4j", "../../docker/log4j-console.properties"))
          .toAbsolutePath();
  static final String OPENS = System.getProperty("ogpm.flink.jvm.opens", "");

  static final String RAW = "ogpm.raw";
  static final String PERTURBED = "ogpm.perturbed";
  static final String DEAD = "ogpm.dead-letters";
  static final String STATS = "ogpm.stats";
  static final int PARALLELISM = 2;

  /** Inputs produced before the kill phase: perturbed with the first TaskManager alone. */
  static final int FIRST_PART = 3000;

  /** Inputs of the first part perturbed before the broker is frozen. */
  static final int BEFORE_FREEZE = 1000;

  /** How long the broker is frozen: ten of the jobs' checkpoint intervals. */
  static final Duration FROZEN = Duration.ofSeconds(10);

  /**
   * Inputs produced, paced, while the TaskManager's kill is prepared (it waited 0.5 to 1.3 s for a
   * checkpoint with a transaction open; this part lasts about 5 s).
   */
  static final int BEFORE_TASK_MANAGER_KILL = 5300;

  /** Inputs produced right after the TaskManager's kill, while none runs. */
  static final int AFTER_TASK_MANAGER_KILL = 5800;

  /**
   * Inputs produced, paced, after the recovery while the JobManager's kill is prepared (it waited
   * 0.3 to 3.1 s for both jobs' checkpoints; this part lasts about 10 s); the rest follows the
   * kill.
   */
  static final int BEFORE_JOB_MANAGER_KILL = 7900;

  static final long WINDOW_MS = 10_000;
  static final Pattern JOB_ID = Pattern.compile("Job has been submitted with JobID ([0-9a-f]{32})");
  static final Pattern SAVEPOINT = Pattern.compile("Savepoint completed\\. Path: (\\S+)");
  static final ObjectMapper JSON = new ObjectMapper();

  static final Timings TIMINGS = new Timings();
  static KafkaBroker kafka;
  static ZooKeeperServer zooKeeper;
  static FlinkCluster flink;
  static int firstMetricsPort;
  static ManagedProcesses.ManagedProcess firstTaskManager;
  static SqlGateway sqlGateway;

  @BeforeAll
  static void startCluster() throws IOException {
    assertThat(FLINK_LIB.resolve("flink-runtime-2.2.1.jar"))
        .as("Flink's lib/ (copied by the POM before this test)")
        .exists();
    assertThat(JOB_JAR).as("the job jar (the jobs module builds it)").exists();
    assertThat(CLI_JAR).as("the ogpm command line (the cli module builds it)").exists();
    deleteRecursively(WORK);
    Files.createDirectories(WORK);
    kafka =
        TIMINGS.time(
            "Kafka broker started (format + start)",
            () -> KafkaBroker.start(PROCESSES, WORK.resolve("kafka")));
    // The server logs through the SLF4J binding Flink's lib/ has (the test class path has none).
    Path slf4jBinding;
    try (Stream<Path> jars = Files.list(FLINK_LIB)) {
      slf4jBinding =
          jars.filter(j -> j.getFileName().toString().startsWith("log4j-slf4j-impl-"))
              .findFirst()
              .orElseThrow();
    }
    zooKeeper =
        TIMINGS.time(
            "ZooKeeper started",
            () -> ZooKeeperServer.start(PROCESSES, WORK.resolve("zookeeper"), slf4jBinding));
    flink =
        FlinkCluster.configure(
            PROCESSES, FLINK_LIB, WORK.resolve("flink"), OPENS, LOG4J, zooKeeper);
    TIMINGS.time("JobManager started (leads)", () -> flink.startJobManager("jobmanager-1"));
    assertThat(flink.awaitLeader().name())
        .as("the first JobManager started leads")
        .isEqualTo("jobmanager-1");
    TIMINGS.time(
        "a second JobManager started (stands by)", () -> flink.startJobManager("jobmanager-2"));
    firstMetricsPort = Ports.free();
    firstTaskManager =
        TIMINGS.time(
            "TaskManager started",
            () -> flink.startTaskManager("taskmanager-1", firstMetricsPort, 1));
  }

  /** The SQL Gateway on this cluster, started on first use. */
  static synchronized SqlGateway sqlGateway() {
    if (sqlGateway == null) {
      sqlGateway =
          TIMINGS.time(
              "SQL Gateway started",
              () ->
                  SqlGateway.start(
                      PROCESSES, flink, FLINK_OPT.resolve("flink-sql-gateway-2.2.1.jar")));
    }
    return sqlGateway;
  }

  @AfterAll
  static void printTimings() {
    System.out.println(TIMINGS);
  }

  @Test
  @Order(1)
  void
      theJobsRunOnAStandaloneClusterSurviveAKilledTaskManagerAndJobManagerExactlyOnceAndReportToPrometheus()
          throws Exception {
    // 1. The topics, created and checked as an operator would.
    String bootstrap = kafka.bootstrapServers();
    List<String> topicOptions =
        List.of(
            "--bootstrap-servers",
            bootstrap,
            "--replication-factor",
            "1",
            "--perturb-parallelism",
            Integer.toString(PARALLELISM));
    FlinkCluster.CliResult created =
        TIMINGS.time("ogpm topics", () -> ogpm("topics", topicOptions));
    assertThat(created.status()).as(created.output()).isZero();
    FlinkCluster.CliResult checked =
        TIMINGS.time(
            "ogpm topics --check", () -> ogpm("topics", concat(List.of("--check"), topicOptions)));
    assertThat(checked.status()).as(checked.output()).isZero();
    assertThat(checked.output())
        .contains("ok: ogpm.raw, ogpm.perturbed, ogpm.dead-letters, ogpm.stats");

    // 2. The perturb job with `flink run`, the aggregate job through the REST API.
    Path config = SAMPLE_DIR.resolve("ogpm.yaml");
    FlinkCluster.CliResult run =
        TIMINGS.time(
            "perturb-job submitted with flink run",
            () ->
                flink.flink(
                    KafkaFixture.PATIENCE,
                    "run",
                    "-d",
                    "-p",
                    Integer.toString(PARALLELISM),
                    JOB_JAR.toString(),
                    "perturb-job",
                    "--config",
                    config.toString(),
                    "--bootstrap-servers",
                    bootstrap,
                    "--checkpoint-interval",
                    "1s"));
    assertThat(run.status()).as(run.output()).isZero();
    Matcher submitted = JOB_ID.matcher(run.output());
    assertThat(submitted.find()).as(run.output()).isTrue();
    String perturbJob = submitted.group(1);

    String jarId = flink.rest().uploadJar(JOB_JAR);
    String aggregateJob =
        TIMINGS.time(
            "aggregate-job submitted through the REST API",
            () -> {
              HttpResponse<String> response =
                  flink
                      .rest()
                      .runJar(
                          jarId,
                          PARALLELISM,
                          List.of(
                              "aggregate-job",
                              "--config-yaml",
                              inlineYaml(config),
                              "--bootstrap-servers",
                              bootstrap,
                              "--group-by",
                              "activity",
                              "--time-field",
                              "ts",
                              "--window",
                              "10s",
                              "--checkpoint-interval",
                              "1s"));
              assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
              return JSON.readTree(response.body()).get("jobid").asText();
            });
    TIMINGS.time(
        "both jobs running",
        () -> {
          flink.rest().awaitRunning(perturbJob);
          flink.rest().awaitRunning(aggregateJob);
          return null;
        });
    assertThat(FlinkRest.status(flink.rest().address().resolve("/")))
        .as("the web UI")
        .isEqualTo(200);

    // 3. A first part of the stream, the broker frozen in its middle, and the Prometheus reporter.
    //    The broker stops (SIGSTOP) for longer than the jobs' checkpoint interval while records
    //    stream in, and goes on (SIGCONT): the jobs' Kafka clients and checkpoints wait for it,
    //    and nothing restarts.
    List<TestRecord> stream = SampleStream.records(SAMPLE_DIR.resolve("motionsense-dws1.jsonl"));
    List<KafkaRecord> inputs = Collections.synchronizedList(new ArrayList<>());
    inputs.addAll(kafka.produceRecords(RAW, stream.subList(0, BEFORE_FREEZE)));
    TIMINGS.time(
        "the stream's start perturbed", () -> kafka.awaitCommitted(BEFORE_FREEZE, PERTURBED, DEAD));
    AtomicInteger producedAcrossFreeze = new AtomicInteger();
    AtomicReference<Throwable> freezeProducerFailure = new AtomicReference<>();
    Thread acrossFreeze =
        new Thread(
            () -> {
              try {
                produceInChunks(
                    stream.subList(BEFORE_FREEZE, FIRST_PART), 50, inputs, producedAcrossFreeze);
              } catch (Throwable t) {
                freezeProducerFailure.set(t);
              }
            },
            "producer-across-freeze");
    acrossFreeze.start();
    long checkpointBeforeFreeze;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      long committedBefore =
          KafkaBroker.endOffsets(admin, PERTURBED, IsolationLevel.READ_COMMITTED);
      awaitCommitWithTransactionOpen(
          admin,
          committedBefore,
          "records produced across the freeze being committed, with a transaction open");
      checkpointBeforeFreeze = flink.rest().latestCompletedCheckpoint(perturbJob);
    }
    kafka.freeze();
    try {
      // The scenario itself, not a deadline: frozen for ten checkpoint intervals.
      Thread.sleep(FROZEN.toMillis());
    } finally {
      kafka.thaw();
    }
    acrossFreeze.join(KafkaFixture.PATIENCE.toMillis());
    assertThat(freezeProducerFailure.get()).as("the producer across the freeze").isNull();
    Map<String, List<KafkaRecord>> first =
        TIMINGS.time(
            "first part perturbed, the broker thawed",
            () -> kafka.awaitCommitted(FIRST_PART, PERTURBED, DEAD));
    Await.until(
        "the perturb job checkpointing again after the thaw",
        () -> flink.rest().latestCompletedCheckpoint(perturbJob),
        id -> id > checkpointBeforeFreeze + 1);
    assertThat(flink.rest().failedOver(perturbJob))
        .as("the perturb job restarted for the frozen broker")
        .isFalse();
    assertThat(flink.rest().failedOver(aggregateJob))
        .as("the aggregate job restarted for the frozen broker")
        .isFalse();
    long perturbedRead = first.get(PERTURBED).size();
    long deadRead = first.get(DEAD).size();
    assertThat(perturbedRead + deadRead).isEqualTo(FIRST_PART);
    assertThat(deadRead)
        .as("the bad records of the first part")
        .isEqualTo(FIRST_PART / (SampleStream.BAD_EVERY + 1));
    List<Prometheus.Sample> scraped =
        Await.until(
            "recordsPerturbed reaches "
                + perturbedRead
                + " on the TaskManager's Prometheus endpoint",
            () -> Prometheus.scrape(firstMetricsPort),
            s -> Prometheus.sum(s, "recordsPerturbed") >= perturbedRead);
    assertThat(Prometheus.count(scraped, "recordsPerturbed"))
        .as("one sample per subtask")
        .isEqualTo(PARALLELISM);
    assertThat(Prometheus.sum(scraped, "recordsPerturbed"))
        .as("recordsPerturbed against the records read")
        .isEqualTo(perturbedRead);
    assertThat(Prometheus.sum(scraped, "recordsDeadLettered"))
        .as("recordsDeadLettered against the dead letters read")
        .isEqualTo(deadRead);

    // 4. SIGKILL to the TaskManager mid-stream, with a transaction open; a new TaskManager.
    CountDownLatch taskManagerKilled = new CountDownLatch(1);
    CountDownLatch recovered = new CountDownLatch(1);
    CountDownLatch jobManagerKilled = new CountDownLatch(1);
    AtomicReference<Throwable> producerFailure = new AtomicReference<>();
    AtomicInteger produced = new AtomicInteger(FIRST_PART);
    Thread producer =
        new Thread(
            () -> {
              try {
                // Smaller chunks while a kill is prepared: a part must outlast the wait for its
                // checkpoint, on a busy machine too.
                produceInChunks(
                    stream.subList(FIRST_PART, BEFORE_TASK_MANAGER_KILL), 50, inputs, produced);
                taskManagerKilled.await();
                produceInChunks(
                    stream.subList(BEFORE_TASK_MANAGER_KILL, AFTER_TASK_MANAGER_KILL),
                    100,
                    inputs,
                    produced);
                recovered.await();
                produceInChunks(
                    stream.subList(AFTER_TASK_MANAGER_KILL, BEFORE_JOB_MANAGER_KILL),
                    25,
                    inputs,
                    produced);
                jobManagerKilled.await();
                produceInChunks(
                    stream.subList(BEFORE_JOB_MANAGER_KILL, stream.size()), 100, inputs, produced);
              } catch (Throwable t) {
                producerFailure.set(t);
              }
            },
            "sample-producer");
    long[] committedAtKill;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      long committedBefore =
          KafkaBroker.endOffsets(admin, PERTURBED, IsolationLevel.READ_COMMITTED);
      producer.start();
      committedAtKill =
          TIMINGS.time(
              "the stream committing again with a transaction open",
              () ->
                  awaitCommitWithTransactionOpen(
                      admin,
                      committedBefore,
                      "a checkpoint commits records of the second part while the sinks have a transaction open"));
      firstTaskManager.kill();
    } finally {
      taskManagerKilled.countDown();
    }
    int producedAtKill = produced.get();
    TIMINGS.time(
        "the JobManager notices the killed TaskManager",
        () ->
            Await.until(
                "the TaskManager gone and both jobs failed over",
                () ->
                    flink.taskManagers() == 0
                        && flink.rest().failedOver(perturbJob)
                        && flink.rest().failedOver(aggregateJob),
                done -> done));
    long perturbCheckpoint = flink.rest().latestCompletedCheckpoint(perturbJob);
    long aggregateCheckpoint = flink.rest().latestCompletedCheckpoint(aggregateJob);
    int secondMetricsPort = Ports.free();
    TIMINGS.time(
        "a new TaskManager started",
        () -> flink.startTaskManager("taskmanager-2", secondMetricsPort, 1));
    TIMINGS.time(
        "both jobs running again on the new TaskManager",
        () -> {
          flink.rest().awaitRunning(perturbJob);
          flink.rest().awaitRunning(aggregateJob);
          return null;
        });
    assertThat(flink.rest().restoredCheckpoint(perturbJob))
        .as("the perturb job restored its last completed checkpoint")
        .isEqualTo(perturbCheckpoint);
    assertThat(flink.rest().restoredCheckpoint(aggregateJob))
        .as("the aggregate job restored its last completed checkpoint")
        .isEqualTo(aggregateCheckpoint);

    // 5. SIGKILL to the leading JobManager mid-stream, with a transaction open. The standby leads
    //    once ZooKeeper expires the killed leader's session, and recovers the jobs from what the
    //    cluster keeps in ZooKeeper and its storage dir: the same jobs, from their last checkpoint.
    long[] committedAtJobManagerKill;
    FlinkCluster.JobManager killedJobManager;
    RestAnswers standbyAnswers = null;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      long committedBefore =
          KafkaBroker.endOffsets(admin, PERTURBED, IsolationLevel.READ_COMMITTED);
      recovered.countDown();
      // Both jobs checkpointed since their restore: the JobManager's failover must restore newer
      // ones.
      committedAtJobManagerKill =
          TIMINGS.time(
              "the recovered jobs checkpointing, committing with a transaction open",
              () ->
                  Await.until(
                      "both recovered jobs complete a checkpoint, and one commits records of the third part while the sinks have a transaction open",
                      () ->
                          new long[] {
                            KafkaBroker.endOffsets(admin, PERTURBED, IsolationLevel.READ_COMMITTED),
                            KafkaBroker.endOffsets(
                                admin, PERTURBED, IsolationLevel.READ_UNCOMMITTED),
                            flink.rest().latestCompletedCheckpoint(perturbJob),
                            flink.rest().latestCompletedCheckpoint(aggregateJob)
                          },
                      o ->
                          o[0] > committedBefore
                              && o[1] > o[0]
                              && o[2] > perturbCheckpoint
                              && o[3] > aggregateCheckpoint));
      standbyAnswers =
          RestAnswers.poll(URI.create(flink.standby().restAddress() + "/jobs/overview"));
      killedJobManager = flink.killLeader();
    } finally {
      recovered.countDown();
      jobManagerKilled.countDown();
    }
    long killedAt = System.nanoTime();
    int producedAtJobManagerKill = produced.get();
    // Read once the leader is dead, before a new one can lead: no checkpoint completes in between.
    long perturbHaCheckpoint = flink.ha().latestCheckpoint(perturbJob).orElseThrow();
    long aggregateHaCheckpoint = flink.ha().latestCheckpoint(aggregateJob).orElseThrow();
    FlinkCluster.JobManager newLeader =
        TIMINGS.time("the standby JobManager leads", flink::awaitLeader);
    long ledAfter = System.nanoTime() - killedAt;
    assertThat(newLeader.name()).as("the new leader").isNotEqualTo(killedJobManager.name());
    TIMINGS.time(
        "both jobs running again under the new leader",
        () -> {
          flink.rest().awaitRunning(perturbJob);
          flink.rest().awaitRunning(aggregateJob);
          return null;
        });
    long runningAfter = System.nanoTime() - killedAt;
    standbyAnswers.close();
    TIMINGS.note(
        "the standby's REST API (/jobs/overview) after the kill: " + standbyAnswers.changes());
    assertThat(flink.rest().runningJobs())
        .as("the jobs the new leader runs: the same, recovered, not submitted again")
        .containsExactlyInAnyOrder(perturbJob, aggregateJob);
    assertThat(flink.rest().restoredCheckpoint(perturbJob))
        .as("the perturb job restored the last checkpoint in ZooKeeper")
        .isEqualTo(perturbHaCheckpoint);
    assertThat(flink.rest().restoredCheckpoint(aggregateJob))
        .as("the aggregate job restored the last checkpoint in ZooKeeper")
        .isEqualTo(aggregateHaCheckpoint);
    producer.join(KafkaFixture.PATIENCE.toMillis());
    assertThat(producerFailure.get()).as("the producer of the sample").isNull();
    assertThat(inputs).hasSize(stream.size());

    // 6. Exactly once across both kills.
    Map<String, List<KafkaRecord>> all =
        TIMINGS.time(
            "every input committed after the recovery",
            () -> kafka.awaitCommitted(stream.size(), PERTURBED, DEAD));
    PrivacyAssertions.assertPrivacyContract(
        PrivacyConfig.load(config), inputs, all.get(PERTURBED), all.get(DEAD));
    assertThat(all.get(DEAD)).hasSize(stream.size() / (SampleStream.BAD_EVERY + 1));
    assertThat(kafka.readUncommitted(PERTURBED).size())
        .as(
            "the killed attempts' open transactions are in the topic, aborted: those records were perturbed again")
        .isGreaterThan(all.get(PERTURBED).size());

    // 7. Every window's statistics over exactly its records, across the kills, each written once.
    // The aggregate job runs at its defaults (out-of-orderness, allowed lateness, idle timeout):
    // the perturbed partitions keep their raw partitions' order across the kills and the restores,
    // the budget's shuffle by user included (the order stage behind it).
    long stepBack = WindowCounts.largestStepBack(all.get(PERTURBED));
    TIMINGS.note(
        "largest step back in event time within a perturbed partition: " + stepBack + " ms");
    assertThat(stepBack)
        .as("how far a perturbed partition steps back in event time (the raw stream's is 0)")
        .isZero();
    List<TestRecord> movers = SampleStream.watermarkMovers(kafka.partitions(RAW));
    inputs.addAll(kafka.produceRecords(RAW, movers));
    List<String> fields =
        PrivacyConfig.load(config).fields().stream().map(FieldConfig::name).toList();
    Map<String, Long> expected = WindowCounts.ofPerturbed(all.get(PERTURBED), WINDOW_MS, fields);
    Map<String, Long> stats =
        TIMINGS.time(
            "window statistics written",
            () ->
                Await.until(
                    "statistics for the "
                        + expected.size()
                        + " windows, groups and fields of the sample",
                    () -> WindowCounts.ofStats(kafka.readCommitted(STATS)),
                    s -> s.keySet().containsAll(expected.keySet())));
    assertThat(stats).as("each window's count, by window, group and field").isEqualTo(expected);
    assertThat(WindowCounts.updatedLate(kafka.readCommitted(STATS)))
        .as("windows, groups and fields whose statistics were written more than once")
        .isZero();
    List<Prometheus.Sample> afterRestore = Prometheus.scrape(secondMetricsPort);
    assertThat(Prometheus.count(afterRestore, "lateUpdates"))
        .as("the aggregate job's lateUpdates, per subtask")
        .isPositive();
    assertThat(Prometheus.sum(afterRestore, "lateUpdates"))
        .as("window statistics written again for late records")
        .isZero();
    assertThat(Prometheus.sum(afterRestore, "lateRecords"))
        .as("records dropped as too late")
        .isZero();

    // 8. A backlog caught up: the perturb job stopped with a savepoint while the stream goes on,
    //    long enough for the aggregate job's partitions to fall silent past its idle timeout (their
    //    event time then moves on with the wall clock), and resumed from the savepoint. Its backlog
    //    arrives behind the watermark and updates its windows within the default allowed lateness:
    //    lateUpdates rise, lateRecords stay 0, and every window counts all of its records.
    long stoppedAt = System.nanoTime();
    FlinkCluster.CliResult stopped =
        TIMINGS.time(
            "perturb-job stopped with a savepoint",
            () ->
                flink.flink(
                    KafkaFixture.PATIENCE,
                    "stop",
                    "--savepointPath",
                    WORK.resolve("savepoints").toUri().toString(),
                    perturbJob));
    assertThat(stopped.status()).as(stopped.output()).isZero();
    Matcher savepoint = SAVEPOINT.matcher(stopped.output());
    assertThat(savepoint.find()).as(stopped.output()).isTrue();
    List<TestRecord> backlog = SampleStream.backlog(3000, SampleStream.NEXT_DAY + 1000);
    inputs.addAll(kafka.produceRecords(RAW, backlog));
    // A lower bound, not a deadline: the silence must last the idle timeout (30 s) and then some.
    long silentFor = Duration.ofSeconds(45).toNanos() - (System.nanoTime() - stoppedAt);
    if (silentFor > 0) {
      Thread.sleep(silentFor / 1_000_000);
    }
    FlinkCluster.CliResult resumed =
        TIMINGS.time(
            "perturb-job resumed from the savepoint",
            () ->
                flink.flink(
                    KafkaFixture.PATIENCE,
                    "run",
                    "-d",
                    "-s",
                    savepoint.group(1),
                    "-p",
                    Integer.toString(PARALLELISM),
                    JOB_JAR.toString(),
                    "perturb-job",
                    "--config",
                    config.toString(),
                    "--bootstrap-servers",
                    bootstrap,
                    "--checkpoint-interval",
                    "1s"));
    assertThat(resumed.status()).as(resumed.output()).isZero();
    int committedBefore = all.get(PERTURBED).size() + all.get(DEAD).size() + movers.size();
    // Nothing closes these windows but the watermark the pause moved on.
    Map<String, List<KafkaRecord>> caughtUp =
        TIMINGS.time(
            "the backlog perturbed",
            () -> kafka.awaitCommitted(committedBefore + backlog.size(), PERTURBED, DEAD));
    List<KafkaRecord> dayTwo =
        caughtUp.get(PERTURBED).stream()
            .filter(r -> r.valueAsString().contains("\"ts\":1767312"))
            .toList();
    assertThat(dayTwo)
        .as("the backlog and the watermark movers, stamped on the day after the sample")
        .hasSize(backlog.size() + movers.size());
    Map<String, Long> expectedBacklog = WindowCounts.ofPerturbed(dayTwo, WINDOW_MS, fields);
    Map<String, Long> backlogStats;
    try {
      backlogStats =
          TIMINGS.time(
              "the backlog's windows updated",
              () ->
                  Await.until(
                      "statistics of the backlog's "
                          + expectedBacklog.size()
                          + " windows, groups and fields over all their records",
                      () -> WindowCounts.ofStats(kafka.readCommitted(STATS)),
                      st ->
                          expectedBacklog.entrySet().stream()
                              .allMatch(e -> e.getValue().equals(st.get(e.getKey())))));
    } catch (AssertionError e) {
      Map<String, Long> seen =
          new java.util.TreeMap<>(WindowCounts.ofStats(kafka.readCommitted(STATS)));
      seen.keySet().retainAll(expectedBacklog.keySet());
      List<Prometheus.Sample> metrics = Prometheus.scrape(secondMetricsPort);
      throw new AssertionError(
          "the backlog's windows: expected "
              + new java.util.TreeMap<>(expectedBacklog)
              + ", seen "
              + seen
              + "; lateRecords "
              + Prometheus.sum(metrics, "lateRecords")
              + ", lateUpdates "
              + Prometheus.sum(metrics, "lateUpdates")
              + ", windowEstimates "
              + Prometheus.sum(metrics, "windowEstimates"),
          e);
    }
    assertThat(backlogStats).containsAllEntriesOf(expectedBacklog);
    List<Prometheus.Sample> afterBacklog = Prometheus.scrape(secondMetricsPort);
    assertThat(Prometheus.sum(afterBacklog, "lateUpdates"))
        .as("window estimates emitted after the watermark passed them")
        .isPositive();
    assertThat(Prometheus.sum(afterBacklog, "lateRecords"))
        .as("records dropped as too late")
        .isZero();
    TIMINGS.note(
        "backlog: "
            + backlog.size()
            + " records in "
            + expectedBacklog.size() / fields.size()
            + " windows, late updates emitted: "
            + (long) Prometheus.sum(afterBacklog, "lateUpdates"));
    assertThat(WindowCounts.largestStepBack(caughtUp.get(PERTURBED)))
        .as("how far a perturbed partition steps back in event time, the backlog caught up")
        .isZero();

    // 9. SQL through the SQL Gateway, on the same cluster: the perturbed topic read back, committed
    // only.
    long perturbedNow = caughtUp.get(PERTURBED).size();
    List<JsonNode> counted =
        TIMINGS.time(
            "a SQL query through the SQL Gateway",
            () -> {
              SqlGateway gateway = sqlGateway();
              String session = gateway.openSession();
              gateway.execute(
                  session,
                  "ADD JAR '" + FLINK_OPT.resolve("flink-sql-connector-kafka-5.0.0-2.2.jar") + "'");
              gateway.execute(
                  session,
                  "CREATE TABLE perturbed (id STRING, activity STRING) WITH ("
                      + "'connector' = 'kafka', 'topic' = '"
                      + PERTURBED
                      + "', 'properties.bootstrap.servers' = '"
                      + bootstrap
                      + "', "
                      + "'properties.isolation.level' = 'read_committed', 'scan.startup.mode' = 'earliest-offset', "
                      + "'scan.bounded.mode' = 'latest-offset', 'format' = 'json')");
              gateway.execute(session, "SET 'execution.runtime-mode' = 'batch'");
              gateway.execute(session, "SET 'parallelism.default' = '1'");
              return gateway.execute(
                  session, "SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM perturbed");
            });
    assertThat(counted).hasSize(1);
    assertThat(counted.get(0).get(0).asLong())
        .as("perturbed records counted in SQL")
        .isEqualTo(perturbedNow);
    assertThat(counted.get(0).get(1).asLong())
        .as("distinct ids counted in SQL")
        .isEqualTo(perturbedNow);

    // 10. The other way round, bounded: the perturb job through the REST API, the aggregate job
    //    with `flink run` waiting for its end, into topics of their own. This replay spans two
    //    days (the sample, then the movers and the backlog a day later); each perturbed partition
    //    holds its raw partition's records in order, so the aggregation's defaults count every
    //    record of both days (the end of its input fires every window).
    List<String> secondTopics =
        List.of(
            "--perturbed-topic",
            PERTURBED + "-2",
            "--dead-letter-topic",
            DEAD + "-2",
            "--stats-topic",
            STATS + "-2");
    FlinkCluster.CliResult more = ogpm("topics", concat(topicOptions, secondTopics));
    assertThat(more.status()).as(more.output()).isZero();
    TIMINGS.time(
        "a bounded perturb-job through the REST API",
        () -> {
          HttpResponse<String> response =
              flink
                  .rest()
                  .runJar(
                      jarId,
                      PARALLELISM,
                      List.of(
                          "perturb-job",
                          "--bounded",
                          "--config-yaml",
                          inlineYaml(config),
                          "--bootstrap-servers",
                          bootstrap,
                          "--output-topic",
                          PERTURBED + "-2",
                          "--dead-letter-topic",
                          DEAD + "-2",
                          "--group-id",
                          "ogpm-perturb-2",
                          "--transactional-id-prefix",
                          "ogpm-perturb-2",
                          "--checkpoint-interval",
                          "1s"));
          assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
          String id = JSON.readTree(response.body()).get("jobid").asText();
          flink.rest().awaitFinished(id);
          return id;
        });
    List<KafkaRecord> perturbed2 = kafka.readCommitted(PERTURBED + "-2");
    PrivacyAssertions.assertPrivacyContract(
        PrivacyConfig.load(config), inputs, perturbed2, kafka.readCommitted(DEAD + "-2"));
    FlinkCluster.CliResult boundedAggregate =
        TIMINGS.time(
            "a bounded aggregate-job with flink run, attached",
            () ->
                flink.flink(
                    KafkaFixture.PATIENCE,
                    "run",
                    "-p",
                    Integer.toString(PARALLELISM),
                    JOB_JAR.toString(),
                    "aggregate-job",
                    "--bounded",
                    "--config",
                    config.toString(),
                    "--bootstrap-servers",
                    bootstrap,
                    "--input-topic",
                    PERTURBED + "-2",
                    "--output-topic",
                    STATS + "-2",
                    "--group-id",
                    "ogpm-aggregate-2",
                    "--transactional-id-prefix",
                    "ogpm-aggregate-2",
                    "--group-by",
                    "activity",
                    "--time-field",
                    "ts",
                    "--window",
                    "10s",
                    "--checkpoint-interval",
                    "1s"));
    assertThat(boundedAggregate.status()).as(boundedAggregate.output()).isZero();
    assertThat(WindowCounts.ofStats(kafka.readCommitted(STATS + "-2")))
        .as("the bounded aggregate job's counts: every window, the last one included")
        .isEqualTo(WindowCounts.ofPerturbed(perturbed2, WINDOW_MS, fields));

    // 11. Logs an operator can read: with the shipped logging, not one pendingCommittables or
    //    currentSendTime name collision (Flink's Kafka committer repeats the first at every
    //    checkpoint, its writer the second at every start, without it); with SASL
    //    off for ZooKeeper, no failed authentication to it; with managed memory for RocksDB's
    //    write buffers, no warning that it would flush constantly (one per state, per restore).
    for (String process :
        List.of("jobmanager-1", "jobmanager-2", "taskmanager-1", "taskmanager-2", "flink-client")) {
      String log = Files.readString(flink.logs().resolve(process + ".log"), StandardCharsets.UTF_8);
      assertThat(log)
          .as(process + ".log")
          .contains("INFO")
          .doesNotContain("name 'pendingCommittables'")
          .doesNotContain("name 'currentSendTime'")
          .doesNotContain("SASL configuration failed")
          .doesNotContain("Authentication failed")
          .doesNotContain("RocksDBStateBackend performance will be poor");
    }

    scraped.stream()
        .filter(x -> x.name().endsWith("_recordsPerturbed"))
        .forEach(
            x ->
                TIMINGS.note(
                    "scraped "
                        + x.name()
                        + " "
                        + x.labels()
                            .replaceAll(
                                ".*(operator_name=\"[^\"]*\").*(subtask_index=\"[^\"]*\").*",
                                "$1,$2")
                        + " "
                        + x.value()));
    TIMINGS.note(
        String.format(
            "killed with %d of %d inputs produced, %d perturbed-topic offsets committed and %d written",
            producedAtKill, stream.size(), committedAtKill[0], committedAtKill[1]));
    TIMINGS.note(
        "restored checkpoints: perturb "
            + perturbCheckpoint
            + ", aggregate "
            + aggregateCheckpoint);
    TIMINGS.note(
        String.format(
            "%s killed with %d of %d inputs produced, %d perturbed-topic offsets committed and %d written;"
                + " %s led %.1f s after the kill, both jobs ran again after %.1f s, restored checkpoints: perturb %d, aggregate %d",
            killedJobManager.name(),
            producedAtJobManagerKill,
            stream.size(),
            committedAtJobManagerKill[0],
            committedAtJobManagerKill[1],
            newLeader.name(),
            ledAfter / 1e9,
            runningAfter / 1e9,
            perturbHaCheckpoint,
            aggregateHaCheckpoint));
  }

  /**
   * docs/sql.md's Flink SQL example, run through the SQL Gateway against this cluster as a user
   * pastes it into a session: its statements in order, with only the broker's address and the job
   * jar's path replaced (the jar brings the functions and the Kafka connector; nothing is added to
   * the session). The sample's readings, in time order, go through its perturbing {@code INSERT
   * INTO}; every perturbed value is on its mechanism's grid and nothing undeclared is written; its
   * windowed {@code INSERT INTO} writes, for every window and activity of the sample, bit for bit
   * the estimates of the estimators the DataStream aggregation uses, over the same perturbed
   * records ({@link SqlExampleEstimates}). Both streaming jobs are cancelled at the end.
   */
  @Test
  @Order(2)
  void theReadmeSqlExampleRunsThroughTheSqlGateway() throws Exception {
    List<String> statements = ReadmeSql.statements(README, JOB_JAR, kafka.bootstrapServers());
    String raw = "ogpm.sql.raw";
    String perturbedTopic = "ogpm.sql.perturbed";
    String statsTopic = "ogpm.sql.stats";
    for (String topic : List.of(raw, perturbedTopic, statsTopic)) {
      kafka.createTopic(topic, 1, Map.of());
    }
    List<String> sample =
        new ArrayList<>(
            Files.readAllLines(
                SAMPLE_DIR.resolve("motionsense-dws1.jsonl"), StandardCharsets.UTF_8));
    sample.sort(Comparator.comparingLong(StandaloneClusterIT::timeOf));
    kafka.produceJson(raw, sample);

    // The streaming jobs of the test before hold four of the TaskManager's six slots; the example's
    // two jobs need two each at the cluster's default parallelism.
    flink.rest().runningJobs().forEach(flink.rest()::cancel);
    SqlGateway gateway = sqlGateway();
    String session = gateway.openSession();
    List<String> jobs = new ArrayList<>();
    for (String statement : statements) {
      List<JsonNode> result =
          TIMINGS.time(
              "README SQL: " + statement.lines().findFirst().orElse(""),
              () -> gateway.execute(session, statement));
      if (statement.startsWith("INSERT INTO")) {
        assertThat(result).as("the job id of %s", statement).hasSize(1);
        jobs.add(result.get(0).get(0).asText());
      }
    }
    assertThat(jobs).hasSize(2);
    try {
      List<KafkaRecord> perturbed =
          TIMINGS.time(
              "README SQL: the sample perturbed",
              () -> kafka.awaitCommitted(perturbedTopic, sample.size()));
      PrivacyAssertions.assertNoUndeclaredField(SQL_EXAMPLE_CONFIG, perturbed);
      PrivacyAssertions.assertPerturbedValuesOnGrid(SQL_EXAMPLE_CONFIG, perturbed);
      // One reading a minute later moves event time past every window of the sample.
      long last = timeOf(sample.get(sample.size() - 1));
      kafka.produceJson(
          raw,
          "{\"id\":\"closer\",\"ts\":"
              + (last + 60_000)
              + ",\"activity\":\"downstairs\","
              + "\"userAcceleration\":{\"x\":0.0},\"attitude\":{\"roll\":0.0}}");

      List<JsonNode> perturbedRows = new ArrayList<>();
      for (KafkaRecord r : perturbed) {
        perturbedRows.add(JSON.readTree(r.value()));
      }
      Map<String, SqlExampleEstimates.Window> expected = SqlExampleEstimates.of(perturbedRows);
      List<KafkaRecord> windows =
          TIMINGS.time(
              "README SQL: every window's estimates",
              () -> kafka.awaitCommitted(statsTopic, expected.size()));
      Map<String, JsonNode> rows = new java.util.HashMap<>();
      for (KafkaRecord w : windows) {
        JsonNode row = JSON.readTree(w.value());
        long start =
            java.time.LocalDateTime.parse(row.get("window_start").asText().replace(' ', 'T'))
                .toInstant(java.time.ZoneOffset.UTC)
                .toEpochMilli();
        assertThat(rows.put(start + "/" + row.get("activity").asText(), row))
            .as("one row per window and activity")
            .isNull();
      }
      assertThat(rows.keySet())
          .as("the windows and activities of the sample")
          .isEqualTo(expected.keySet());
      expected.forEach(
          (window, estimates) -> assertSameEstimates(window, rows.get(window), estimates));
    } finally {
      jobs.forEach(flink.rest()::cancel);
    }
  }

  /**
   * docs/sql.md's SQL example's perturbed table, as a configuration (for the privacy assertions).
   */
  static final PrivacyConfig SQL_EXAMPLE_CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [id, ts, activity]
      fields:
        - {name: accel_x, min: -3.0, max: 3.0, epsilon: 1.0}
        - {name: roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 1.0}
      """);

  private static void assertSameEstimates(
      String window, JsonNode row, SqlExampleEstimates.Window expected) {
    var mean = expected.mean();
    JsonNode m = row.get("accel_x");
    assertThat(m.get("n").asLong()).as("%s: n", window).isEqualTo(mean.count());
    assertThat(m.get("mean").asDouble())
        .as("%s: mean", window)
        .isEqualTo(mean.linear().mean().estimate());
    assertThat(number(m, "mean_lower"))
        .as("%s: mean_lower", window)
        .isEqualTo(mean.linear().mean().lower());
    assertThat(number(m, "mean_upper"))
        .as("%s: mean_upper", window)
        .isEqualTo(mean.linear().mean().upper());
    var histogram = expected.histogram();
    JsonNode h = row.get("accel_x_histogram");
    assertThat(h.get("n").asLong()).as("%s: histogram n", window).isEqualTo(histogram.count());
    assertThat(doubles(h.get("raw_histogram")))
        .as("%s: raw histogram", window)
        .containsExactly(histogram.rawHistogram());
    if (histogram.reconstructedHistogram() != null) {
      assertThat(doubles(h.get("reconstructed_histogram")))
          .as("%s: EM histogram", window)
          .containsExactly(histogram.reconstructedHistogram());
    }
    assertThat(h.get("em_iterations").asInt())
        .as("%s: EM iterations", window)
        .isEqualTo(histogram.iterations());
    assertThat(doubles(h.get("cdf_lower")))
        .as("%s: the cumulative band's lower end", window)
        .containsExactly(histogram.distribution().cdf().lower());
    assertThat(doubles(h.get("cdf_upper")))
        .as("%s: the cumulative band's upper end", window)
        .containsExactly(histogram.distribution().cdf().upper());
    // The median, of the default quantiles 0.1, 0.5 and 0.9.
    var median = histogram.distribution().quantiles().get(1);
    assertThat(median.probability()).isEqualTo(0.5);
    JsonNode q = row.get("accel_x_median");
    assertThat(q.get("quantile").asDouble())
        .as("%s: median", window)
        .isEqualTo(median.interval().estimate());
    assertThat(q.get("quantile_lower").asDouble()).isEqualTo(median.interval().lower());
    assertThat(q.get("quantile_upper").asDouble()).isEqualTo(median.interval().upper());
    var roll = expected.roll();
    JsonNode c = row.get("roll");
    assertThat(c.get("n").asLong()).as("%s: roll n", window).isEqualTo(roll.count());
    assertThat(c.get("circular_mean").asDouble())
        .as("%s: circular mean", window)
        .isEqualTo(roll.circular().direction().estimate());
    assertThat(number(c, "circular_mean_lower")).isEqualTo(roll.circular().direction().lower());
    assertThat(number(c, "circular_mean_upper")).isEqualTo(roll.circular().direction().upper());
    assertThat(c.get("resultant_length").asDouble())
        .isEqualTo(roll.circular().resultantLength().estimate());
  }

  /** A JSON number, or NaN for null (SQL's NULL for the estimator's NaN). */
  private static double number(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? Double.NaN : v.asDouble();
  }

  private static double[] doubles(JsonNode array) {
    double[] d = new double[array.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = array.get(i).asDouble();
    }
    return d;
  }

  private static long timeOf(String json) {
    try {
      return JSON.readTree(json).get("ts").asLong();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Runs {@code java -jar ogpm.jar COMMAND OPTIONS}, as a user runs the command line. */
  static FlinkCluster.CliResult ogpm(String command, List<String> options) {
    List<String> java =
        new ArrayList<>(
            List.of(JavaCommand.java(), "-Xmx256m", "-jar", CLI_JAR.toString(), command));
    java.addAll(options);
    Path log = WORK.resolve("ogpm-" + command + "-" + System.nanoTime() + ".out");
    int status = PROCESSES.run("ogpm " + command, java, Map.of(), log, KafkaFixture.PATIENCE);
    try {
      return new FlinkCluster.CliResult(status, Files.readString(log, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The configuration as one line for {@code --config-yaml}: JSON, which YAML reads as flow style.
   * Through the REST API, {@code main} runs in the JobManager, where the submitter's files are not.
   */
  static String inlineYaml(Path config) throws IOException {
    return JSON.writeValueAsString(new YAMLMapper().readTree(config.toFile()));
  }

  /**
   * Waits until the perturbed topic's committed end passes {@code committedBefore} while records
   * beyond it are written, uncommitted: a checkpoint committed with the next transaction open.
   * Returns the committed and the written end.
   */
  static long[] awaitCommitWithTransactionOpen(Admin admin, long committedBefore, String what) {
    return Await.until(
        what,
        () ->
            new long[] {
              KafkaBroker.endOffsets(admin, PERTURBED, IsolationLevel.READ_COMMITTED),
              KafkaBroker.endOffsets(admin, PERTURBED, IsolationLevel.READ_UNCOMMITTED)
            },
        o -> o[0] > committedBefore && o[1] > o[0]);
  }

  /** Produces in chunks of {@code size}, a tenth of a second apart: a stream, not one burst. */
  static void produceInChunks(
      List<TestRecord> records, int size, List<KafkaRecord> landed, AtomicInteger produced)
      throws InterruptedException {
    for (int i = 0; i < records.size(); i += size) {
      List<TestRecord> chunk = records.subList(i, Math.min(records.size(), i + size));
      landed.addAll(kafka.produceRecords(RAW, chunk));
      produced.addAndGet(chunk.size());
      Thread.sleep(100);
    }
  }

  static <T> List<T> concat(List<T> a, List<T> b) {
    return Stream.concat(a.stream(), b.stream()).toList();
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}
