package io.ogpm.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowDistribution;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flink SQL example of docs/sql.md, run as it is written: its statements, parsed out of that
 * page, through a {@code TableEnvironment} on the test kit's MiniCluster over its Kafka broker,
 * with the functions registered from the built job jar ({@code CREATE FUNCTION ... USING JAR}). The
 * sample readings go through the perturbing {@code INSERT INTO} into the perturbed topic, whose
 * values are on their mechanisms' grids and hold nothing undeclared; the windowed {@code INSERT
 * INTO} gives for every closed window, bit for bit, the DataStream aggregation's ({@link
 * LdpAggregation}) estimates of the same perturbed records. Bad arguments over Kafka give NULL and
 * a counted reason, the job finishing normally; bad literal arguments fail the statement when it is
 * planned.
 */
class SqlExampleIT {
  static final String MARKER =
      "<!-- sql example: run by jobs/src/test/java/io/ogpm/jobs/sql/SqlExampleIT.java -->\n";
  static final String BUDGET_MARKER =
      "<!-- sql budget example: run by jobs/src/test/java/io/ogpm/jobs/sql/SqlExampleIT.java -->\n";
  static final String README_BROKER = "kafka:9092";
  static final String README_JAR = "file:///opt/ogpm/ogpm-job.jar";
  static final Path REPO = Path.of("").toAbsolutePath().getParent();

