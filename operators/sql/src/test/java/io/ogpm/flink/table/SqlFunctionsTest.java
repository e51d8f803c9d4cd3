package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The functions through Flink's planner and runtime (a local cluster per query): bad literal
 * arguments fail the query when it is planned, with the function's message; bad values and bad
 * non-literal arguments give NULL and the job finishes; the aggregates give in TUMBLE, HOP and
 * CUMULATE windows, in GROUP BY (also over an updating table: retraction) and with two-phase
 * aggregation the rows the functions give called directly (which equal the DataStream
 * aggregation's, {@link EstimateFunctionsTest}); their accumulator is a structured type; the keyed
 * function reads its key from a job parameter on the task. Tagged slow: each query starts a local
 * cluster, too slow to rerun for every mutant.
 */
@Tag("slow")
class SqlFunctionsTest {
  static final long T0 = 1_700_000_000_000L;
  static final Mechanism LINE =
      MechanismCatalog.of(
          MechanismSpec.builder().domain(Domain.classical(-2, 2)).epsilon(1).build());

  @TempDir Path dir;

  private static TableEnvironment batchless() {
    TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    register(t);
    return t;
  }

  private static void register(TableEnvironment t) {
    t.createTemporarySystemFunction("LDP_PERTURB", LdpPerturb.class);
    t.createTemporarySystemFunction("OGPM_PERTURB", OgpmPerturb.class);
    t.createTemporarySystemFunction("LDP_PERTURB_KEYED", LdpPerturbKeyed.class);
    t.createTemporarySystemFunction("LDP_MEAN", LdpMean.class);
    t.createTemporarySystemFunction("LDP_CIRCULAR_MEAN", LdpCircularMean.class);
    t.createTemporarySystemFunction("LDP_HISTOGRAM", LdpHistogram.class);
    t.createTemporarySystemFunction("LDP_QUANTILE", LdpQuantile.class);
    t.createTemporarySystemFunction("LDP_BUDGET", LdpBudget.class);
    t.createTemporarySystemFunction("LDP_PERTURB_POLAR", LdpPerturbPolar.class);
    t.createTemporarySystemFunction("LDP_POLAR_MEAN", LdpPolarMean.class);
  }

  private static List<Row> rows(TableEnvironment t, String query) throws Exception {
    List<Row> out = new ArrayList<>();
    try (CloseableIterator<Row> it = t.executeSql(query).collect()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  private static void refusedAtPlanning(TableEnvironment t, String call, String message) {
    assertThatThrownBy(
            () -> t.executeSql("SELECT " + call + " FROM (VALUES (0.5, 'a')) AS v(x, g)"))
        .isInstanceOf(ValidationException.class)
        .satisfies(
            e ->
                assertThat(ExceptionUtils.findThrowableWithMessage(e, message))
                    .as(
                        "%s: %s",
                        call,
                        ExceptionUtils.stringifyException(e)
                            .lines()
                            .filter(l -> !l.startsWith("\tat"))
                            .collect(java.util.stream.Collectors.joining(" | ")))
                    .isPresent());
  }

  @Test
  void badLiteralArgumentsFailThePlanningNamingTheArgument() {
    TableEnvironment t = batchless();
    refusedAtPlanning(t, "LDP_PERTURB(x, 0, 1, 0)", "LDP_PERTURB: eps must be > 0, got 0.0");
    refusedAtPlanning(t, "LDP_PERTURB(x, 0, 1, -0.5)", "LDP_PERTURB: eps must be > 0, got -0.5");
    refusedAtPlanning(
        t, "LDP_PERTURB(x, 1, 1, 1)", "LDP_PERTURB: lo must be < hi, got lo=1.0 and hi=1.0");
    refusedAtPlanning(
        t,
        "OGPM_PERTURB(x, 2.5, -2.5, 1)",
        "OGPM_PERTURB: lo must be < hi, got lo=2.5 and hi=-2.5");
    refusedAtPlanning(
        t,
        "LDP_PERTURB(x, 0, 1, 1, 'circle')",
        "LDP_PERTURB: domain must be classical or circular, got 'circle'");
    // Calcite refuses an untyped NULL itself; a typed one (CAST) is no literal: NULL per row.
    refusedAtPlanning(t, "LDP_PERTURB(x, NULL, 1, 1)", "Illegal use of 'NULL'");
    refusedAtPlanning(
        t, "LDP_PERTURB_KEYED(1, 'x', x, 0, 1, 0)", "LDP_PERTURB_KEYED: eps must be > 0, got 0.0");
    refusedAtPlanning(t, "LDP_MEAN(x, 0, 1, 0)", "LDP_MEAN: eps must be > 0, got 0.0");
    refusedAtPlanning(
        t,
        "LDP_CIRCULAR_MEAN(x, 0, 1, 1, 'ogpm-u')",
        "LDP_CIRCULAR_MEAN: mechanism ogpm-u is not defined on a circular domain");
    refusedAtPlanning(
        t,
        "LDP_HISTOGRAM(x, 0, 1, 1, 'classical', 'ogpm', 0)",
        "LDP_HISTOGRAM: bins must be in [1, 10000], got 0");
    refusedAtPlanning(
        t, "LDP_QUANTILE(x, 1.5, 0, 1, 1)", "LDP_QUANTILE: p must be in (0, 1), got 1.5");
    refusedAtPlanning(
        t, "LDP_QUANTILE(x, 0, 0, 1, 1)", "LDP_QUANTILE: p must be in (0, 1), got 0.0");
    refusedAtPlanning(
        t,
        "LDP_QUANTILE(x, 0.5, 0, 1, 1, 'classical', 'ogpm', 0)",
        "LDP_QUANTILE: bins must be in [1, 10000], got 0");
    refusedAtPlanning(
        t, "LDP_PERTURB_POLAR(x, x, 0, 3)", "LDP_PERTURB_POLAR: radius_max must be > 0, got 0.0");
    refusedAtPlanning(
        t,
        "LDP_PERTURB_POLAR(x, x, 1, 2, 'l2')",
        "LDP_PERTURB_POLAR: the least total error at epsilon 2.0 gives the radius no share of it");
    refusedAtPlanning(
        t,
        "LDP_POLAR_MEAN(x, x, 50, 9.99, 'l1', 360, 0)",
        "LDP_POLAR_MEAN: angle_min must be < angle_max, got angle_min=360.0 and angle_max=0.0");
  }

  @Test
  void theReadmesPolarExampleRuns() throws Exception {
    // docs/mechanisms.md, "Polar coordinates": its statements after CREATE FUNCTION.
    TableEnvironment t = batchless();
    t.executeSql(
        """
        CREATE TEMPORARY VIEW targets AS
        SELECT sensor, LDP_PERTURB_POLAR(distance, bearing, 50.0, 9.99, 'l1', 0.0, 360.0) AS target
        FROM (VALUES ('a', 12.5, 30.0), ('a', 14.0, 35.0), ('a', 13.0, 20.0), ('b', 40.0, 350.0))
          AS readings(sensor, distance, bearing)
        """);
    Map<String, Row> last = new TreeMap<>();
    for (Row r :
        rows(
            t,
            """
        SELECT sensor, LDP_POLAR_MEAN(target.radius, target.angle, 50.0, 9.99, 'l1', 0.0, 360.0) AS target_mean
        FROM targets GROUP BY sensor
        """)) {
      last.put((String) r.getField(0), (Row) r.getField(1));
    }
    assertThat(last).containsOnlyKeys("a", "b");
    assertThat(last.get("a").getField(0)).isEqualTo(3L);
    assertThat(last.get("a").getField(4)).isEqualTo(3L);
    assertThat(last.get("b").getField(0)).isEqualTo(1L);
  }

  /** Pairs perturbed with LDP_PERTURB_POLAR's arguments (50, 9.99, 'l1', 0, 360), in two groups. */
  private static List<Row> perturbedPairs(int n) {
    LdpPerturbPolar f = new LdpPerturbPolar(41L);
    f.open(new TestMetrics());
    AesCtrSource bits = AesCtrSource.seeded(42);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Row p =
          f.eval(50 * bits.nextUniform(), 90 * bits.nextUniform(), 50.0, 9.99, "l1", 0.0, 360.0);
      rows.add(Row.of(T0 + i, p.getField(0), p.getField(1), i % 3 == 0 ? "a" : "b"));
    }
    return rows;
  }

  @Test
  void polarPairsArePerturbedAsRowsAndEstimatedPerGroup() throws Exception {
    List<Row> pairs = perturbedPairs(2_000);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    register(t);
    t.createTemporaryView(
        "pairs",
        t.fromDataStream(
            env.fromData(
                pairs,
                Types.ROW_NAMED(
                    new String[] {"t", "r", "a", "g"},
                    Types.LONG,
                    Types.DOUBLE,
                    Types.DOUBLE,
                    Types.STRING))));
    Map<String, Row> last = new TreeMap<>();
    for (Row r :
        rows(t, "SELECT g, LDP_POLAR_MEAN(r, a, 50, 9.99, 'l1', 0, 360) FROM pairs GROUP BY g")) {
      last.put((String) r.getField(0), (Row) r.getField(1));
    }
    assertThat(last).containsOnlyKeys("a", "b");
    for (String g : last.keySet()) {
      LdpPolarMean direct = new LdpPolarMean();
      direct.open(new TestMetrics());
      LdpPolarAccumulator acc = direct.createAccumulator();
      pairs.stream()
          .filter(p -> p.getField(3).equals(g))
          .forEach(
              p ->
                  direct.accumulate(
                      acc,
                      (Double) p.getField(1),
                      (Double) p.getField(2),
                      50.0,
                      9.99,
                      "l1",
                      0.0,
                      360.0));
      assertThat(last.get(g)).as(g).isEqualTo(direct.getValue(acc));
    }

    // Perturbed in SQL: a ROW whose fields are cells of the two mechanisms' outputs; NULL for a bad
    // pair.
    List<Row> out =
        rows(
            t,
            """
        SELECT k, p.radius, p.angle FROM (
          SELECT k, LDP_PERTURB_POLAR(r, a, 50, 9.99, 'l1', 0, 360) AS p
          FROM (VALUES (1, 10.0, 45.0), (2, 60.0, 45.0), (3, 10.0, CAST(NULL AS DOUBLE)), (4, 0.0, 400.0))
            AS v(k, r, a))
        """);
    Map<Integer, Row> byKey = new TreeMap<>();
    out.forEach(r -> byKey.put((Integer) r.getField(0), r));
    assertThat(byKey).containsOnlyKeys(1, 2, 3, 4);
    PolarArguments.Split split = new PolarArguments(50.0, 9.99, "l1", 0.0, 360.0).split();
    Mechanism radius = MechanismCatalog.of(split.radius().spec());
    Mechanism angle = MechanismCatalog.of(split.angle().spec());
    for (int k : new int[] {1, 4}) {
      double y = (Double) byKey.get(k).getField(1);
      double z = (Double) byKey.get(k).getField(2);
      assertThat(y).isEqualTo(radius.valueOfCell(Math.round((y - 0) / radius.cellWidth() - 0.5)));
      assertThat(z).isEqualTo(angle.valueOfCell(Math.round((z - 0) / angle.cellWidth() - 0.5)));
      assertThat(z).isBetween(0.0, 360.0);
    }
    for (int k : new int[] {2, 3}) {
      assertThat(byKey.get(k).getField(1)).as("row %s", k).isNull();
      assertThat(byKey.get(k).getField(2)).as("row %s", k).isNull();
    }
  }

  @Test
  void badValuesAndBadColumnArgumentsGiveNullAndTheJobFinishes() throws Exception {
    // From a stream, not VALUES: the planner would fold VALUES' constants into the calls and refuse
    // them as literals while planning.
    List<Row> input =
        List.of(
            Row.of(1, 0.5, 0.0, 1.0, 1.0),
            Row.of(2, null, 0.0, 1.0, 1.0),
            Row.of(3, Double.NaN, 0.0, 1.0, 1.0),
            Row.of(4, Double.POSITIVE_INFINITY, 0.0, 1.0, 1.0),
            Row.of(5, 1.5, 0.0, 1.0, 1.0),
            Row.of(6, 0.5, 0.0, 1.0, 0.0),
            Row.of(7, 0.5, 1.0, 0.0, 1.0),
            Row.of(8, 0.5, null, 1.0, 1.0),
            Row.of(9, 0.5, 0.0, 1.0, Double.NaN));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    register(t);
    t.createTemporaryView(
        "v",
        t.fromDataStream(
            env.fromData(
                input,
                Types.ROW_NAMED(
                    new String[] {"k", "x", "lo", "hi", "eps"},
                    Types.INT,
                    Types.DOUBLE,
                    Types.DOUBLE,
                    Types.DOUBLE,
                    Types.DOUBLE))));
    List<Row> out =
        rows(
            t,
            """
        SELECT k, LDP_PERTURB(x, lo, hi, eps), LDP_PERTURB(x, 0, 1, CAST('NaN' AS DOUBLE)),
               LDP_PERTURB(x, lo, hi, eps, 'circular')
        FROM v
        """);
    Map<Integer, Row> byKey = new TreeMap<>();
    out.forEach(r -> byKey.put((Integer) r.getField(0), r));
    assertThat(byKey).hasSize(9);
    assertThat(byKey.get(1).getField(1)).isNotNull();
    // Out of the interval: NULL; on the circle: wrapped to 0.5 and perturbed.
    assertThat(byKey.get(5).getField(1)).isNull();
    assertThat(byKey.get(5).getField(3)).isNotNull();
    for (int k = 2; k <= 9; k++) {
      if (k != 5) {
        assertThat(byKey.get(k).getField(1)).as("row %s", k).isNull();
        assertThat(byKey.get(k).getField(3)).as("row %s", k).isNull();
      }
    }
    for (Row r : out) {
      assertThat(r.getField(2)).isNull();
    }
  }

  /** Perturbed values with event times over four 10-second windows, in two groups. */
  private static List<Row> perturbedReadings(int n) {
    AesCtrSource bits = AesCtrSource.seeded(31);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long t = T0 + (long) (40_000 * bits.nextUniform());
      double y = LINE.perturb(-2 + 4 * bits.nextUniform() / 2, bits);
      rows.add(Row.of(t, y, i % 3 == 0 ? "a" : "b"));
    }
    // In event-time order: the watermark (1 s behind) would drop most records of a shuffled stream.
    rows.sort(java.util.Comparator.comparing(r -> (Long) r.getField(0)));
    return rows;
  }

  private static StreamTableEnvironment streaming(List<Row> readings) {
    return streaming(readings, 2);
  }

  private static StreamTableEnvironment streaming(List<Row> readings, int parallelism) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    t.getConfig().set("table.local-time-zone", "UTC");
    register(t);
    t.createTemporaryView(
        "readings",
        t.fromDataStream(
            env.fromData(
                readings,
                Types.ROW_NAMED(
                    new String[] {"t", "y", "g"}, Types.LONG, Types.DOUBLE, Types.STRING)),
            Schema.newBuilder()
                .columnByExpression("ts", "TO_TIMESTAMP_LTZ(t, 3)")
                .watermark("ts", "ts - INTERVAL '1' SECOND")
                .build()));
    return t;
  }

  /** The rows LDP_MEAN, LDP_HISTOGRAM and LDP_QUANTILE give for these values, called directly. */
  private static Row expected(List<Double> values) {
    LdpMean mean = new LdpMean();
    mean.open(new TestMetrics());
    LdpHistogram histogram = new LdpHistogram();
    histogram.open(new TestMetrics());
    LdpQuantile quantile = new LdpQuantile();
    quantile.open(new TestMetrics());
    LdpAccumulator m = mean.createAccumulator();
    LdpAccumulator h = histogram.createAccumulator();
    LdpQuantileAccumulator q = quantile.createAccumulator();
    for (double y : values) {
      mean.accumulate(m, y, -2.0, 2.0, 1.0);
      histogram.accumulate(h, y, -2.0, 2.0, 1.0, "classical", "ogpm", 8);
      quantile.accumulate(q, y, 0.5, -2.0, 2.0, 1.0, "classical", "ogpm", 8);
    }
    return Row.of(mean.getValue(m), histogram.getValue(h), quantile.getValue(q));
  }

  /** The expected row per window [start, end) and group, from the window ends of each value. */
  private static Map<String, Row> expectedWindows(
      List<Row> readings, Function<Long, List<long[]>> windowsOf) {
    Map<String, List<Double>> values = new HashMap<>();
    for (Row r : readings) {
      for (long[] w : windowsOf.apply((Long) r.getField(0))) {
        values
            .computeIfAbsent(w[0] + "/" + w[1] + "/" + r.getField(2), k -> new ArrayList<>())
            .add((Double) r.getField(1));
      }
    }
    Map<String, Row> expected = new TreeMap<>();
    values.forEach((k, v) -> expected.put(k, expected(v)));
    return expected;
  }

  private static Map<String, Row> actualWindows(List<Row> out) {
    Map<String, Row> actual = new TreeMap<>();
    for (Row r : out) {
      long start = ((LocalDateTime) r.getField(0)).toInstant(ZoneOffset.UTC).toEpochMilli();
      long end = ((LocalDateTime) r.getField(1)).toInstant(ZoneOffset.UTC).toEpochMilli();
      assertThat(
              actual.put(
                  start + "/" + end + "/" + r.getField(2),
                  Row.of(r.getField(3), r.getField(4), r.getField(5))))
          .as("one row per window and group")
          .isNull();
    }
    return actual;
  }

  private static String windowQuery(String window) {
    return "SELECT window_start, window_end, g, LDP_MEAN(y, -2, 2, 1), "
        + "LDP_HISTOGRAM(y, -2, 2, 1, 'classical', 'ogpm', 8), "
        + "LDP_QUANTILE(y, 0.5, -2, 2, 1, 'classical', 'ogpm', 8) FROM TABLE("
        + window
        + ") "
        + "GROUP BY window_start, window_end, g";
  }

  @Test
  void windowTableFunctionsGiveTheDirectEstimateOfEachWindow() throws Exception {
    List<Row> readings = perturbedReadings(3_000);
    StreamTableEnvironment t = streaming(readings);
    long s = 10_000;
    assertThat(
            actualWindows(
                rows(
                    t,
                    windowQuery("TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND)"))))
        .isEqualTo(
            expectedWindows(
                readings,
                time ->
                    List.of(
                        new long[] {Math.floorDiv(time, s) * s, Math.floorDiv(time, s) * s + s})));
    assertThat(
            actualWindows(
                rows(
                    t,
                    windowQuery(
                        "HOP(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)"))))
        .isEqualTo(
            expectedWindows(
                readings,
                time -> {
                  long last = Math.floorDiv(time, 5_000) * 5_000;
                  return List.of(
                      new long[] {last, last + s}, new long[] {last - 5_000, last + 5_000});
                }));
    assertThat(
            actualWindows(
                rows(
                    t,
                    windowQuery(
                        "CUMULATE(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)"))))
        .isEqualTo(
            expectedWindows(
                readings,
                time -> {
                  long start = Math.floorDiv(time, s) * s;
                  return time - start < 5_000
                      ? List.of(new long[] {start, start + 5_000}, new long[] {start, start + s})
                      : List.of(new long[] {start, start + s});
                }));
  }

  /**
   * Session windows merge the accumulators of sessions that come to overlap ({@code merge}): in
   * each cycle, a group's readings form two sessions (a 2-second gap) until a later-arriving
   * reading, still ahead of the watermark, bridges them; each merged session gets the direct
   * estimate of its values.
   */
  @Test
  void sessionWindowsMergeToTheDirectEstimateOfEachSession() throws Exception {
    AesCtrSource bits = AesCtrSource.seeded(37);
    List<Row> readings = new ArrayList<>();
    for (int cycle = 0; cycle < 6; cycle++) {
      long start = T0 + 20_000L * cycle;
      List<Row> inOrder = new ArrayList<>();
      for (String g : List.of("a", "b")) {
        for (int i = 0; i < 30; i++) {
          // [0, 0.5 s) and [2.6 s, 2.9 s): more than the gap apart; the watermark (1 s behind)
          // stays below 1.9 s.
          long t =
              start
                  + (i % 2 == 0
                      ? (long) (500 * bits.nextUniform())
                      : 2_600 + (long) (300 * bits.nextUniform()));
          inOrder.add(Row.of(t, LINE.perturb(-2 + 2 * bits.nextUniform(), bits), g));
        }
      }
      inOrder.sort(java.util.Comparator.comparing(r -> (Long) r.getField(0)));
      readings.addAll(inOrder);
      for (String g : List.of("a", "b")) {
        readings.add(Row.of(start + 1_950, LINE.perturb(-2 + 2 * bits.nextUniform(), bits), g));
      }
    }
    long gap = 2_000;
    Map<String, List<Long>> timesByGroup = new HashMap<>();
    readings.forEach(
        r ->
            timesByGroup
                .computeIfAbsent((String) r.getField(2), g -> new ArrayList<>())
                .add((Long) r.getField(0)));
    timesByGroup.values().forEach(java.util.Collections::sort);
    Map<String, long[]> sessionOf = new HashMap<>();
    timesByGroup.forEach(
        (g, times) -> {
          int first = 0;
          for (int i = 1; i <= times.size(); i++) {
            if (i == times.size() || times.get(i) - times.get(i - 1) >= gap) {
              long[] session = {times.get(first), times.get(i - 1) + gap};
              for (int j = first; j < i; j++) {
                sessionOf.put(g + "@" + times.get(j), session);
              }
              first = i;
            }
          }
        });
    Map<String, Row> expected = new TreeMap<>();
    Map<String, List<Double>> values = new HashMap<>();
    for (Row r : readings) {
      long[] w = sessionOf.get(r.getField(2) + "@" + r.getField(0));
      values
          .computeIfAbsent(w[0] + "/" + w[1] + "/" + r.getField(2), k -> new ArrayList<>())
          .add((Double) r.getField(1));
    }
    values.forEach((k, v) -> expected.put(k, expected(v)));
    assertThat(expected).hasSize(12);

    StreamTableEnvironment t = streaming(readings, 1);
    assertThat(
            actualWindows(
                rows(
                    t,
                    windowQuery(
                        "SESSION(TABLE readings PARTITION BY g, DESCRIPTOR(ts), INTERVAL '2' SECOND)"))))
        .isEqualTo(expected);
  }

  @Test
  void twoPhaseAggregationMergesToTheSameWindows() throws Exception {
    List<Row> readings = perturbedReadings(2_000);
    StreamTableEnvironment t = streaming(readings);
    t.getConfig().set("table.exec.mini-batch.enabled", "true");
    t.getConfig().set("table.exec.mini-batch.allow-latency", "100 ms");
    t.getConfig().set("table.exec.mini-batch.size", "100");
    t.getConfig().set("table.optimizer.agg-phase-strategy", "TWO_PHASE");
    String query =
        windowQuery(
            "HOP(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)");
    assertThat(t.explainSql(query))
        .contains("LocalWindowAggregate")
        .contains("GlobalWindowAggregate");
    assertThat(actualWindows(rows(t, query)))
        .isEqualTo(
            expectedWindows(
                readings,
                time -> {
                  long last = Math.floorDiv(time, 5_000) * 5_000;
                  return List.of(
                      new long[] {last, last + 10_000}, new long[] {last - 5_000, last + 5_000});
                }));
  }

  @Test
  void groupByGivesTheLastRowOfEachGroupEqualToTheDirectEstimate() throws Exception {
    List<Row> readings = perturbedReadings(1_000);
    StreamTableEnvironment t = streaming(readings);
    Map<String, Row> last = new TreeMap<>();
    for (Row r :
        rows(
            t,
            "SELECT g, LDP_MEAN(y, -2, 2, 1), LDP_HISTOGRAM(y, -2, 2, 1, 'classical', 'ogpm', 8), "
                + "LDP_QUANTILE(y, 0.5, -2, 2, 1, 'classical', 'ogpm', 8) "
                + "FROM readings GROUP BY g")) {
      // A changelog: the last update of a group is its result.
      last.put((String) r.getField(0), Row.of(r.getField(1), r.getField(2), r.getField(3)));
    }
    Map<String, List<Double>> values = new TreeMap<>();
    readings.forEach(
        r ->
            values
                .computeIfAbsent((String) r.getField(2), k -> new ArrayList<>())
                .add((Double) r.getField(1)));
    assertThat(last).containsOnlyKeys("a", "b");
    values.forEach((g, v) -> assertThat(last.get(g)).isEqualTo(expected(v)));
  }

  @Test
  void anUpdatingInputIsRetractedExactly() throws Exception {
    List<Row> readings = perturbedReadings(600);
    // One thread: LAST_VALUE follows arrival order, which then is the list's.
    StreamTableEnvironment t = streaming(readings, 1);
    // Each key's value is replaced by later ones: the mean sees retractions of the old values.
    String query =
        "SELECT LDP_MEAN(y, -2, 2, 1) FROM "
            + "(SELECT MOD(t, 50) AS k, LAST_VALUE(y) AS y FROM readings GROUP BY MOD(t, 50))";
    List<Row> changes = rows(t, query);
    assertThat(changes.stream().map(Row::getKind))
        .contains(org.apache.flink.types.RowKind.UPDATE_BEFORE);
    Row result = (Row) changes.get(changes.size() - 1).getField(0);
    Map<Long, Double> lastByKey = new HashMap<>();
    for (Row r : readings) {
      lastByKey.put((Long) r.getField(0) % 50, (Double) r.getField(1));
    }
    LdpMean mean = new LdpMean();
    mean.open(new TestMetrics());
    LdpAccumulator acc = mean.createAccumulator();
    lastByKey.values().forEach(y -> mean.accumulate(acc, y, -2.0, 2.0, 1.0));
    assertThat(result.getField(0)).isEqualTo((long) lastByKey.size());
    assertThat(result).isEqualTo(mean.getValue(acc));
  }

  @Test
  void theAccumulatorsAreStructuredTypesWithoutRawParts() {
    TableEnvironment t = batchless();
    for (Class<?> accumulator :
        new Class<?>[] {LdpAccumulator.class, LdpQuantileAccumulator.class}) {
      DataType type =
          ((TableEnvironmentImpl) t)
              .getCatalogManager()
              .getDataTypeFactory()
              .createDataType(accumulator);
      assertThat(type.getLogicalType().getTypeRoot()).isEqualTo(LogicalTypeRoot.STRUCTURED_TYPE);
      assertThat(LogicalTypeChecks.hasNested(type.getLogicalType(), l -> l.is(LogicalTypeRoot.RAW)))
          .isFalse();
      assertThat(type.getLogicalType().asSummaryString()).contains("values").contains("histogram");
    }
  }

  @Test
  void theKeyedFunctionReadsItsKeyFromTheJobParameterOnTheTask() throws Exception {
    Path key = dir.resolve("key");
    Files.writeString(key, "sql key for a job parameter test", StandardCharsets.US_ASCII);
    TableEnvironment t = batchless();
    t.getConfig().set("pipeline.global-job-parameters", "ogpm.key-file:" + key);
    String query =
        "SELECT k, LDP_PERTURB_KEYED(k, 'x', x, 0, 1, 1), LDP_PERTURB_KEYED(CAST(k AS STRING), 'x', x, 0, 1, 1)"
            + " FROM (VALUES (1, 0.5), (2, 0.25), (3, 0.75)) AS v(k, x)";
    LdpPerturbKeyed direct = new LdpPerturbKeyed();
    direct.open(io.ogpm.flink.KeySource.file(key), new TestMetrics());
    for (int run = 0; run < 2; run++) {
      for (Row r : rows(t, query)) {
        int k = (Integer) r.getField(0);
        double x = k == 1 ? 0.5 : k == 2 ? 0.25 : 0.75;
        assertThat(r.getField(1)).isEqualTo(direct.eval((long) k, "x", x, 0.0, 1.0, 1.0));
        assertThat(r.getField(2)).isEqualTo(direct.eval(String.valueOf(k), "x", x, 0.0, 1.0, 1.0));
      }
    }
    TableEnvironment noKey = batchless();
    assertThatThrownBy(() -> rows(noKey, query))
        .satisfies(
            e ->
                assertThat(
                        ExceptionUtils.findThrowableWithMessage(
                            e, "LDP_PERTURB_KEYED needs a key on the task managers"))
                    .isPresent());
  }

  @Test
  void theBudgetReleasesEachUsersRowsWithinItsBudgetOnlyOnTheBrokersClock() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    register(t);
    Instant now = Instant.now();
    List<Row> raw = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      // Every fifth row of a user was stamped by its producer: never trusted, never charged.
      raw.add(Row.of("user-" + (i % 4), 0.5, now, i % 20 < 4 ? "CreateTime" : "LogAppendTime"));
    }
    raw.add(Row.of(null, 0.5, now, "LogAppendTime"));
    t.createTemporaryView(
        "raw_readings",
        t.fromDataStream(
            env.fromData(
                raw,
                Types.ROW_NAMED(
                    new String[] {"user_id", "x", "kafka_timestamp", "kafka_timestamp_type"},
                    Types.STRING,
                    Types.DOUBLE,
                    Types.INSTANT,
                    Types.STRING))));
    List<Row> out =
        rows(
            t,
            """
        SELECT user_id, LDP_PERTURB(x, 0, 1, 1.5) AS x, ldp_budget_spent
        FROM LDP_BUDGET(input => TABLE raw_readings PARTITION BY user_id,
                        cost => '1.5', budget => '6', budget_period => '1d')
        """);
    Map<String, List<Double>> spentByUser = new TreeMap<>();
    for (Row r : out) {
      assertThat(r.getField(1)).isNotNull();
      spentByUser
          .computeIfAbsent((String) r.getField(0), k -> new ArrayList<>())
          .add((Double) r.getField(2));
    }
    assertThat(spentByUser).containsOnlyKeys("user-0", "user-1", "user-2", "user-3");
    spentByUser
        .values()
        .forEach(spent -> assertThat(spent).containsExactlyInAnyOrder(1.5, 3.0, 4.5, 6.0));
    assertThat(
            t.explainSql(
                "SELECT * FROM LDP_BUDGET(input => TABLE raw_readings PARTITION BY user_id, "
                    + "cost => '1', budget => '6', budget_period => '1d')"))
        .contains("ProcessTableFunction");
    assertThatThrownBy(
            () ->
                t.executeSql(
                    "SELECT * FROM LDP_BUDGET(input => TABLE raw_readings PARTITION BY user_id,"
                        + " cost => '7', budget => '6', budget_period => '1d')"))
        .satisfies(
            e ->
                assertThat(
                        ExceptionUtils.findThrowableWithMessage(
                            e, "LDP_BUDGET: cost must be > 0 and at most the budget 6.0"))
                    .isPresent());
    assertThatThrownBy(
            () ->
                t.executeSql(
                    "SELECT * FROM LDP_BUDGET(input => TABLE raw_readings PARTITION BY user_id,"
                        + " cost => '1', budget => '6', budget_period => '1d', time_column => 'x')"))
        .satisfies(
            e ->
                assertThat(
                        ExceptionUtils.findThrowableWithMessage(
                            e,
                            "LDP_BUDGET: the clock log-append-time reads column 'x' (time_column)"))
                    .isPresent());
    // Paced: the budget released in slices of the period, each releasing at least one record.
    assertThat(
            t.explainSql(
                "SELECT * FROM LDP_BUDGET(input => TABLE raw_readings PARTITION BY user_id, cost =>"
                    + " '1', budget => '24', budget_period => '1d', pacing => '1h')"))
        .contains("ProcessTableFunction");
    assertThatThrownBy(
            () ->
                t.executeSql(
                    "SELECT * FROM LDP_BUDGET(input => TABLE raw_readings PARTITION BY user_id,"
                        + " cost => '2', budget => '24', budget_period => '1d', pacing => '1h')"))
        .satisfies(
            e ->
                assertThat(
                        ExceptionUtils.findThrowableWithMessage(
                            e,
                            "LDP_BUDGET: pacing PT1H releases 1.0 a slice, less than the cost 2.0;"
                                + " use a pacing of at least PT2H"))
                    .isPresent());
  }
}
