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
 * A Flink 2.2 standalone session cluster of separate JVMs, started the way Flink's scripts start
 * one, without the scripts (they are in flink-dist, which Maven Central does not serve):
 *
 * <ul>
 *   <li>{@code lib/}: Flink's jars from Maven Central (see this module's POM);
 *   <li>{@code conf/config.yaml}: {@link #settings};
 *   <li>the JobManager: {@code StandaloneSessionClusterEntrypoint}, the TaskManagers: {@code
 *       TaskManagerRunner}, each with the JVM options and dynamic settings that {@code
 *       BashJavaUtils} computes from the configuration (what {@code jobmanager.sh} and {@code
 *       taskmanager.sh} do: a TaskManager refuses to start without its memory settings), and the
 *       {@code --add-opens} flags of Flink's default {@code env.java.opts.all} (Kryo and Flink's
 *       reflection need them on Java 17);
 *   <li>the {@code flink} command line: {@code CliFrontend} with {@code FLINK_CONF_DIR}.
 * </ul>
 */
final class FlinkCluster {
  static final String JOB_MANAGER = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
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
  private final int restPort;
  private ManagedProcesses.ManagedProcess jobManager;

  private FlinkCluster(ManagedProcesses processes, Path lib, Path dir, List<String> opens, int restPort) {
    this.processes = processes;
    this.lib = lib;
    this.conf = dir.resolve("conf");
    this.logs = dir.resolve("log");
    this.opens = opens;
    this.restPort = restPort;
  }

  /**
   * The cluster's configuration, what an operator puts in {@code config.yaml}. Beyond addresses
   * and memory: checkpoints on the file system; the Prometheus reporter (each process is given its
   * own port); heartbeats every 2 s, so a TaskManager killed with SIGKILL is noticed within
   * seconds (its RPCs fail, and two failed heartbeats mark it gone) rather than the default 20.
   */
  static Map<String, String> settings(Path dir, int rpcPort, int restPort, int jobManagerMetricsPort, String opens) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("jobmanager.rpc.address", "localhost");
    s.put("jobmanager.rpc.port", Integer.toString(rpcPort));
    s.put("jobmanager.bind-host", "localhost");
    s.put("taskmanager.bind-host", "localhost");
    s.put("taskmanager.host", "localhost");
    s.put("rest.address", "localhost");
    s.put("rest.bind-address", "localhost");
    s.put("rest.port", Integer.toString(restPort));
    s.put("jobmanager.memory.process.size", "1024m");
    s.put("taskmanager.memory.process.size", "1536m");
    // The jobs keep their state on the heap (hashmap backend): little managed memory is needed.
    s.put("taskmanager.memory.managed.fraction", "0.1");
    // Two jobs at parallelism 2, and room for a SQL query through the gateway.
    s.put("taskmanager.numberOfTaskSlots", "6");
    s.put("parallelism.default", "2");
    // RocksDB with incremental checkpoints as the Kubernetes deployment sets it: the TaskManager kill
    // restores from incremental checkpoints, the stop with savepoint writes the canonical format.
    s.put("state.backend.type", "rocksdb");
    s.put("execution.checkpointing.incremental", "true");
    s.put("state.backend.rocksdb.use-bloom-filter", "true");
    s.put("state.backend.rocksdb.memory.partitioned-index-filters", "true");
    s.put("execution.checkpointing.storage", "filesystem");
    s.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
    s.put("heartbeat.interval", "2s");
    s.put("metrics.reporter.prom.factory.class", "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
    s.put("metrics.reporter.prom.port", Integer.toString(jobManagerMetricsPort));
    s.put("io.tmp.dirs", dir.resolve("tmp").toString());
    s.put("web.upload.dir", dir.resolve("web-upload").toString());
    // What flink-dist's scripts give every Flink JVM; recorded here as an operator would, passed below.
    s.put("env.java.opts.all", opens);
    return s;
  }

