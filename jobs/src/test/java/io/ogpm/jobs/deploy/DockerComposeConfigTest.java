package io.ogpm.jobs.deploy;

import static io.ogpm.jobs.deploy.DeployFiles.fieldNames;
import static io.ogpm.jobs.deploy.DeployFiles.parse;
import static io.ogpm.jobs.deploy.DeployFiles.pomProperty;
import static io.ogpm.jobs.deploy.DeployFiles.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/**
 * docker/docker-compose.yml and its keyed-mode override docker/docker-compose.keyed.yml: validated
 * by docker-compose itself where it is installed (CI installs Debian's), and checked statically
 * everywhere: services, image versions against pom.xml, Kafka's transaction settings, the topics,
 * the Flink properties and the Prometheus reporter, the key as a Docker secret, the shell scripts'
 * syntax, and the jobs' arguments against the real command line.
 */
class DockerComposeConfigTest {
  static final String PROMETHEUS_FACTORY =
      "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";

  static Path repo;
  static Path composeFile;
  static JsonNode compose;
  static ComposeDeployment deployment;

  @BeforeAll
  static void load() throws IOException {
    repo = DeployFiles.repoRoot();
    composeFile = repo.resolve(ComposeDeployment.FILE);
    assertThat(composeFile).isRegularFile();
    deployment = ComposeDeployment.load(repo);
    compose = deployment.base;
  }

  // --- docker-compose's own validation
  // ------------------------------------------------------------

  @Test
  void dockerComposeAcceptsTheFile() throws Exception {
    assertComposeAccepts(List.of(composeFile));
  }

  /**
   * The keyed override merges into the main file (Compose checks references, e.g. to the secret).
   */
  @Test
  void dockerComposeAcceptsTheKeyedOverride() throws Exception {
    assertComposeAccepts(List.of(composeFile, repo.resolve(ComposeDeployment.KEYED_FILE)));
  }

  private static void assertComposeAccepts(List<Path> files) throws Exception {
    Optional<List<String>> composeCommand = composeCommand();
    Assumptions.assumeTrue(
        composeCommand.isPresent(), "no docker-compose (nor `docker compose`) on the PATH");
    List<String> command = new ArrayList<>(composeCommand.get());
    for (Path file : files) {
      command.addAll(List.of("-f", file.toString()));
    }
    command.addAll(List.of("config", "-q"));
    Result r = exec(command, 120);
    if (r.status != 0) {
      System.err.println(String.join(" ", command) + " exited with " + r.status + ":\n" + r.err);
    }
    assertThat(r.status).as("%s\nstderr:\n%s", String.join(" ", command), r.err).isZero();
  }

  // --- static checks
  // --------------------------------------------------------------------------------

  @Test
  void servicesExistWithTheImagesWeBuildAgainst() throws IOException {
    JsonNode services = compose.path("services");
    assertThat(fieldNames(services))
        .contains("kafka", "topics", "jobmanager", "taskmanager", "submit");

    String pom = Files.readString(repo.resolve("pom.xml"));
    String flinkVersion = pomProperty(pom, "flink.version");
    String kafkaVersion = pomProperty(pom, "kafka.version");
    assertThat(flinkVersion).isEqualTo("2.2.1");
    assertThat(kafkaVersion).isEqualTo("4.2.0");

    assertThat(services.path("kafka").path("image").asText())
        .isEqualTo("apache/kafka:" + kafkaVersion);
    assertThat(services.path("topics").path("image").asText())
        .isEqualTo("apache/kafka:" + kafkaVersion);
    for (String flink : List.of("jobmanager", "taskmanager", "submit")) {
      String image = services.path(flink).path("image").asText();
      assertThat(image).as(flink).startsWith("flink:").contains(flinkVersion).contains("java17");
    }
  }

