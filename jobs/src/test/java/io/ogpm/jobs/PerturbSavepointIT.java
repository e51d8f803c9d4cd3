package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import io.ogpm.testkit.TestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job jar restores the committed savepoint of the perturb job: the fixture {@code
 * src/test/resources/savepoints/perturb-budget} (canonical format, the job's current state layout;
 * see its README) holds a per-user budget in which user {@code spent} has spent all of it and user
 * {@code partial} two fifths. Restored into the current {@link PerturbJob} on a real broker and a
 * MiniCluster, the budget is enforced as saved: {@code spent}'s records become {@code
 * budget-exhausted} dead letters, {@code partial} gets the three records it has left (its fourth is
 * a dead letter) and a user the savepoint never saw gets all five of its records.
 *
 * <p>The savepoint holds, under the job's uids, the Kafka source's splits (topic, partition, next
 * offset), the budget's keyed state and timers, and the two Kafka sinks' writer and committer
 * state. All of it restores against a fresh broker, so nothing is dropped with {@code
 * allow-non-restored-state}: the source resumes each split at its saved offset (the test writes the
 * fixture's first seven records again, which the restored job must not read a second time, then the
 * new ones), and the sinks hold no pending transaction, since the fixture was taken once every
 * input was committed (an empty transaction leaves no committable; the writer merely aborts
 * transactions of its prefix the fresh broker never had).
 *
 * <p>Periods: the fixture's budget period is 36,500 days (the longest {@code BudgetConfig} allows),
 * so the period of its spending, 1970 to 2069, is still the current one when the test runs, and its
 * timers (which forget a period one period after it closed) lie far ahead.
 *
 * <p>To write the fixture again (only when the job's state changes on purpose; a released version's
 * savepoints must then still restore, through a state migration): {@code mvn -B -pl jobs -am verify
 * -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=PerturbSavepointIT
 * -Dfailsafe.failIfNoSpecifiedTests=false -Dogpm.savepoint.rewrite=true}.
 */
class PerturbSavepointIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder().taskManagers(1).slotsPerTaskManager(1).build();

  /** The system property that makes this class rewrite the fixture instead of restoring it. */
  static final String REWRITE = "ogpm.savepoint.rewrite";

  /** The committed fixture, relative to the jobs module (Maven runs the tests there). */
  static final Path FIXTURE_SOURCE =
      Path.of("src", "test", "resources", "savepoints", "perturb-budget");

  /** The fixture as a test resource. */
  static final String FIXTURE = "/savepoints/perturb-budget";

  /** 2 per record, 10 per period of 36,500 days: 5 records per user. */
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      user-field: user
      passthrough: [id]
      fields:
        - name: x
          min: 0
          max: 1
          epsilon: 1
        - name: y
          min: 0
          max: 1
          epsilon: 1
      budget: {epsilon: 10, period: P36500D}
      """);

  static final String NAME = "savepoint-fixture";
  static final ObjectMapper JSON = new ObjectMapper();

  private static PerturbJob.Settings settings(KafkaFixture kafka) {
    return PerturbJob.Settings.builder()
        .config(CONFIG)
        .kafka(KafkaSettings.of(kafka.bootstrapServers()))
        .inputTopic(NAME + "-raw")
        .outputTopic(NAME + "-out")
        .deadLetterTopic(NAME + "-dead")
        .groupId(NAME)
        .transactionalIdPrefix(NAME)
        .keySource(KeySource.none())
        .checkpointInterval(Duration.ofMillis(300))
        .parallelism(1)
        .build();
  }

  private static void createTopics(KafkaFixture kafka) {
    kafka.createRawTopic(NAME + "-raw", 1);
    kafka.createTopic(NAME + "-out", 1);
    kafka.createTopic(NAME + "-dead", 1);
  }

  private static List<KafkaRecord> produce(
      KafkaFixture kafka, String batch, String user, int records) {
    List<TestRecord> out = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      out.add(
          TestRecord.json(
                  "{\"id\":\""
                      + batch
                      + "-"
                      + user
                      + "-"
                      + i
                      + "\",\"user\":\""
                      + user
                      + "\",\"x\":0.5,\"y\":0.25}")
              .withKey(user));
    }
    return kafka.produceRecords(NAME + "-raw", out);
  }

  /**
   * What the fixture's job read before its savepoint: {@code spent} 5 records, {@code partial} 2.
   */
  private static List<KafkaRecord> produceBeforeTheSavepoint(KafkaFixture kafka) {
    List<KafkaRecord> in = new ArrayList<>(produce(kafka, "before", "spent", 5));
    in.addAll(produce(kafka, "before", "partial", 2));
    return in;
  }

  /** Records per user, from the record ids ({@code batch-user-i}) of the output. */
  private static Map<String, Integer> perUser(List<KafkaRecord> out) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    for (KafkaRecord r : out) {
      counts.merge(JSON.readTree(r.value()).get("id").asText().split("-")[1], 1, Integer::sum);
    }
    return counts;
  }

  @Test
  @DisabledIfSystemProperty(
      named = REWRITE,
      matches = "true",
      disabledReason = "rewriting the fixture")
  void theJobRestoresTheCommittedSavepointAndEnforcesItsBudget(@TempDir Path dir) throws Exception {
    restoresTheFixtureAndEnforcesItsBudget(ENV, dir);
  }

  /**
   * The restore of the committed fixture on {@code cluster}'s MiniCluster and state backend, and
   * its broker, which must not have the fixture's topics yet (the savepoint names them).
   */
  static void restoresTheFixtureAndEnforcesItsBudget(LdpTestEnvironment cluster, Path dir)
      throws Exception {
    KafkaFixture kafka = cluster.kafka();
    createTopics(kafka);
    // The fixture's source resumes at offset 7: these are not read again.
    produceBeforeTheSavepoint(kafka);
    List<KafkaRecord> after = new ArrayList<>(produce(kafka, "after", "spent", 2));
    after.addAll(produce(kafka, "after", "partial", 4));
    after.addAll(produce(kafka, "after", "new", 5));

    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, copyOfFixture(dir).toUri().toString());
    restore.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, false);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(restore);
    PerturbJob.build(env, settings(kafka));
    JobClient job = env.executeAsync("perturb job restored from the committed savepoint");
    Map<String, List<KafkaRecord>> read;
    try {
      read = kafka.awaitCommitted(after.size(), NAME + "-out", NAME + "-dead");
    } finally {
      job.cancel().get();
    }
    List<KafkaRecord> out = read.get(NAME + "-out");
    List<KafkaRecord> dead = read.get(NAME + "-dead");
    assertThat(out.size() + dead.size())
        .as("each new input once, none of the saved ones again")
        .isEqualTo(after.size());
    assertThat(out)
        .extracting(r -> JSON.readTree(r.value()).get("id").asText())
        .allMatch(id -> id.startsWith("after-"));
    // spent: 0 left; partial: 3 of its 4 (it had spent 2 records' worth); new: all 5.
    assertThat(perUser(out)).as("released per user").isEqualTo(Map.of("partial", 3, "new", 5));
    assertThat(dead)
        .as("dead letters: spent's 2 (offsets 7, 8) and partial's fourth (offset 12)")
        .extracting(r -> JSON.readTree(r.value()).get("source").get("offset").asLong())
        .containsExactlyInAnyOrder(7L, 8L, 12L);
    for (KafkaRecord d : dead) {
      assertThat(JSON.readTree(d.value()).get("reason").asText()).isEqualTo("budget-exhausted");
    }
    PrivacyAssertions.assertPrivacyContract(CONFIG, after, out, dead);
  }

  /**
   * Rewrites the committed fixture with the current job: the budget of two users ({@code spent}: 5
   * records, all of it; {@code partial}: 2), every input committed, then a stop with a canonical
   * savepoint. Runs only with {@code -Dogpm.savepoint.rewrite=true}, which skips the restore above
   * (it would read the fixture being rewritten).
   */
  @Test
  @EnabledIfSystemProperty(named = REWRITE, matches = "true")
  void rewriteTheFixture(@TempDir Path dir) throws Exception {
    KafkaFixture kafka = ENV.kafka();
    String name = NAME;
    createTopics(kafka);
    List<KafkaRecord> inputs = produceBeforeTheSavepoint(kafka);
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    PerturbJob.build(env, settings(kafka));
    JobClient job = env.executeAsync("perturb job writing the savepoint fixture");
    String savepoint;
    try {
      Map<String, List<KafkaRecord>> read =
          kafka.awaitCommitted(inputs.size(), name + "-out", name + "-dead");
      assertThat(read.get(name + "-out"))
          .as("7 records within a budget of 5 per user")
          .hasSize(inputs.size());
      savepoint =
          job.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL).get();
    } catch (AssertionError | RuntimeException e) {
      job.cancel().get();
      throw e;
    }
    Path written = Path.of(URI.create(savepoint));
    if (Files.isDirectory(FIXTURE_SOURCE)) {
      try (Stream<Path> old = Files.list(FIXTURE_SOURCE)) {
        for (Path p : old.filter(p -> !p.getFileName().toString().equals("README.md")).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(FIXTURE_SOURCE);
    copyFiles(written, FIXTURE_SOURCE);
  }

  /**
   * The fixture as files of its own (restoring reads the directory the {@code _metadata} is in).
   */
  private static Path copyOfFixture(Path dir) throws IOException, URISyntaxException {
    URL metadata = PerturbSavepointIT.class.getResource(FIXTURE + "/_metadata");
    assertThat(metadata)
        .as("the committed fixture " + FIXTURE + "/_metadata on the test class path")
        .isNotNull();
    Path copy = dir.resolve("perturb-budget");
    Files.createDirectories(copy);
    copyFiles(Path.of(metadata.toURI()).getParent(), copy);
    return copy;
  }

  private static void copyFiles(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.list(from)) {
      files
          .filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().equals("README.md"))
          .forEach(
              p -> {
                try {
                  Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