  /** Writes {@code conf/} under {@code dir}; starts nothing. */
  static FlinkCluster configure(ManagedProcesses processes, Path lib, Path dir, String opens, Path log4jConsole) {
    int restPort = Ports.free();
    FlinkCluster cluster = new FlinkCluster(processes, lib, dir, Arrays.asList(opens.trim().split("\\s+")), restPort);
    Map<String, String> settings = settings(dir, Ports.free(), restPort, Ports.free(), opens);
    try {
      Files.createDirectories(cluster.conf);
      Files.createDirectories(cluster.logs);
      Files.createDirectories(dir.resolve("tmp"));
      Files.createDirectories(dir.resolve("web-upload"));
      List<String> yaml = new ArrayList<>();
      for (Map.Entry<String, String> e : settings.entrySet()) {
        String v = e.getValue();
        yaml.add(e.getKey() + ": " + (v.contains(" ") || v.contains(":") ? JSON.writeValueAsString(v) : v));
      }
      Files.write(cluster.conf.resolve("config.yaml"), yaml, StandardCharsets.UTF_8);
      // The JobManager's and TaskManagers' logging is the one the Compose and Kubernetes clusters
      // ship (docker/log4j-console.properties), with Kafka's clients at WARN: their INFO lines
      // would be most of the logs a failure prints.
      String log4j = Files.readString(log4jConsole, StandardCharsets.UTF_8) + "\nlogger.kafka.level = WARN\n";
      Files.writeString(cluster.conf.resolve("log4j.properties"), log4j, StandardCharsets.UTF_8);
      // The command line's log goes to its file only: its console is the output the tests read.
      String cli = String.join("\n",
          "rootLogger.level = INFO",
          "rootLogger.appenderRef.file.ref = file",
          "appender.file.name = file",
          "appender.file.type = File",
          "appender.file.fileName = ${sys:log.file}",
          "appender.file.layout.type = PatternLayout",
          "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
          "logger.kafka.name = org.apache.kafka",
          "logger.kafka.level = WARN", "");
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

  /** The JobManager's REST API. */
  FlinkRest rest() {
    return new FlinkRest(URI.create("http://localhost:" + restPort));
  }

  /** Starts the JobManager and returns once its REST API answers. */
  void startJobManager() {
    Resources resources = resources("GET_JM_RESOURCE_PARAMS", "jobmanager");
    List<String> command = java(resources.jvmOptions(), "jobmanager");
    command.add(JOB_MANAGER);
    command.addAll(List.of("--configDir", conf.toString()));
    command.addAll(resources.dynamicSettings());
    jobManager = processes.start("jobmanager", command, Map.of(), logs.resolve("jobmanager.out"), logs.resolve("jobmanager.log"));
    Await.until("the JobManager's REST API answers at " + rest(), () -> {
      requireAlive(jobManager);
      return FlinkRest.status(rest().address().resolve("/overview"));
    }, s -> s == 200);
  }

  /**
   * Starts a TaskManager whose Prometheus reporter listens on {@code metricsPort}, and returns once
   * the JobManager counts {@code expectedTaskManagers} of them.
   */
  ManagedProcesses.ManagedProcess startTaskManager(String name, int metricsPort, int expectedTaskManagers) {
    Resources resources = resources("GET_TM_RESOURCE_PARAMS", name);
    List<String> command = java(resources.jvmOptions(), name);
    command.add(TASK_MANAGER);
    command.addAll(List.of("--configDir", conf.toString()));
    command.addAll(resources.dynamicSettings());
    command.addAll(List.of("-D", "metrics.reporter.prom.port=" + metricsPort));
    ManagedProcesses.ManagedProcess tm = processes.start(name, command, Map.of(), logs.resolve(name + ".out"), logs.resolve(name + ".log"));
    Await.until(expectedTaskManagers + " TaskManager(s) registered", () -> {
      requireAlive(tm);
      return taskManagers();
    }, n -> n == expectedTaskManagers);
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
    int status = processes.run("flink " + String.join(" ", args), command, Map.of("FLINK_CONF_DIR", conf.toString()), log, patience);
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
    List<String> java = new ArrayList<>(List.of(JavaCommand.java(), "-Xmx256m", "-cp", lib + "/*",
        "-Dlog4j.configurationFile=" + conf.resolve("log4j-cli.properties").toUri(), "-Dlog.file=" + logs.resolve(name + "-bash-java-utils.log"),
        BASH_JAVA_UTILS, command, "--configDir", conf.toString()));
    Path log = logs.resolve(name + "-resources.out");
    int status = processes.run("BashJavaUtils " + command, java, Map.of(), log, Duration.ofMinutes(2));
    List<String> results;
    try {
      results = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> l.startsWith(RESULT_PREFIX))
          .map(l -> l.substring(RESULT_PREFIX.length()).trim()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (status != 0 || results.size() < 2) {
      throw new AssertionError("BashJavaUtils " + command + " exited with " + status + " and " + results.size()
          + " result lines; see " + log);
    }
    return new Resources(Arrays.asList(results.get(results.size() - 2).split("\\s+")),
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
    command.addAll(List.of("-cp", classPath.toString(),
        "-Dlog.file=" + logs.resolve(name + ".log"),
        "-Dlog4j.configurationFile=" + conf.resolve(name.equals("flink-client") ? "log4j-cli.properties" : "log4j.properties").toUri()));
    return command;
  }

  static void requireAlive(ManagedProcesses.ManagedProcess p) {
    if (!p.alive()) {
      throw new AssertionError(p.name() + " exited with " + p.process().exitValue() + "; its output ends with:\n" + p.tail(40));
    }
  }
}