  @Test
  void kafkaIsASingleKraftNodeReadyForExactlyOnce() {
    JsonNode kafka = compose.path("services").path("kafka");
    JsonNode env = kafka.path("environment");
    assertThat(env.path("KAFKA_PROCESS_ROLES").asText()).isEqualTo("broker,controller");
    assertThat(env.path("KAFKA_ADVERTISED_LISTENERS").asText())
        .contains("//kafka:9092")
        .contains("//localhost:");
    // The jobs' producers ask for transaction.timeout.ms = 10 minutes.
    assertThat(env.path("KAFKA_TRANSACTION_MAX_TIMEOUT_MS").asLong())
        .isGreaterThanOrEqualTo(600_000L);
    for (String one :
        List.of(
            "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
            "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR",
            "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR")) {
      assertThat(env.path(one).asInt()).as(one).isEqualTo(1);
    }
    assertThat(text(kafka.path("healthcheck").path("test")))
        .contains("/opt/kafka/bin/kafka-broker-api-versions.sh");
    assertThat(
            compose
                .path("services")
                .path("topics")
                .path("depends_on")
                .path("kafka")
                .path("condition")
                .asText())
        .isEqualTo("service_healthy");
  }

  @Test
  void topicsAreCreatedIdempotently() {
    String script = text(compose.path("services").path("topics").path("command"));
    assertThat(script).contains("--if-not-exists");
    for (String topic : List.of("ogpm.raw", "ogpm.perturbed", "ogpm.dead-letters", "ogpm.stats")) {
      assertThat(script)
          .containsPattern("create\\s+" + Pattern.quote(topic) + "\\s+\\d+\\s+retention\\.ms=\\d+");
    }
    // The budget (clock log-append-time in sample-data/ogpm.yaml) refuses producer-stamped records.
    assertThat(script)
        .containsPattern(
            "create\\s+ogpm\\.raw\\s.*message\\.timestamp\\.type=LogAppendTime(\\s|$)");
    // Stats carry their window's event time: replayed old data must not be deleted by retention.
    assertThat(script)
        .containsPattern(
            "create\\s+ogpm\\.stats\\s.*message\\.timestamp\\.type=LogAppendTime(\\s|$)");
    // The stats sink writes key-less records, which a compacted topic rejects.
    assertThat(script).containsPattern("create\\s+ogpm\\.stats\\s.*cleanup\\.policy=delete(\\s|$)");
  }

  @Test
  void flinkPropertiesAreKeyValueLinesWithSharedCheckpoints() {
    // submit is a client: it reaches the job manager with `-m jobmanager:8081` and needs none.
    for (String flink : List.of("jobmanager", "taskmanager")) {
      String props =
          compose
              .path("services")
              .path(flink)
              .path("environment")
              .path("FLINK_PROPERTIES")
              .asText();
      // The image's entry point reads every non-empty line as `key: value` (no comments allowed).
      for (String line : props.split("\n")) {
        if (!line.isBlank()) {
          assertThat(line).as(flink).matches("[a-z][a-zA-Z0-9.-]*: \\S.*");
        }
      }
      assertThat(props)
          .as(flink)
          .contains("jobmanager.rpc.address: jobmanager")
          .contains("taskmanager.numberOfTaskSlots: ")
          .contains("execution.checkpointing.dir: file:///checkpoints")
          .contains("state.backend.type: ${OGPM_STATE_BACKEND:-hashmap}")
          .contains("execution.checkpointing.incremental: true")
          .contains("state.backend.rocksdb.use-bloom-filter: true")
          .contains("state.backend.rocksdb.memory.partitioned-index-filters: true")
          .contains("restart-strategy.type: ");
      assertThat(text(compose.path("services").path(flink).path("volumes")))
          .as(flink)
          .contains("checkpoints:/checkpoints");
      // The logging of docker/log4j-console.properties (less the warning every checkpoint repeats).
      assertThat(text(compose.path("services").path(flink).path("volumes")))
          .as(flink)
          .contains("./log4j-console.properties:/opt/flink/conf/log4j-console.properties:ro");
    }
    assertThat(text(compose.path("services").path("jobmanager").path("ports")))
        .contains(":8081:8081");
  }

