package io.ogpm.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Flink 2.2 standalone session cluster of separate JVMs, highly available with ZooKeeper, started
 * the way Flink's scripts start one, without the scripts (they are in flink-dist, which Maven
 * Central does not serve):
 *
 * <ul>
 *   <li>{@code lib/}: Flink's jars from Maven Central (see this module's POM);
 *   <li>{@code conf/config.yaml}: {@link #settings};
 *   <li>the JobManagers, a leader and standbys (what {@code conf/masters} lists, each with its REST
 *       port, for {@code start-cluster.sh}): {@code StandaloneSessionClusterEntrypoint}; ZooKeeper
 *       elects the leader ({@link FlinkHaState} reads it), and every client (TaskManagers, the
 *       command line, the SQL Gateway, {@link #rest()}) finds the leader there;
 *   <li>the TaskManagers: {@code TaskManagerRunner}, each with the JVM options and dynamic settings
 *       that {@code BashJavaUtils} computes from the configuration (what {@code jobmanager.sh} and
 *       {@code taskmanager.sh} do: a TaskManager refuses to start without its memory settings), and
 *       the {@code --add-opens} flags of Flink's default {@code env.java.opts.all} (Kryo and
 *       Flink's reflection need them on Java 17);
 *   <li>the {@code flink} command line: {@code CliFrontend} with {@code FLINK_CONF_DIR}.
 * </ul>
 */
final class FlinkCluster {
  static final String JOB_MANAGER =
      "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  static final String TASK_MANAGER = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
  static final String CLI = "org.apache.flink.client.cli.CliFrontend";
  static final String BASH_JAVA_UTILS = "org.apache.flink.runtime.util.bash.BashJavaUtils";
  static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";
  static final ObjectMapper JSON = new ObjectMapper();

  private final ManagedProcesses processes;
  private final Path lib;
  private final Path conf;
  private final Path logs;
  private final List<String> opens;
  private final FlinkHaState ha;
  private final List<JobManager> jobManagers = new ArrayList<>();
  private JobManager leader;

  private FlinkCluster(
      ManagedProcesses processes, Path lib, Path dir, List<String> opens, FlinkHaState ha) {
    this.processes = processes;
    this.lib = lib;
    this.conf = dir.resolve("conf");
    this.logs = dir.resolve("log");
    this.opens = opens;
    this.ha = ha;
  }

  /** A JobManager's process and the port of its REST API (and web UI). */
  record JobManager(String name, ManagedProcesses.ManagedProcess process, int restPort) {
    /** Its REST API's address. */
    String restAddress() {
      return "http://localhost:" + restPort;
    }

    FlinkRest rest() {
      return new FlinkRest(URI.create(restAddress()));
    }
  }

  /**
   * ZooKeeper's root for Flink ({@code high-availability.zookeeper.path.root}, Flink's default).
   */
  static final String HA_ROOT = "/flink";

  /**
   * The cluster's id: its znodes are under {@link #HA_ROOT}{@code /ogpm-cluster-it}, its files
   * under the storage dir's.
   */
  static final String CLUSTER_ID = "ogpm-cluster-it";

  /**
   * How long ZooKeeper keeps the session of a JobManager that stopped answering (Flink's default:
   * 60 s, which a ZooKeeper ticking every 2 s caps at 40). A killed leader's session must expire
   * before a standby can lead, so this is most of a failover; shorter would risk a busy machine's
   * pause costing a leader its leadership.
   */
  static final String HA_SESSION_TIMEOUT = "15 s";

  /**
   * The cluster's configuration, what an operator puts in {@code config.yaml}. Beyond addresses and
   * memory: high availability with ZooKeeper; checkpoints on the file system; the Prometheus
   * reporter (each process is given its own port); heartbeats every 2 s, so a TaskManager killed
   * with SIGKILL is noticed within seconds (its RPCs fail, and two failed heartbeats mark it gone)
   * rather than the default 20. No JobManager address or port: each JobManager is given its own
   * REST and RPC ports ({@link #startJobManager}), and clients find the leader in ZooKeeper.
   */
  static Map<String, String> settings(Path dir, String zooKeeperQuorum, String opens) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("high-availability.type", "zookeeper");
    s.put("high-availability.zookeeper.quorum", zooKeeperQuorum);
    s.put("high-availability.zookeeper.path.root", HA_ROOT);
    s.put("high-availability.cluster-id", CLUSTER_ID);
    // Job graphs, jars and completed checkpoints' metadata: ZooKeeper holds pointers to these
    // files.
    s.put("high-availability.storageDir", dir.resolve("ha").toUri().toString());
    s.put("high-availability.zookeeper.client.session-timeout", HA_SESSION_TIMEOUT);
    // A ZooKeeper without Kerberos: else every Flink process tries SASL first, and logs a WARN
    // (SASL configuration failed) and an ERROR (Authentication failed) when it connects.
    s.put("zookeeper.sasl.disable", "true");
    s.put("jobmanager.rpc.address", "localhost");
    s.put("jobmanager.bind-host", "localhost");
    s.put("taskmanager.bind-host", "localhost");
    s.put("taskmanager.host", "localhost");
    s.put("rest.address", "localhost");
    s.put("rest.bind-address", "localhost");
    s.put("jobmanager.memory.process.size", "1024m");
    s.put("taskmanager.memory.process.size", "1536m");
    // RocksDB's block cache and write buffers, shared by the six slots: about 60 MiB a slot. With
    // 0.1 (enough for the heap backend) each state's write buffers would be below one arena block,
    // and RocksDB would warn at every state's creation that it would flush constantly.
    s.put("taskmanager.memory.managed.fraction", "0.35");
    // Two jobs at parallelism 2, and room for a SQL query through the gateway.
    s.put("taskmanager.numberOfTaskSlots", "6");
    s.put("parallelism.default", "2");
    // RocksDB with incremental checkpoints as the Kubernetes deployment sets it: the TaskManager
    // kill restores from incremental checkpoints, the stop with savepoint writes the canonical
    // format.
    s.put("state.backend.type", "rocksdb");
    s.put("execution.checkpointing.incremental", "true");
    s.put("state.backend.rocksdb.use-bloom-filter", "true");
    s.put("state.backend.rocksdb.memory.partitioned-index-filters", "true");
    s.put("execution.checkpointing.storage", "filesystem");
    s.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
    s.put("heartbeat.interval", "2s");
    s.put(
        "metrics.reporter.prom.factory.class",
        "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
    s.put("io.tmp.dirs", dir.resolve("tmp").toString());
    s.put("web.upload.dir", dir.resolve("web-upload").toString());
    // What flink-dist's scripts give every Flink JVM; recorded here as an operator would, passed
    // below.
    s.put("env.java.opts.all", opens);
    return s;
  }

  /**
   * Writes {@code conf/} under {@code dir} for a cluster whose leader ZooKeeper elects; starts
   * nothing.
   */
  static FlinkCluster configure(
      ManagedProcesses processes,
      Path lib,
      Path dir,
      String opens,
      Path log4jConsole,
      ZooKeeperServer zooKeeper) {
    FlinkCluster cluster =
        new FlinkCluster(
            processes,
            lib,
            dir,
            Arrays.asList(opens.trim().split("\\s+")),
            new FlinkHaState(zooKeeper.connectString(), HA_ROOT + "/" + CLUSTER_ID));
    Map<String, String> settings = settings(dir, zooKeeper.connectString(), opens);
    try {
      Files.createDirectories(cluster.conf);
      Files.createDirectories(cluster.logs);
      Files.createDirectories(dir.resolve("tmp"));
      Files.createDirectories(dir.resolve("web-upload"));
      List<String> yaml = new ArrayList<>();
      for (Map.Entry<String, String> e : settings.entrySet()) {
        String v = e.getValue();
        yaml.add(
            e.getKey()
                + ": "
                + (v.contains(" ") || v.contains(":") ? JSON.writeValueAsString(v) : v));
      }
      Files.write(cluster.conf.resolve("config.yaml"), yaml, StandardCharsets.UTF_8);
      // The JobManager's and TaskManagers' logging is the one the Compose and Kubernetes clusters
      // ship (docker/log4j-console.properties), with Kafka's clients at WARN: their INFO lines
      // would be most of the logs a failure prints.
      String log4j =
          Files.readString(log4jConsole, StandardCharsets.UTF_8) + "\nlogger.kafka.level = WARN\n";
      Files.writeString(cluster.conf.resolve("log4j.properties"), log4j, StandardCharsets.UTF_8);
      // The command line's log goes to its file only: its console is the output the tests read.
      String cli =
          String.join(
              "\n",
              "rootLogger.level = INFO",
              "rootLogger.appenderRef.file.ref = file",
              "appender.file.name = file",
              "appender.file.type = File",
              "appender.file.fileName = ${sys:log.file}",
              "appender.file.layout.type = PatternLayout",
              "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
              "logger.kafka.name = org.apache.kafka",
              "logger.kafka.level = WARN",
              "");
      Files.writeString(cluster.conf.resolve("log4j-cli.properties"), cli, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return cluster;
  }

  /** The configuration directory ({@code FLINK_CONF_DIR}). */
  Path conf() {
    return conf;
  }

  /** Where the processes' logs go. */
  Path logs() {
    return logs;
  }

  /** The leading JobManager's REST API (the leader {@link #awaitLeader} last found). */
  FlinkRest rest() {
    if (leader == null) {
      throw new IllegalStateException(
          "no JobManager is known to lead: the leader was killed, and awaitLeader() not called since");
    }
    return leader.rest();
  }

  /** What the cluster keeps in ZooKeeper. */
  FlinkHaState ha() {
    return ha;
  }

  /**
   * Starts a JobManager and returns once its REST API answers: the first one started leads, the
   * next ones stand by (their REST API answers once they know the leader, whose dispatcher it
   * serves). Each has its own REST port, RPC port and Prometheus port, as each host of {@code
   * conf/masters} would.
   */
  JobManager startJobManager(String name) {
    Resources resources = resources("GET_JM_RESOURCE_PARAMS", name);
    List<String> command = java(resources.jvmOptions(), name);
    command.add(JOB_MANAGER);
    command.addAll(List.of("--configDir", conf.toString()));
    command.addAll(resources.dynamicSettings());
    int restPort = Ports.free();
    command.addAll(
        List.of(
            "-D",
            "rest.port=" + restPort,
            "-D",
            "high-availability.jobmanager.port=" + Ports.free(),
            "-D",
            "metrics.reporter.prom.port=" + Ports.free()));
    JobManager jobManager =
        new JobManager(
            name,
            processes.start(
                name, command, Map.of(), logs.resolve(name + ".out"), logs.resolve(name + ".log")),
            restPort);
    jobManagers.add(jobManager);
    Await.until(
        name + "'s REST API answers at " + jobManager.restAddress(),
        () -> {
          requireAlive(jobManager.process());
          return FlinkRest.status(URI.create(jobManager.restAddress() + "/overview"));
        },
        s -> s == 200);
    awaitLeader();
    return jobManager;
  }

  /** A live JobManager that does not lead (the first started, if several). */
  JobManager standby() {
    return jobManagers.stream()
        .filter(j -> j != leader && j.process().alive())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no standby JobManager runs"));
  }

  /**
   * {@code kill -9} to the leading JobManager: no goodbye to ZooKeeper, whose session for it lives
   * on until its timeout. Returns the JobManager killed.
   */
  JobManager killLeader() {
    JobManager killed = leader;
    leader = null;
    killed.process().kill();
    return killed;
  }

  /**
   * Waits until ZooKeeper names a live JobManager of this cluster as the leader and its REST API
   * serves (a new leader's answers 503 until its dispatcher has taken over), and returns it.
   */
  JobManager awaitLeader() {
    JobManager elected =
        Await.until(
                "a live JobManager leads (its REST port in ZooKeeper's rest_server leader node)",
                () -> {
                  // The leader publishes rest.address resolved: http://127.0.0.1:PORT here. The
                  // ports tell the JobManagers apart.
                  int port = ha.leaderRestAddress().map(a -> URI.create(a).getPort()).orElse(-1);
                  return jobManagers.stream()
                      .filter(j -> j.restPort() == port && j.process().alive())
                      .findFirst();
                },
                java.util.Optional::isPresent)
            .orElseThrow();
    Await.until(
        elected.name() + "'s REST API serves as the leader",
        () -> {
          requireAlive(elected.process());
          return FlinkRest.status(URI.create(elected.restAddress() + "/overview"));
        },
        s -> s == 200);
    leader = elected;
    return leader;
  }

  /**
   * Starts a TaskManager whose Prometheus reporter listens on {@code metricsPort}, and returns once
   * the JobManager counts {@code expectedTaskManagers} of them.
   */
  ManagedProcesses.ManagedProcess startTaskManager(
      String name, int metricsPort, int expectedTaskManagers) {
    Resources resources = resources("GET_TM_RESOURCE_PARAMS", name);
    List<String> command = java(resources.jvmOptions(), name);
    command.add(TASK_MANAGER);
    command.addAll(List.of("--configDir", conf.toString()));
    command.addAll(resources.dynamicSettings());
    command.addAll(List.of("-D", "metrics.reporter.prom.port=" + metricsPort));
    ManagedProcesses.ManagedProcess tm =
        processes.start(
            name, command, Map.of(), logs.resolve(name + ".out"), logs.resolve(name + ".log"));
    Await.until(
        expectedTaskManagers + " TaskManager(s) registered",
        () -> {
          requireAlive(tm);
          return taskManagers();
        },
        n -> n == expectedTaskManagers);
    return tm;
  }

  /** The TaskManagers the JobManager counts. */
  int taskManagers() {
    return rest().getJson("/overview").path("taskmanagers").asInt(-1);
  }

  /** The result of the {@code flink} command line. */
  record CliResult(int status, String output) {}

  /** Runs {@code flink ARGS} (the command line, with this cluster's {@code conf/}) to its end. */
  CliResult flink(Duration patience, String... args) {
    Path log = logs.resolve("flink-cli-" + System.nanoTime() + ".out");
    List<String> command = java(List.of("-Xmx512m"), "flink-client");
    command.add(CLI);
    command.addAll(List.of(args));
    int status =
        processes.run(
            "flink " + String.join(" ", args),
            command,
            Map.of("FLINK_CONF_DIR", conf.toString()),
            log,
            patience);
    try {
      return new CliResult(status, Files.readString(log, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A process's JVM options and its dynamic settings ({@code -D key=value ...}). */
  record Resources(List<String> jvmOptions, List<String> dynamicSettings) {}

  /**
   * What {@code BashJavaUtils} computes for a process from the configuration: JVM options (heap,
   * direct and metaspace limits) and dynamic settings ({@code -D key=value}, the memory budget).
   * Like Flink's scripts, takes the last two result lines.
   */
  private Resources resources(String command, String name) {
    List<String> java =
        new ArrayList<>(
            List.of(
                JavaCommand.java(),
                "-Xmx256m",
                "-cp",
                lib + "/*",
                "-Dlog4j.configurationFile=" + conf.resolve("log4j-cli.properties").toUri(),
                "-Dlog.file=" + logs.resolve(name + "-bash-java-utils.log"),
                BASH_JAVA_UTILS,
                command,
                "--configDir",
                conf.toString()));
    Path log = logs.resolve(name + "-resources.out");
    int status =
        processes.run("BashJavaUtils " + command, java, Map.of(), log, Duration.ofMinutes(2));
    List<String> results;
    try {
      results =
          Files.readAllLines(log, StandardCharsets.UTF_8).stream()
              .filter(l -> l.startsWith(RESULT_PREFIX))
              .map(l -> l.substring(RESULT_PREFIX.length()).trim())
              .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (status != 0 || results.size() < 2) {
      throw new AssertionError(
          "BashJavaUtils "
              + command
              + " exited with "
              + status
              + " and "
              + results.size()
              + " result lines; see "
              + log);
    }
    return new Resources(
        Arrays.asList(results.get(results.size() - 2).split("\\s+")),
        Arrays.asList(results.get(results.size() - 1).split("\\s+")));
  }

  /**
   * {@code java} with these JVM options, Flink's opens, {@code lib/*} (and {@code extraClassPath})
   * and the logging settings of Flink's scripts; the main class and its arguments follow.
   */
  List<String> java(List<String> jvmOptions, String name, Path... extraClassPath) {
    List<String> command = new ArrayList<>();
    command.add(JavaCommand.java());
    command.addAll(jvmOptions);
    command.addAll(opens);
    StringBuilder classPath = new StringBuilder(lib + "/*");
    for (Path p : extraClassPath) {
      classPath.append(java.io.File.pathSeparator).append(p);
    }
    command.addAll(
        List.of(
            "-cp",
            classPath.toString(),
            "-Dlog.file=" + logs.resolve(name + ".log"),
            "-Dlog4j.configurationFile="
                + conf.resolve(
                        name.equals("flink-client") ? "log4j-cli.properties" : "log4j.properties")
                    .toUri()));
    return command;
  }

  static void requireAlive(ManagedProcesses.ManagedProcess p) {
    if (!p.alive()) {
      throw new AssertionError(
          p.name()
              + " exited with "
              + p.process().exitValue()
              + "; its output ends with:\n"
              + p.tail(40));
    }
  }
}
