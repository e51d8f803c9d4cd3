package io.ogpm.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.ogpm.jobs.cli.OgpmJobs;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * docker/docker-compose.yml: validated by docker-compose itself where it is installed (CI installs
 * Debian's), and checked statically everywhere: services, image versions against pom.xml, Kafka's
 * transaction settings, the topics, the Flink properties, the shell scripts' syntax, and the jobs'
 * arguments against the real command line.
 */
class DockerComposeConfigTest {
  static Path repo;
  static Path composeFile;
  static JsonNode compose;

  @BeforeAll
  static void load() throws IOException {
    repo = repoRoot();
    composeFile = repo.resolve("docker/docker-compose.yml");
    assertThat(composeFile).isRegularFile();
    compose = readResolvingAliases(composeFile);
  }

  // --- docker-compose's own validation ------------------------------------------------------------

  @Test
  void dockerComposeAcceptsTheFile() throws Exception {
    Optional<List<String>> composeCommand = composeCommand();
    Assumptions.assumeTrue(composeCommand.isPresent(), "no docker-compose (nor `docker compose`) on the PATH");
    List<String> command = new ArrayList<>(composeCommand.get());
    command.addAll(List.of("-f", composeFile.toString(), "config", "-q"));
    Result r = exec(command, 120);
    if (r.status != 0) {
      System.err.println(String.join(" ", command) + " exited with " + r.status + ":\n" + r.err);
    }
    assertThat(r.status).as("%s\nstderr:\n%s", String.join(" ", command), r.err).isZero();
  }

  // --- static checks --------------------------------------------------------------------------------

  @Test
  void servicesExistWithTheImagesWeBuildAgainst() throws IOException {
    JsonNode services = compose.path("services");
    assertThat(fieldNames(services)).contains("kafka", "topics", "jobmanager", "taskmanager", "submit");

    String pom = Files.readString(repo.resolve("pom.xml"));
    String flinkVersion = pomProperty(pom, "flink.version");
    String kafkaVersion = pomProperty(pom, "kafka.version");
    assertThat(flinkVersion).isEqualTo("2.2.1");
    assertThat(kafkaVersion).isEqualTo("4.2.0");

    assertThat(services.path("kafka").path("image").asText()).isEqualTo("apache/kafka:" + kafkaVersion);
    assertThat(services.path("topics").path("image").asText()).isEqualTo("apache/kafka:" + kafkaVersion);
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
    assertThat(env.path("KAFKA_ADVERTISED_LISTENERS").asText()).contains("//kafka:9092").contains("//localhost:");
    // The jobs' producers ask for transaction.timeout.ms = 10 minutes.
    assertThat(env.path("KAFKA_TRANSACTION_MAX_TIMEOUT_MS").asLong()).isGreaterThanOrEqualTo(600_000L);
    for (String one : List.of("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR",
        "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR")) {
      assertThat(env.path(one).asInt()).as(one).isEqualTo(1);
    }
    assertThat(text(kafka.path("healthcheck").path("test"))).contains("/opt/kafka/bin/kafka-broker-api-versions.sh");
    assertThat(compose.path("services").path("topics").path("depends_on").path("kafka").path("condition").asText())
        .isEqualTo("service_healthy");
  }

  @Test
  void topicsAreCreatedIdempotently() {
    String script = text(compose.path("services").path("topics").path("command"));
    assertThat(script).contains("--if-not-exists");
    for (String topic : List.of("ogpm.raw", "ogpm.perturbed", "ogpm.dead-letters", "ogpm.stats")) {
      assertThat(script).containsPattern("create\\s+" + Pattern.quote(topic) + "\\s+\\d+\\s+retention\\.ms=\\d+");
    }
    // The budget (clock log-append-time in sample-data/ogpm.yaml) refuses producer-stamped records.
    assertThat(script).containsPattern("create\\s+ogpm\\.raw\\s.*message\\.timestamp\\.type=LogAppendTime(\\s|$)");
    // Stats carry their window's event time: replayed old data must not be deleted by retention.
    assertThat(script).containsPattern("create\\s+ogpm\\.stats\\s.*message\\.timestamp\\.type=LogAppendTime(\\s|$)");
    // The stats sink writes key-less records, which a compacted topic rejects.
    assertThat(script).containsPattern("create\\s+ogpm\\.stats\\s.*cleanup\\.policy=delete(\\s|$)");
  }

  @Test
  void flinkPropertiesAreKeyValueLinesWithSharedCheckpoints() {
    // submit is a client: it reaches the job manager with `-m jobmanager:8081` and needs none.
    for (String flink : List.of("jobmanager", "taskmanager")) {
      String props = compose.path("services").path(flink).path("environment").path("FLINK_PROPERTIES").asText();
      // The image's entry point reads every non-empty line as `key: value` (no comments allowed).
      for (String line : props.split("\n")) {
        if (!line.isBlank()) {
          assertThat(line).as(flink).matches("[a-z][a-zA-Z0-9.-]*: \\S.*");
        }
      }
      assertThat(props).as(flink)
          .contains("jobmanager.rpc.address: jobmanager")
          .contains("taskmanager.numberOfTaskSlots: ")
          .contains("execution.checkpointing.dir: file:///checkpoints")
          .contains("state.backend.type: ")
          .contains("restart-strategy.type: ");
      assertThat(text(compose.path("services").path(flink).path("volumes"))).as(flink).contains("checkpoints:/checkpoints");
    }
    assertThat(text(compose.path("services").path("jobmanager").path("ports"))).contains(":8081:8081");
  }

  @Test
  void submitRunsBothJobsFromTheMountedJar() {
    JsonNode submit = compose.path("services").path("submit");
    String script = text(submit.path("command"));
    assertThat(script).contains("ogpm-job.jar").contains("perturb-job").contains("aggregate-job")
        .contains("flink run -d -m jobmanager:8081 /opt/ogpm/ogpm-job.jar");
    String volumes = text(submit.path("volumes"));
    assertThat(volumes).contains("../jobs/target/ogpm-job.jar").contains("/opt/ogpm/ogpm-job.jar")
        .contains("../sample-data/ogpm.yaml").contains("/opt/ogpm/ogpm.yaml");
    assertThat(repo.resolve("sample-data/ogpm.yaml")).isRegularFile();
    assertThat(repo.resolve("sample-data/motionsense-dws1.jsonl")).isRegularFile();
  }

  /** The options the submit service passes exist, with values the command line accepts. */
  @Test
  void submittedArgumentsParseWithTheJobsCommandLine() {
    String script = text(compose.path("services").path("submit").path("command")).replace("$$", "$");
    List<String> perturb = jobArguments(script, "perturb-job", "$PERTURB_EXTRA_ARGS");
    List<String> aggregate = jobArguments(script, "aggregate-job", "$AGGREGATE_EXTRA_ARGS");

    ParseResult p = parse(perturb);
    assertThat(p.subcommand().matchedOptionValue("--bootstrap-servers", "")).isEqualTo("kafka:9092");
    assertThat(p.subcommand().matchedOptionValue("--config", (Object) null)).hasToString("/opt/ogpm/ogpm.yaml");
    List<String> keyed = new ArrayList<>(perturb);
    keyed.addAll(List.of("--key-file", "/run/secrets/ogpm-key"));
    parse(keyed);

    ParseResult a = parse(aggregate);
    assertThat(a.subcommand().matchedOptionValue("--group-by", "")).isEqualTo("activity");
    assertThat(a.subcommand().matchedOptionValue("--time-field", "")).isEqualTo("ts");
    assertThat(a.subcommand().matchedOptionValue("--input-topic", "")).isEqualTo("ogpm.perturbed");
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

  // --- helpers ------------------------------------------------------------------------------------

  /** The repository root: the jobs module's parent when Maven runs the tests from jobs/. */
  static Path repoRoot() {
    Path cwd = Path.of("").toAbsolutePath();
    for (Path p = cwd; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("docker/docker-compose.yml"))) {
        return p;
      }
    }
    return cwd.getParent();
  }

  static ParseResult parse(List<String> args) {
    CommandLine cli = new CommandLine(new OgpmJobs());
    ParseResult[] result = new ParseResult[1];
    assertThatCode(() -> result[0] = cli.parseArgs(args.toArray(String[]::new))).as(String.join(" ", args))
        .doesNotThrowAnyException();
    assertThat(result[0].subcommand()).as(String.join(" ", args)).isNotNull();
    return result[0];
  }

  /** The words from {@code subcommand} up to {@code end} in a shell script (line continuations joined). */
  static List<String> jobArguments(String script, String subcommand, String end) {
    int from = script.indexOf(" " + subcommand);
    assertThat(from).as(subcommand + " in the submit script").isNotNegative();
    int to = script.indexOf(end, from);
    assertThat(to).as(end + " after " + subcommand).isGreaterThan(from);
    String words = script.substring(from, to).replace("\\\n", " ");
    assertThat(words).as(subcommand + " arguments").doesNotContain("\n").doesNotContain("$").doesNotContain("\"")
        .doesNotContain("'");
    return Arrays.stream(words.trim().split("\\s+")).collect(Collectors.toList());
  }

  static String pomProperty(String pom, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">").matcher(pom);
    assertThat(m.find()).as(name + " in pom.xml").isTrue();
    return m.group(1).trim();
  }

  static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** A node's text: a scalar's value, or the values of a list or map joined by newlines. */
  static String text(JsonNode node) {
    if (node.isValueNode()) {
      return node.asText();
    }
    List<String> parts = new ArrayList<>();
    node.forEach(child -> parts.add(text(child)));
    if (node.isObject()) {
      node.fields().forEachRemaining(e -> parts.add(e.getKey()));
    }
    return String.join("\n", parts);
  }

  /**
   * Reads YAML into a tree, resolving anchors and aliases ({@code &name} / {@code *name}), which
   * Jackson's tree model would otherwise leave as the alias's name.
   */
  static JsonNode readResolvingAliases(Path file) throws IOException {
    YAMLMapper mapper = new YAMLMapper();
    try (YAMLParser parser = (YAMLParser) mapper.getFactory().createParser(file.toFile())) {
      parser.nextToken();
      return readNode(parser, new HashMap<>());
    }
  }

  private static JsonNode readNode(YAMLParser p, Map<String, JsonNode> anchors) throws IOException {
    if (p.isCurrentAlias()) {
      JsonNode target = anchors.get(p.getText());
      if (target == null) {
        fail("undefined YAML alias *" + p.getText());
      }
      return target;
    }
    String anchor = p.getObjectId();
    JsonNodeFactory f = JsonNodeFactory.instance;
    JsonNode node;
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT) {
      ObjectNode o = f.objectNode();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        o.set(name, readNode(p, anchors));
      }
      node = o;
    } else if (t == JsonToken.START_ARRAY) {
      ArrayNode a = f.arrayNode();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        a.add(readNode(p, anchors));
      }
      node = a;
    } else if (t == JsonToken.VALUE_NULL) {
      node = f.nullNode();
    } else if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_TRUE
        || t == JsonToken.VALUE_FALSE || t == JsonToken.VALUE_STRING) {
      // Scalars as text: compose reads most of them as strings anyway (asInt/asLong still work).
      node = f.textNode(p.getText());
    } else {
      throw new IOException("unexpected YAML token " + t + " at " + p.currentLocation());
    }
    if (anchor != null) {
      anchors.put(anchor, node);
    }
    return node;
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

  static Result exec(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
    Path out = Files.createTempFile("exec", ".out");
    Path err = Files.createTempFile("exec", ".err");
    try {
      Process process = new ProcessBuilder(command)
          .directory(repo.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
      }
      return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