  @Test
  void submitRunsBothJobsFromTheMountedJar() {
    JsonNode submit = compose.path("services").path("submit");
    String script = text(submit.path("command"));
    assertThat(script)
        .contains("ogpm-job.jar")
        .contains("perturb-job")
        .contains("aggregate-job")
        .contains("flink run -d -m jobmanager:8081 /opt/ogpm/ogpm-job.jar");
    String volumes = text(submit.path("volumes"));
    assertThat(volumes)
        .contains("../jobs/target/ogpm-job.jar")
        .contains("/opt/ogpm/ogpm-job.jar")
        .contains("../sample-data/ogpm.yaml")
        .contains("/opt/ogpm/ogpm.yaml");
    assertThat(repo.resolve("sample-data/ogpm.yaml")).isRegularFile();
    assertThat(repo.resolve("sample-data/motionsense-dws1.jsonl")).isRegularFile();
  }

  /** The options the submit service passes exist, with values the command line accepts. */
  @Test
  void submittedArgumentsParseWithTheJobsCommandLine() {
    ParseResult p = parse(deployment.jobArguments("perturb-job", false));
    assertThat(DeployFiles.given(p, "--bootstrap-servers")).isEqualTo("kafka:9092");
    assertThat(DeployFiles.given(p, "--config")).isEqualTo("/opt/ogpm/ogpm.yaml");
    assertThat(DeployFiles.given(p, "--key-file")).as("keyed mode is the override's").isNull();

    ParseResult a = parse(deployment.jobArguments("aggregate-job", false));
    assertThat(DeployFiles.given(a, "--group-by")).isEqualTo("activity");
    assertThat(DeployFiles.given(a, "--time-field")).isEqualTo("ts");
    assertThat(DeployFiles.given(a, "--input-topic")).isEqualTo("ogpm.perturbed");
  }

  // --- metrics
  // ------------------------------------------------------------------------------------

  /**
   * Every Flink process serves Prometheus metrics on one port, which the prometheus service
   * scrapes.
   */
  @Test
  void prometheusScrapesTheReporterOfEveryFlinkProcess() throws IOException {
    String port = null;
    for (String flink : List.of("jobmanager", "taskmanager")) {
      Map<String, String> props = deployment.flinkProperties(flink);
      assertThat(props)
          .as(flink)
          .containsEntry("metrics.reporter.prom.factory.class", PROMETHEUS_FACTORY);
      port = props.get("metrics.reporter.prom.port");
      assertThat(port)
          .as(flink + ": one port, not a range (one process per container)")
          .matches("\\d+");
      assertThat(text(compose.path("services").path(flink).path("expose")))
          .as(flink)
          .contains(port);
    }

    JsonNode prometheus = compose.path("services").path("prometheus");
    // Pinned like the other images: a release tag, never `latest`.
    assertThat(prometheus.path("image").asText()).matches("prom/prometheus:v\\d+\\.\\d+\\.\\d+");
    assertThat(text(prometheus.path("ports")))
        .as("loopback only")
        .startsWith("127.0.0.1:")
        .endsWith(":9090");
    JsonNode mount = bindMount(prometheus, "/etc/prometheus/prometheus.yml");
    Path config = composeFile.getParent().resolve(mount.path("source").asText()).normalize();
    assertThat(config).isRegularFile();

    JsonNode flinkJob = null;
    for (JsonNode job : DeployFiles.readResolvingAliases(config).path("scrape_configs")) {
      if (text(job).contains("jobmanager")) {
        flinkJob = job;
      }
    }
    assertThat(flinkJob).as("a scrape job for the Flink services in " + config).isNotNull();
    JsonNode dns = flinkJob.path("dns_sd_configs").path(0);
    assertThat(text(dns.path("names")).split("\n"))
        .containsExactlyInAnyOrder("jobmanager", "taskmanager");
    assertThat(dns.path("port").asText()).isEqualTo(port);
  }

  // --- keyed mode
  // ---------------------------------------------------------------------------------