  /** The page with the SQL examples, relative to the repository's root. */
  static final String PAGE = "docs/sql.md";

  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What the example perturbs, as a configuration: for the DataStream aggregation and the grid
   * check.
   */
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [id, ts, activity]
      fields:
        - {name: accel_x, min: -3.0, max: 3.0, epsilon: 1.0}
        - {name: roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 1.0}
      """);

  /**
   * The Kafka connector is on this JVM's class path (a real cluster's lib/ has none: the job jar
   * brings it), and Flink loads org.apache.flink classes parent-first: the Kafka client must come
   * from the same place, or the jar's own copy clashes with the connector's (as in
   * RestSubmissionIT). Two streaming jobs at once, one slot each.
   */
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder()
          .slotsPerTaskManager(4)
          .parallelism(1)
          .flinkConfiguration(
              Configuration.fromMap(
                  Map.of(
                      CoreOptions.ALWAYS_PARENT_FIRST_LOADER_PATTERNS_ADDITIONAL.key(),
                      "org.apache.kafka.")))
          .build();

  /** The page's example, statement by statement (comments dropped). */
  static List<String> readmeStatements() throws Exception {
    return readmeStatements(MARKER);
  }

  /** The page's SQL block after a marker, statement by statement (comments dropped). */
  static List<String> readmeStatements(String marker) throws Exception {
    String readme = Files.readString(REPO.resolve(PAGE), StandardCharsets.UTF_8);
    int start = readme.indexOf(marker + "```sql\n");
    assertThat(start).as("%s has the marker %s", PAGE, marker.strip()).isNotNegative();
    int from = start + marker.length() + "```sql\n".length();
    String block = readme.substring(from, readme.indexOf("```\n", from));
    StringBuilder sql = new StringBuilder();
    for (String line : block.split("\n")) {
      if (!line.strip().startsWith("--")) {
        sql.append(line).append('\n');
      }
    }
    List<String> statements = new ArrayList<>();
    for (String s : sql.toString().split(";\\s*\n")) {
      if (!s.isBlank()) {
        statements.add(s.strip());
      }
    }
    return statements;
  }

  private static StreamTableEnvironment tableEnvironment() {
    return StreamTableEnvironment.create(ENV.executionEnvironment());
  }

  private static final Pattern SET = Pattern.compile("SET '([^']+)' = '([^']*)'");

  /** Runs the page's statements; returns the jobs its INSERTs started. */
  private static List<JobClient> runReadme(StreamTableEnvironment t) throws Exception {
    return runReadme(t, readmeStatements());
  }

  private static List<JobClient> runReadme(StreamTableEnvironment t, List<String> statements) {
    String jar =
        "file://"
            + Path.of(System.getProperty("ogpm.job.jar", "target/ogpm-job.jar")).toAbsolutePath();
    List<JobClient> jobs = new ArrayList<>();
    for (String statement : statements) {
      String s = statement.replace(README_BROKER, ENV.bootstrapServers()).replace(README_JAR, jar);
      Matcher set = SET.matcher(s);
      if (set.matches()) {
        // What the SQL client does with SET: the session's configuration.
        t.getConfig().set(set.group(1), set.group(2));
        continue;
      }
      TableResult result = t.executeSql(s);
      result.getJobClient().ifPresent(jobs::add);
    }
    return jobs;
  }

  @Test
  void theReadmeExampleRunsAndItsEstimatesAreTheDataStreamAggregations() throws Exception {
    String raw = "ogpm.sql.raw";
    String perturbedTopic = "ogpm.sql.perturbed";
    String stats = "ogpm.sql.stats";
    ENV.kafka().createTopic(raw, 1);
    ENV.kafka().createTopic(perturbedTopic, 1);
    ENV.kafka().createTopic(stats, 1);
    // In time order, as devices send their readings (the window TVF drops rows later than the
    // watermark, 5 s behind).
    List<String> sample =
        new ArrayList<>(Files.readAllLines(REPO.resolve("sample-data/motionsense-dws1.jsonl")));
    sample.sort(java.util.Comparator.comparingLong(SqlExampleIT::timeOf));
    ENV.kafka().produceJson(raw, sample);

    List<String> statements = readmeStatements();
    assertThat(statements)
        .anyMatch(s -> s.contains("USING JAR '" + README_JAR + "'"))
        .anyMatch(s -> s.contains("'connector' = 'kafka'"))
        .anyMatch(s -> s.contains("'format' = 'json'"))
        .filteredOn(s -> s.startsWith("INSERT INTO"))
        .hasSize(2);
    long perturbedBefore = ENV.metrics().counter("valuesPerturbed");
    long aggregatedBefore = ENV.metrics().counter("valuesAggregated");
    StreamTableEnvironment t = tableEnvironment();
    List<JobClient> jobs = runReadme(t);
    assertThat(jobs).hasSize(2);
    try {
      List<KafkaRecord> perturbed = ENV.kafka().awaitCommitted(perturbedTopic, sample.size());
      // One reading far later moves the watermark past every window of the sample.
      long last = timeOf(sample.get(sample.size() - 1));
      ENV.kafka()
          .produceJson(
              raw,
              "{\"id\":\"closer\",\"ts\":"
                  + (last + 60_000)
                  + ",\"activity\":\"downstairs\","
                  + "\"userAcceleration\":{\"x\":0.0},\"attitude\":{\"roll\":0.0}}");

      PrivacyAssertions.assertNoUndeclaredField(CONFIG, perturbed);
      PrivacyAssertions.assertPerturbedValuesOnGrid(CONFIG, perturbed);

      Map<String, WindowEstimate[]> expected = dataStreamEstimates(perturbed);
      List<KafkaRecord> windows = ENV.kafka().awaitCommitted(stats, expected.size());
      assertThat(windows).hasSize(expected.size());
      for (KafkaRecord w : windows) {
        JsonNode row = JSON.readTree(w.value());
        long start =
            LocalDateTime.parse(row.get("window_start").asText().replace(' ', 'T'))
                .toInstant(ZoneOffset.UTC)
                .toEpochMilli();
        WindowEstimate[] ds = expected.get(start + "/" + row.get("activity").asText());
        assertThat(ds).as("a DataStream window for %s", row).isNotNull();
        assertSameEstimates(row, ds[0], ds[1], ds[2]);
      }
      // Two perturbed columns per reading; four aggregates of each perturbed reading (the closer's
      // too).
      assertThat(ENV.metrics().counter("valuesPerturbed") - perturbedBefore)
          .isEqualTo(2L * (sample.size() + 1));
      assertThat(ENV.metrics().counter("valuesAggregated") - aggregatedBefore)
          .isEqualTo(4L * (sample.size() + 1));
    } finally {
      for (JobClient job : jobs) {
        job.cancel().get();
      }
    }
  }

  /**
   * The DataStream aggregation of the perturbed records (the sample's, without the closing reading
   * whose window stays open): per window start and group, accel_x by methods raw (the default 50
   * bins, as LDP_MEAN reads) and em (20 bins, as the example's LDP_HISTOGRAM and LDP_QUANTILE),
   * roll raw.
   */
  private static Map<String, WindowEstimate[]> dataStreamEstimates(List<KafkaRecord> perturbed)
      throws Exception {
    List<PerturbedValues> values = new ArrayList<>();
    for (KafkaRecord r : perturbed) {
      JsonNode n = JSON.readTree(r.value());
      values.add(
          new PerturbedValues(
              new double[] {n.get("accel_x").asDouble(), n.get("roll").asDouble()},
              n.get("activity").asText(),
              n.get("ts").asLong()));
    }
    Map<String, WindowEstimate[]> byWindow = new HashMap<>();
    for (EstimationMethod method : EstimationMethod.values()) {
      StreamExecutionEnvironment env = ENV.executionEnvironment();
      DataStream<PerturbedValues> stream =
          env.fromData(values, TypeInformation.of(PerturbedValues.class))
              .assignTimestampsAndWatermarks(LdpAggregation.watermarks(Duration.ofSeconds(5)));
      // LDP_MEAN reads its interval from the output histogram over the aggregation's default bins
      // (the tails); LDP_HISTOGRAM is called with 20.
      int bins = method == EstimationMethod.RAW ? LdpAggregation.DEFAULT_BINS : 20;
      DataStream<WindowEstimate> estimates =
          LdpAggregation.builder()
              .config(CONFIG)
              .window(Duration.ofSeconds(10))
              .groupBy("activity")
              .bins(bins)
              .method(method)
              .build()
              .apply(stream);
      try (CloseableIterator<WindowEstimate> it =
          estimates.executeAndCollect("data stream " + method)) {
        while (it.hasNext()) {
          WindowEstimate e = it.next();
          String key = e.getWindowStart() + "/" + e.getGroup();
          WindowEstimate[] slot = byWindow.computeIfAbsent(key, k -> new WindowEstimate[3]);
          if (e.getField().equals("roll")) {
            if (method == EstimationMethod.RAW) {
              slot[2] = e;
            }
          } else {
            slot[method == EstimationMethod.RAW ? 0 : 1] = e;
          }
        }
      }
    }
    return byWindow;
  }

  private static long timeOf(String json) {
    try {
      return JSON.readTree(json).get("ts").asLong();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void assertSameEstimates(
      JsonNode row, WindowEstimate raw, WindowEstimate em, WindowEstimate roll) {
    JsonNode mean = row.get("accel_x");
    assertThat(mean.get("n").asLong()).isEqualTo(raw.getCount());
    assertThat(mean.get("mean").asDouble()).isEqualTo(raw.getMean());
    assertThat(number(mean, "mean_lower")).isEqualTo(raw.getMeanLower());
    assertThat(number(mean, "mean_upper")).isEqualTo(raw.getMeanUpper());
    assertThat(mean.get("raw_mean").asDouble()).isEqualTo(raw.getRawMean());
    assertThat(number(mean, "unbiased_mean")).isEqualTo(raw.getUnbiasedMean());
    JsonNode histogram = row.get("accel_x_histogram");
    assertThat(histogram.get("n").asLong()).isEqualTo(em.getCount());
    assertThat(histogram.get("estimate_method").asText()).isEqualTo(em.getMethod().code());
    assertThat(doubles(histogram.get("histogram"))).containsExactly(em.getHistogram());
    assertThat(doubles(histogram.get("raw_histogram"))).containsExactly(em.getRawHistogram());
    assertThat(doubles(histogram.get("reconstructed_histogram")))
        .containsExactly(em.getReconstructedHistogram());
    assertThat(histogram.get("em_iterations").asInt()).isEqualTo(em.getEmIterations());
    WindowDistribution d = em.getDistribution();
    assertThat(doubles(histogram.get("cdf_points"))).containsExactly(d.getCdfPoints());
    assertThat(doubles(histogram.get("cdf_lower"))).containsExactly(d.getCdfLower());
    assertThat(doubles(histogram.get("cdf_upper"))).containsExactly(d.getCdfUpper());
    // The median: the aggregation's quantiles are 0.1, 0.5 and 0.9.
    JsonNode median = row.get("accel_x_median");
    assertThat(d.getQuantileProbabilities()[1]).isEqualTo(0.5);
    assertThat(median.get("n").asLong()).isEqualTo(em.getCount());
    assertThat(median.get("quantile").asDouble()).isEqualTo(d.getQuantileEstimates()[1]);
    assertThat(median.get("quantile_lower").asDouble()).isEqualTo(d.getQuantileLower()[1]);
    assertThat(median.get("quantile_upper").asDouble()).isEqualTo(d.getQuantileUpper()[1]);
    JsonNode circle = row.get("roll");
    assertThat(circle.get("n").asLong()).isEqualTo(roll.getCount());
    assertThat(circle.get("circular_mean").asDouble()).isEqualTo(roll.getCircularMean());
    assertThat(number(circle, "circular_mean_lower")).isEqualTo(roll.getCircularMeanLower());
    assertThat(number(circle, "circular_mean_upper")).isEqualTo(roll.getCircularMeanUpper());
    assertThat(circle.get("resultant_length").asDouble()).isEqualTo(roll.getResultantLength());
    assertThat(number(circle, "resultant_length_lower")).isEqualTo(roll.getResultantLengthLower());
    assertThat(number(circle, "resultant_length_upper")).isEqualTo(roll.getResultantLengthUpper());
  }

  /** A JSON number, or NaN for null (the SQL rows' NULL for the DataStream estimate's NaN). */
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

  @Test
  void badArgumentsOverKafkaGiveNullAndACountedReasonNeverAFailedJob() throws Exception {
    String topic = "ogpm.sql.arguments";
    ENV.kafka().createTopic(topic, 1);
    ENV.kafka().createTopic("ogpm.sql.arguments.perturbed", 1);
    ENV.kafka()
        .produceJson(
            topic,
            "{\"k\":1,\"x\":\"0.5\",\"lo\":0,\"hi\":1,\"eps\":1}",
            "{\"k\":2,\"x\":\"0.5\",\"lo\":0,\"hi\":1,\"eps\":0}",
            "{\"k\":3,\"x\":\"0.5\",\"lo\":1,\"hi\":1,\"eps\":1}",
            "{\"k\":4,\"x\":\"0.5\",\"lo\":null,\"hi\":1,\"eps\":1}",
            "{\"k\":5,\"x\":\"NaN\",\"lo\":0,\"hi\":1,\"eps\":1}",
            "{\"k\":6,\"x\":\"Infinity\",\"lo\":0,\"hi\":1,\"eps\":1}",
            "{\"k\":7,\"x\":\"7\",\"lo\":0,\"hi\":1,\"eps\":1}",
            "{\"k\":8,\"x\":null,\"lo\":0,\"hi\":1,\"eps\":1}",
            "{\"k\":9,\"x\":\"0.5\",\"lo\":0,\"hi\":1,\"eps\":-3}");
    String jar =
        "file://"
            + Path.of(System.getProperty("ogpm.job.jar", "target/ogpm-job.jar")).toAbsolutePath();
    StreamTableEnvironment t = tableEnvironment();
    t.getConfig().set("execution.checkpointing.interval", "1 s");
    t.executeSql(
        "CREATE FUNCTION LDP_PERTURB AS 'io.ogpm.flink.table.LdpPerturb' USING JAR '" + jar + "'");
    t.executeSql(
        "CREATE TABLE arguments (k INT, x STRING, lo DOUBLE, hi DOUBLE, eps DOUBLE) WITH ("
            + "'connector' = 'kafka', 'topic' = '"
            + topic
            + "', 'properties.bootstrap.servers' = '"
            + ENV.bootstrapServers()
            + "', 'scan.startup.mode' = 'earliest-offset', "
            + "'scan.bounded.mode' = 'latest-offset', 'format' = 'json')");
    t.executeSql(
        "CREATE TABLE perturbed_arguments (k INT, y DOUBLE) WITH ("
            + "'connector' = 'kafka', 'topic' = 'ogpm.sql.arguments.perturbed', 'properties.bootstrap.servers' = '"
            + ENV.bootstrapServers()
            + "', 'properties.transaction.timeout.ms' = '600000', "
            + "'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'ogpm-sql-arguments', "
            + "'format' = 'json')");
    long rejectedBefore = ENV.metrics().counter("valuesRejected");
    // A bounded job: it must finish, not fail.
    t.executeSql(
            "INSERT INTO perturbed_arguments SELECT k, LDP_PERTURB(TRY_CAST(x AS DOUBLE), lo, hi, eps) "
                + "FROM arguments")
        .await();
    Map<Integer, JsonNode> out = new HashMap<>();
    for (KafkaRecord r : ENV.kafka().awaitCommitted("ogpm.sql.arguments.perturbed", 9)) {
      JsonNode n = JSON.readTree(r.value());
      out.put(n.get("k").asInt(), n.get("y"));
    }
    assertThat(out).hasSize(9);
    assertThat(out.get(1).isNumber()).isTrue();
    for (int k = 2; k <= 9; k++) {
      assertThat(out.get(k).isNull()).as("row %s", k).isTrue();
    }
    assertThat(ENV.metrics().counter("valuesRejected", "reason", "invalid-argument")).isEqualTo(4);
    assertThat(ENV.metrics().counter("valuesRejected", "reason", "not-a-number")).isEqualTo(2);
    assertThat(ENV.metrics().counter("valuesRejected", "reason", "out-of-range")).isEqualTo(1);
    assertThat(ENV.metrics().counter("valuesRejected", "reason", "null-value")).isEqualTo(1);
    assertThat(ENV.metrics().counter("valuesRejected") - rejectedBefore).isEqualTo(8);

    // Literal arguments are checked before any job starts.
    assertThatThrownBy(
            () ->
                t.executeSql(
                    "INSERT INTO perturbed_arguments SELECT k, "
                        + "LDP_PERTURB(TRY_CAST(x AS DOUBLE), 0, 1, 0) FROM arguments"))
        .isInstanceOf(ValidationException.class)
        .satisfies(
            e ->
                assertThat(
                        ExceptionUtils.findThrowableWithMessage(
                            e, "LDP_PERTURB: eps must be > 0, got 0.0"))
                    .isPresent());
    assertThatThrownBy(
            () ->
                t.executeSql(
                    "INSERT INTO perturbed_arguments SELECT k, "
                        + "LDP_PERTURB(TRY_CAST(x AS DOUBLE), 1, 0, 1) FROM arguments"))
        .satisfies(
            e ->
                assertThat(
                        ExceptionUtils.findThrowableWithMessage(
                            e, "LDP_PERTURB: lo must be < hi, got lo=1.0 and hi=0.0"))
                    .isPresent());
  }

  @Test
  void theReadmeBudgetExampleReleasesThreeReadingsPerUserOnTheBrokersClock() throws Exception {
    String raw = "ogpm.sql.budget.raw";
    ENV.kafka().createRawTopic(raw, 1);
    ENV.kafka().createTopic("ogpm.sql.budget.perturbed", 1);
    List<String> readings = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      readings.add(
          "{\"id\":\"r"
              + i
              + "\",\"user\":\"u"
              + (i % 3)
              + "\",\"ts\":"
              + (1_767_225_600_000L + i)
              + ",\"userAcceleration\":{\"x\":0.25}}");
    }
    ENV.kafka().produceJson(raw, readings);
    long refusedBefore = ENV.metrics().counter("recordsRefused", "reason", "budget-exhausted");
    List<JobClient> jobs = runReadme(tableEnvironment(), readmeStatements(BUDGET_MARKER));
    assertThat(jobs).hasSize(1);
    try {
      List<KafkaRecord> released = ENV.kafka().awaitCommitted("ogpm.sql.budget.perturbed", 9);
      Map<String, List<Double>> spentByUser = new HashMap<>();
      for (KafkaRecord r : released) {
        JsonNode n = JSON.readTree(r.value());
        int i = Integer.parseInt(n.get("id").asText().substring(1));
        spentByUser
            .computeIfAbsent("u" + (i % 3), k -> new ArrayList<>())
            .add(n.get("ldp_budget_spent").asDouble());
        assertThat(n.get("accel_x").isNumber()).isTrue();
        assertThat(n.has("user")).as("the user is not selected: it does not leave").isFalse();
      }
      assertThat(spentByUser).containsOnlyKeys("u0", "u1", "u2");
      spentByUser
          .values()
          .forEach(spent -> assertThat(spent).containsExactlyInAnyOrder(1.0, 2.0, 3.0));
      io.ogpm.testkit.Await.until(
          "six readings refused as budget-exhausted",
          () ->
              ENV.metrics().counter("recordsRefused", "reason", "budget-exhausted") - refusedBefore,
          n -> n == 6);
      assertThat(ENV.kafka().readCommitted("ogpm.sql.budget.perturbed")).hasSize(9);
    } finally {
      for (JobClient job : jobs) {
        job.cancel().get();
      }
    }
  }
}
