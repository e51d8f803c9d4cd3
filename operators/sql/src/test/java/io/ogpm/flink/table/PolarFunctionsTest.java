package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.PerturbationPlan;
import io.ogpm.record.RecordValues;
import io.ogpm.record.Source;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * LDP_PERTURB_POLAR and LDP_POLAR_MEAN called directly: the configuration's polar item's split and
 * mechanisms (the DataStream operator's draws, draw for draw under the same seed); a pair with a
 * bad coordinate or bad arguments gives NULL, counted, and draws nothing; the polar mean is, bit
 * for bit, LDP_MEAN's and LDP_CIRCULAR_MEAN's at the split eps, merged and retracted alike.
 */
class PolarFunctionsTest {
  static final String ITEM =
      "{domain: polar, radius: {name: r, max: 50}, angle: {name: a, min: 0, max: 360}, "
          + "epsilon: 9.99}";
  static final String RADIANS =
      "{domain: polar, radius: {name: r, max: 1}, "
          + "angle: {name: a, min: 0, max: 6.283185307179586}, epsilon: 7.283185307179586, objective: l2}";

  private static LdpPerturbPolar opened(long seed, TestMetrics metrics) {
    LdpPerturbPolar f = new LdpPerturbPolar(seed);
    f.open(metrics);
    return f;
  }

  /** The DataStream operator's outputs for a polar item, seeded as the function is. */
  private static double[][] planOutputs(String item, long seed, double[][] pairs) {
    PerturbationPlan plan =
        PerturbationPlan.compile(
            PrivacyConfig.parse("fields:\n  - " + item + "\n"), RandomnessMode.seeded(seed));
    RecordValues r = plan.newValues();
    double[][] out = new double[pairs.length][];
    for (int i = 0; i < pairs.length; i++) {
      r.clear();
      r.number(0, pairs[i][0]);
      r.number(1, pairs[i][1]);
      assertThat(plan.perturb(r, Source.line(i + 1))).isNull();
      out[i] = new double[] {r.output(0), r.output(1)};
    }
    return out;
  }

  private static double[][] pairs(int n, double radiusMax, double period, long seed) {
    AesCtrSource bits = AesCtrSource.seeded(seed);
    double[][] p = new double[n][];
    for (int i = 0; i < n; i++) {
      p[i] = new double[] {radiusMax * bits.nextUniform(), period * bits.nextUniform() / 4};
    }
    return p;
  }

  private static double[] pair(Row row) {
    assertThat(row.getArity()).isEqualTo(2);
    return new double[] {(Double) row.getField(0), (Double) row.getField(1)};
  }

  @Test
  void drawsWhatTheDataStreamOperatorDrawsForThePolarItem() {
    double[][] inputs = pairs(300, 50, 360, 1);
    TestMetrics metrics = new TestMetrics();
    LdpPerturbPolar f = opened(7, metrics);
    double[][] sql = new double[inputs.length][];
    for (int i = 0; i < inputs.length; i++) {
      sql[i] = pair(f.eval(inputs[i][0], inputs[i][1], 50.0, 9.99, "l1", 0.0, 360.0));
    }
    assertThat(sql).isDeepEqualTo(planOutputs(ITEM, 7, inputs));
    assertThat(metrics.count("valuesPerturbed")).isEqualTo(2L * inputs.length);

    // The short form: radians on [0, 2 pi), objective l1 unless given.
    double[][] radians = pairs(300, 1, 2 * Math.PI, 2);
    LdpPerturbPolar g = opened(8, new TestMetrics());
    for (int i = 0; i < radians.length; i++) {
      sql[i] = pair(g.eval(radians[i][0], radians[i][1], 1.0, 7.283185307179586, "l2"));
    }
    assertThat(sql).isDeepEqualTo(planOutputs(RADIANS, 8, radians));
    LdpPerturbPolar h = opened(9, new TestMetrics());
    LdpPerturbPolar h2 = opened(9, new TestMetrics());
    for (double[] p : radians) {
      assertThat(pair(h.eval(p[0], p[1], 1.0, 7.283185307179586)))
          .containsExactly(
              pair(h2.eval(p[0], p[1], 1.0, 7.283185307179586, "l1", 0.0, 2 * Math.PI)));
    }
  }

  @Test
  void theSplitIsTheConfigurationsToTheBit() {
    for (String item : new String[] {ITEM, RADIANS}) {
      List<FieldConfig> fields = PrivacyConfig.parse("fields:\n  - " + item + "\n").fields();
      boolean degrees = item == ITEM;
      PolarArguments.Split split =
          new PolarArguments(
                  degrees ? 50.0 : 1.0,
                  degrees ? 9.99 : 7.283185307179586,
                  degrees ? "l1" : "l2",
                  0.0,
                  degrees ? 360.0 : 2 * Math.PI)
              .split();
      assertThat(split.radius().spec()).isEqualTo(fields.get(0).spec());
      assertThat(split.angle().spec()).isEqualTo(fields.get(1).spec());
      assertThat(split.radius().eps()).isEqualTo(fields.get(0).epsilon());
      assertThat(split.angle().eps()).isEqualTo(fields.get(1).epsilon());
    }
  }

  @Test
  void aPairWithABadCoordinateGivesNullCountedAndDrawsNothing() {
    TestMetrics metrics = new TestMetrics();
    LdpPerturbPolar f = opened(3, metrics);
    Double[][] bad = {
      {null, 10.0},
      {10.0, null},
      {Double.NaN, 10.0},
      {10.0, Double.POSITIVE_INFINITY},
      {-1e-9, 10.0},
      {50.000001, 10.0},
      {null, Double.NaN}
    };
    for (Double[] p : bad) {
      assertThat(f.eval(p[0], p[1], 50.0, 9.99, "l1", 0.0, 360.0)).as(Arrays.toString(p)).isNull();
    }
    assertThat(metrics.count("valuesRejected", "null-value")).isEqualTo(3);
    assertThat(metrics.count("valuesRejected", "not-a-number")).isEqualTo(3);
    assertThat(metrics.count("valuesRejected", "out-of-range")).isEqualTo(2);
    assertThat(metrics.count("valuesPerturbed")).isZero();
    // Nothing was drawn: the next pair is the first pair of a fresh stream with the same seed.
    LdpPerturbPolar fresh = opened(3, new TestMetrics());
    assertThat(pair(f.eval(50.0, 10.0, 50.0, 9.99, "l1", 0.0, 360.0)))
        .containsExactly(pair(fresh.eval(50.0, 10.0, 50.0, 9.99, "l1", 0.0, 360.0)));
    assertThat(metrics.count("valuesPerturbed")).isEqualTo(2);
  }

  @Test
  void anAngleOffTheCircleWrapsToTheSameAngleAndMinusZeroIsZero() {
    for (double a : new double[] {370, -350, 10 + 360 * 1000}) {
      assertThat(pair(opened(4, new TestMetrics()).eval(0.0, a, 50.0, 9.99, "l1", 0.0, 360.0)))
          .containsExactly(
              pair(opened(4, new TestMetrics()).eval(0.0, 10.0, 50.0, 9.99, "l1", 0.0, 360.0)));
    }
    assertThat(pair(opened(5, new TestMetrics()).eval(-0.0, -0.0, 50.0, 9.99)))
        .containsExactly(pair(opened(5, new TestMetrics()).eval(0.0, 0.0, 50.0, 9.99)));
  }

  /** Arguments that define no pair, each naming what is wrong when compiled. */
  static final Object[][] BAD_ARGUMENTS = {
    {null, 9.99, "l1", 0.0, 360.0},
    {0.0, 9.99, "l1", 0.0, 360.0},
    {-1.0, 9.99, "l1", 0.0, 360.0},
    {Double.POSITIVE_INFINITY, 9.99, "l1", 0.0, 360.0},
    {50.0, null, "l1", 0.0, 360.0},
    {50.0, 0.0, "l1", 0.0, 360.0},
    {50.0, Double.NaN, "l1", 0.0, 360.0},
    {50.0, 701.0, "l1", 0.0, 360.0},
    {50.0, 9.99, null, 0.0, 360.0},
    {50.0, 9.99, "l3", 0.0, 360.0},
    {50.0, 9.99, "l1", null, 360.0},
    {50.0, 9.99, "l1", 0.0, null},
    {50.0, 9.99, "l1", 360.0, 360.0},
    {50.0, 9.99, "l1", Double.NEGATIVE_INFINITY, 360.0},
    // The best split gives the radius nothing (eps 2 on [0, 1), square error), or the angle (R =
    // 1000).
    {1.0, 2.0, "l2", 0.0, 360.0},
    {1000.0, 2.0, "l1", 0.0, 360.0},
  };

  @Test
  void argumentsThatDefineNoPairGiveNullCompiledOnce() {
    TestMetrics metrics = new TestMetrics();
    LdpPerturbPolar f = opened(1, metrics);
    for (int round = 0; round < 3; round++) {
      for (Object[] a : BAD_ARGUMENTS) {
        assertThat(
                f.eval(
                    0.5,
                    0.5,
                    (Double) a[0],
                    (Double) a[1],
                    (String) a[2],
                    (Double) a[3],
                    (Double) a[4]))
            .as("arguments %s", Arrays.toString(a))
            .isNull();
      }
    }
    assertThat(metrics.count("valuesRejected", "invalid-argument"))
        .isEqualTo(3L * BAD_ARGUMENTS.length);
    assertThat(f.perturber.compilations()).isEqualTo(BAD_ARGUMENTS.length);
    assertThat(metrics.count("valuesPerturbed")).isZero();
  }

  @Test
  void theArgumentsSayWhatIsWrong() {
    String[] messages = {
      "radius_max must not be NULL",
      "radius_max must be > 0, got 0.0",
      "radius_max must be > 0, got -1.0",
      "radius_max must be a finite number, got Infinity",
      "eps must not be NULL",
      "eps must be > 0, got 0.0",
      "eps must be a finite number, got NaN",
      "eps must be <= 700.0, got 701.0",
      "objective must not be NULL",
      "objective must be l1 or l2, got 'l3'",
      "angle_min must not be NULL",
      "angle_max must not be NULL",
      "angle_min must be < angle_max, got angle_min=360.0 and angle_max=360.0",
      "angle_min must be a finite number, got -Infinity",
      "the least total error at epsilon 2.0 gives the radius no share of it (see ogpm polar-split)",
      "the least total error at epsilon 2.0 gives the angle no share of it (see ogpm polar-split)"
    };
    for (int i = 0; i < BAD_ARGUMENTS.length; i++) {
      Object[] a = BAD_ARGUMENTS[i];
      PolarArguments p =
          new PolarArguments(
              (Double) a[0], (Double) a[1], (String) a[2], (Double) a[3], (Double) a[4]);
      org.assertj.core.api.Assertions.assertThatThrownBy(p::split)
          .as(Arrays.toString(a))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(messages[i]);
    }
  }

  @Test
  void aRowRepeatingThePreviousArgumentsCompilesNothing() {
    LdpPerturbPolar f = opened(1, new TestMetrics());
    for (int i = 0; i < 1_000; i++) {
      f.eval(0.5, 0.5, 1.0, 7.0);
      f.eval(0.5, 0.5, 50.0, 9.99, "l1", 0.0, 360.0);
    }
    assertThat(f.perturber.compilations()).isEqualTo(2);
    assertThat(new LdpPerturbPolar().isDeterministic()).isFalse();
  }

  /** Whether y is a cell value of the mechanism's output grid. */
  private static boolean onGrid(io.ogpm.mechanism.Mechanism m, double y) {
    long k = Math.round((y - m.domain().lo()) / m.cellWidth() - 0.5);
    return y == m.valueOfCell(k) && y >= m.outputLo() && y < m.outputHi();
  }

  @Test
  @Tag("slow") // about 2 s; no mutant that faster tests leave
  void eachArgumentSelectsItsOwnMechanismsBetweenAlternatingRows() {
    Object[] base = {5.0, 9.99, "l1", 0.0, 360.0};
    Object[][] variants = {
      {1.0, 9.99, "l1", 0.0, 360.0},
      {5.0, 12.0, "l1", 0.0, 360.0},
      {5.0, 9.99, "l2", 0.0, 360.0},
      {5.0, 9.99, "l1", -1.0, 360.0},
      {5.0, 9.99, "l1", 0.0, 1.0}
    };
    LdpPerturbPolar f = opened(6, new TestMetrics());
    for (Object[] v : variants) {
      for (Object[] a : new Object[][] {base, v, base, v}) {
        PolarArguments args =
            new PolarArguments(
                (Double) a[0], (Double) a[1], (String) a[2], (Double) a[3], (Double) a[4]);
        PolarArguments.Split split = args.split();
        for (int i = 0; i < 20; i++) {
          double[] y =
              pair(
                  f.eval(
                      0.5,
                      0.5,
                      args.radiusMax(),
                      args.eps(),
                      args.objective(),
                      args.angleMin(),
                      args.angleMax()));
          assertThat(
                  onGrid(
                      io.ogpm.mechanism.catalog.MechanismCatalog.of(split.radius().spec()), y[0]))
              .as("radius of %s", Arrays.toString(a))
              .isTrue();
          assertThat(
                  onGrid(io.ogpm.mechanism.catalog.MechanismCatalog.of(split.angle().spec()), y[1]))
              .as("angle of %s", Arrays.toString(a))
              .isTrue();
        }
      }
    }
  }

  @Test
  void argumentsMatchOnlyWhenEveryOneIsTheSame() {
    PolarArguments a = new PolarArguments(5.0, 9.99, "l1", 0.0, 360.0);
    assertThat(a.matches(5.0, 9.99, "l1", 0.0, 360.0)).isTrue();
    assertThat(a.matches(4.0, 9.99, "l1", 0.0, 360.0)).isFalse();
    assertThat(a.matches(5.0, 9.0, "l1", 0.0, 360.0)).isFalse();
    assertThat(a.matches(5.0, 9.99, "l2", 0.0, 360.0)).isFalse();
    assertThat(a.matches(5.0, 9.99, "l1", -0.0, 360.0)).isFalse();
    assertThat(a.matches(5.0, 9.99, "l1", 0.0, 361.0)).isFalse();
    assertThat(a.matches(null, 9.99, "l1", 0.0, 360.0)).isFalse();
    assertThat(
            new PolarArguments(null, null, null, null, null).matches(null, null, null, null, null))
        .isTrue();
  }

  @Test
  void aKeyedPerturberRefusesPolarCalls() {
    ValuePerturber p =
        ValuePerturber.keyed(
            io.ogpm.mechanism.random.KeyedPrf.fromSecret(
                "a key for a polar test, 32 bytes"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
            FunctionMetrics.of(new TestMetrics()));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> p.perturbPolar(1.0, 1.0, p.polarMechanismsOf(5.0, 9.99, "l1", 0.0, 360.0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("this perturber has no stream");
  }

  // ---- LDP_POLAR_MEAN

  /** n pairs perturbed by LDP_PERTURB_POLAR with ITEM's arguments. */
  private static double[][] perturbedPairs(int n, long seed) {
    LdpPerturbPolar f = opened(seed, new TestMetrics());
    double[][] inputs = pairs(n, 50, 360, seed + 100);
    double[][] y = new double[n][];
    for (int i = 0; i < n; i++) {
      y[i] = pair(f.eval(inputs[i][0], inputs[i][1], 50.0, 9.99, "l1", 0.0, 360.0));
    }
    return y;
  }

  private static LdpPolarMean polarMean(TestMetrics metrics) {
    LdpPolarMean f = new LdpPolarMean();
    f.open(metrics);
    return f;
  }

  /** What LDP_MEAN and LDP_CIRCULAR_MEAN give, at the split eps, for these pairs. */
  private static Row separately(double[][] values) {
    PolarArguments.Split split = new PolarArguments(50.0, 9.99, "l1", 0.0, 360.0).split();
    LdpMean mean = new LdpMean();
    mean.open(new TestMetrics());
    LdpCircularMean circular = new LdpCircularMean();
    circular.open(new TestMetrics());
    LdpAccumulator m = mean.createAccumulator();
    LdpAccumulator c = circular.createAccumulator();
    for (double[] v : values) {
      mean.accumulate(m, v[0], 0.0, 50.0, split.radius().eps(), "ogpm", "l1");
      circular.accumulate(c, v[1], 0.0, 360.0, split.angle().eps(), "ogpm", "l1");
    }
    Row r = mean.getValue(m);
    Row a = circular.getValue(c);
    return Row.of(
        r.getField(0),
        r.getField(1),
        r.getField(2),
        r.getField(3),
        a.getField(0),
        a.getField(1),
        a.getField(2),
        a.getField(3),
        a.getField(4),
        a.getField(5),
        a.getField(6),
        r.getField(6));
  }

  @Test
  void thePolarMeanIsLdpMeanAndLdpCircularMeanAtTheSplitEps() {
    for (int n : new int[] {3, 40, 3_000}) {
      double[][] values = perturbedPairs(n, n);
      TestMetrics metrics = new TestMetrics();
      LdpPolarMean f = polarMean(metrics);
      LdpPolarAccumulator acc = f.createAccumulator();
      for (double[] v : values) {
        f.accumulate(acc, v[0], v[1], 50.0, 9.99, "l1", 0.0, 360.0);
      }
      Row r = f.getValue(acc);
      Row expected = separately(values);
      assertThat(r.getArity()).isEqualTo(12);
      for (int i = 0; i < 12; i++) {
        assertThat(r.getField(i)).as("field %s, n = %s", i, n).isEqualTo(expected.getField(i));
      }
      assertThat(r.getField(0)).isEqualTo((long) n);
      assertThat(r.getField(4)).isEqualTo((long) n);
      assertThat(r.getField(2)).isNotNull();
      assertThat(r.getField(9)).isNotNull();
      assertThat(metrics.count("valuesAggregated")).isEqualTo(2L * n);
    }
  }

  @Test
  void mergedAndRetractedAccumulatorsGiveTheEstimateOfTheValuesTheyHold() {
    double[][] values = perturbedPairs(900, 5);
    LdpPolarMean f = polarMean(new TestMetrics());
    List<LdpPolarAccumulator> parts = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      LdpPolarAccumulator acc = f.createAccumulator();
      for (int i = p * 300; i < p * 300 + 300; i++) {
        f.accumulate(acc, values[i][0], values[i][1], 50.0, 9.99, "l1", 0.0, 360.0);
      }
      parts.add(acc);
    }
    LdpPolarAccumulator merged = f.createAccumulator();
    f.merge(merged, parts);
    assertThat(f.getValue(merged)).isEqualTo(separately(values));

    // Retract the first 300: the estimate of the other 600.
    for (int i = 0; i < 300; i++) {
      f.retract(merged, values[i][0], values[i][1], 50.0, 9.99, "l1", 0.0, 360.0);
    }
    assertThat(f.getValue(merged)).isEqualTo(separately(Arrays.copyOfRange(values, 300, 900)));
    // The short form's circle is [0, 2 pi), its radius the same mechanism: the radii are retracted,
    // the angles, of another circle, are left out and stay.
    TestMetrics metrics = new TestMetrics();
    LdpPolarMean g = polarMean(metrics);
    for (int i = 300; i < 900; i++) {
      g.retract(merged, values[i][0], values[i][1], 50.0, 9.99);
    }
    Row angles = g.getValue(merged);
    Row expected = separately(Arrays.copyOfRange(values, 300, 900));
    for (int i = 0; i < 11; i++) {
      assertThat(angles.getField(i))
          .as("field %s", i)
          .isEqualTo(i < 4 ? null : expected.getField(i));
    }
    assertThat(metrics.count("valuesSkipped", "other-mechanism")).isEqualTo(600);
    for (int i = 300; i < 900; i++) {
      g.retract(merged, values[i][0], values[i][1], 50.0, 9.99, "l1", 0.0, 360.0);
    }
    assertThat(metrics.count("valuesSkipped", "absent-value")).isEqualTo(600);
    assertThat(f.getValue(merged)).isNull();
  }

  @Test
  void whatIsLeftOutIsCountedPerCoordinate() {
    TestMetrics metrics = new TestMetrics();
    LdpPolarMean f = polarMean(metrics);
    LdpPolarAccumulator acc = f.createAccumulator();
    assertThat(f.getValue(acc)).isNull();
    for (Object[] a : BAD_ARGUMENTS) {
      f.accumulate(
          acc, 1.0, 1.0, (Double) a[0], (Double) a[1], (String) a[2], (Double) a[3], (Double) a[4]);
    }
    assertThat(metrics.count("valuesSkipped", "invalid-argument"))
        .isEqualTo(2L * BAD_ARGUMENTS.length);
    assertThat(f.getValue(acc)).isNull();
    // A radius only: the angle's columns are NULL; an angle no perturbation can output is left out.
    f.accumulate(acc, 10.0, null, 50.0, 9.99, "l1", 0.0, 360.0);
    f.accumulate(acc, 10.0, Double.NaN, 50.0, 9.99, "l1", 0.0, 360.0);
    Row r = f.getValue(acc);
    assertThat(r.getField(0)).isEqualTo(2L);
    assertThat(r.getField(1)).isNotNull();
    for (int i = 4; i < 11; i++) {
      assertThat(r.getField(i)).as("field %s", i).isNull();
    }
    assertThat(metrics.count("valuesSkipped", "not-a-perturbed-value")).isEqualTo(1);
    // An angle only.
    LdpPolarAccumulator angles = f.createAccumulator();
    f.accumulate(angles, null, 10.0, 50.0, 9.99, "l1", 0.0, 360.0);
    Row a = f.getValue(angles);
    for (int i = 0; i < 4; i++) {
      assertThat(a.getField(i)).as("field %s", i).isNull();
    }
    assertThat(a.getField(4)).isEqualTo(1L);
    // Pairs of another split are left out of a bound accumulator.
    f.accumulate(acc, 10.0, 10.0, 50.0, 9.0, "l1", 0.0, 360.0);
    assertThat(metrics.count("valuesSkipped", "other-mechanism")).isEqualTo(2);
  }

  @Test
  void opensFromTheTasksContextAndRepeatsArgumentsWithoutCompiling() {
    LdpPolarMean f = new LdpPolarMean();
    f.open(
        new org.apache.flink.table.functions.FunctionContext(
            null,
            null,
            new org.apache.flink.api.common.functions.WithConfigurationOpenContext(
                new org.apache.flink.configuration.Configuration())));
    LdpPolarAccumulator acc = f.createAccumulator();
    f.accumulate(acc, 1.0, 1.0, 50.0, 9.99);
    f.accumulate(acc, 1.0, 1.0, 50.0, 9.99, "l1");
    assertThat(f.getValue(acc).getField(0)).isEqualTo(2L);
    LdpPerturbPolar p = new LdpPerturbPolar();
    p.open(
        new org.apache.flink.table.functions.FunctionContext(
            null,
            null,
            new org.apache.flink.api.common.functions.WithConfigurationOpenContext(
                new org.apache.flink.configuration.Configuration())));
    assertThat((Double) p.eval(1.0, 1.0, 50.0, 9.99).getField(0)).isBetween(-50.0, 100.0);
  }
}