  /**
   * Keyed mode (docker-compose.keyed.yml) reads the key from a Docker secret: a git-ignored file,
   * mounted where the key is read (submit, which runs the job's main, and the task managers), and
   * passed to the job as a path only; neither file holds key material or passes the key in the
   * environment.
   */
  @Test
  void keyedModeReadsTheKeyFromADockerSecretFile() throws IOException {
    JsonNode keyed = deployment.keyed;
    List<String> secrets = fieldNames(keyed.path("secrets"));
    assertThat(secrets).hasSize(1);
    String secret = secrets.get(0);
    String file = keyed.path("secrets").path(secret).path("file").asText();
    assertThat(file)
        .as("the secret is a file (not an environment variable)")
        .startsWith("./secrets/");
    assertThat(Files.readString(repo.resolve("docker/.gitignore")).lines())
        .as("docker/.gitignore")
        .contains("secrets/");
    for (String service : List.of("submit", "taskmanager", "jobmanager")) {
      assertThat(text(keyed.path("services").path(service).path("secrets")))
          .as(service)
          .isEqualTo(secret);
    }

    ParseResult perturb = parse(deployment.jobArguments("perturb-job", true));
    // Compose mounts a service's secrets read-only at /run/secrets/<name>.
    assertThat(DeployFiles.given(perturb, "--key-file")).isEqualTo("/run/secrets/" + secret);
    assertThat(DeployFiles.given(perturb, "--key-env")).isNull();
    ParseResult aggregate = parse(deployment.jobArguments("aggregate-job", true));
    assertThat(DeployFiles.given(aggregate, "--config")).isEqualTo("/opt/ogpm/ogpm.yaml");

    // The main file works without a key (no secret to create first) and names none.
    assertThat(compose.has("secrets")).isFalse();
    for (String service : fieldNames(compose.path("services"))) {
      assertThat(compose.path("services").path(service).has("secrets")).as(service).isFalse();
    }
    for (Path f : List.of(composeFile, repo.resolve(ComposeDeployment.KEYED_FILE))) {
      assertThat(Files.readString(f)).as(f.toString()).doesNotContain("--key-env");
    }
  }

  /** The bash scripts of the one-shot services are syntactically valid (`bash -n`). */
  @Test
  void serviceScriptsAreValidBash() throws Exception {
    Assumptions.assumeTrue(onPath("bash").isPresent(), "no bash on the PATH");
    for (String service : List.of("topics", "submit", "replay")) {
      JsonNode command = compose.path("services").path(service).path("command");
      assertThat(command.isArray()).as(service).isTrue();
      // Compose turns $$ into a literal $ before the shell sees the script.
      String script = command.get(command.size() - 1).asText().replace("$$", "$");
      Path tmp = Files.createTempFile("compose-" + service, ".sh");
      try {
        Files.writeString(tmp, script);
        Result r = exec(List.of("bash", "-n", tmp.toString()), 30);
        assertThat(r.status).as("%s: bash -n\n%s", service, r.err).isZero();
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
  }

  // --- helpers
  // ------------------------------------------------------------------------------------

  /** The long-syntax bind mount of a service at {@code target}. */
  static JsonNode bindMount(JsonNode service, String target) {
    for (JsonNode volume : service.path("volumes")) {
      if (volume.path("target").asText().equals(target)) {
        assertThat(volume.path("type").asText()).as(target).isEqualTo("bind");
        return volume;
      }
    }
    return fail("no bind mount at " + target + " in " + service);
  }

  /** `docker-compose`, else `docker compose` if that plugin answers; empty if neither. */
  static Optional<List<String>> composeCommand() throws InterruptedException {
    Optional<Path> standalone = onPath("docker-compose");
    if (standalone.isPresent()) {
      return Optional.of(List.of(standalone.get().toString()));
    }
    Optional<Path> docker = onPath("docker");
    if (docker.isPresent()) {
      try {
        if (exec(List.of(docker.get().toString(), "compose", "version"), 30).status == 0) {
          return Optional.of(List.of(docker.get().toString(), "compose"));
        }
      } catch (IOException e) {
        // not usable
      }
    }
    return Optional.empty();
  }

  static Optional<Path> onPath(String executable) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Stream.of(path.split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty())
        .map(dir -> Path.of(dir, executable))
        .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
        .findFirst();
  }

  record Result(int status, String out, String err) {}

  static Result exec(List<String> command, long timeoutSeconds)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("exec", ".out");
    Path err = Files.createTempFile("exec", ".err");
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(repo.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
      }
      return new Result(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
