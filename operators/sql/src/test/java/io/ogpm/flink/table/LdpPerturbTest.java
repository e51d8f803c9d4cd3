package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.PerturbationPlan;
import io.ogpm.record.RecordValues;
import io.ogpm.record.Source;
import org.junit.jupiter.api.Test;

/**
 * LDP_PERTURB and OGPM_PERTURB called directly: the DataStream operator's mechanism, sampler, grid
 * and random stream (seeded here, to compare draw for draw); NULL, NaN, infinities, out-of-range
 * values and bad arguments give NULL, each counted under its reason; a circle wraps; mechanisms are
 * compiled once per argument tuple.
 */
class LdpPerturbTest {
  static final double[] INPUTS = {-2, -1.5, -0.25, 0, 0.125, 1, 1.999, 2};

  private static LdpPerturb opened(long seed, TestMetrics metrics) {
    LdpPerturb f = new LdpPerturb(seed);
    f.open(metrics);
    return f;
  }

  /** The DataStream operator's plan for one field, seeded as the function is. */
  private static double[] planOutputs(String field, long seed, double[] inputs) {
    PerturbationPlan plan =
        PerturbationPlan.compile(
            PrivacyConfig.parse("fields:\n  - " + field + "\n"), RandomnessMode.seeded(seed));
    RecordValues r = plan.newValues();
    double[] out = new double[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      r.clear();
      r.number(0, inputs[i]);
      assertThat(plan.perturb(r, Source.line(i + 1))).isNull();
      out[i] = r.output(0);
    }
    return out;
  }

  @Test
  void drawsWhatTheDataStreamOperatorDrawsWithTheSameStream() {
    TestMetrics metrics = new TestMetrics();
    LdpPerturb f = opened(11, metrics);
    double[] sql = new double[INPUTS.length * 3];
    double[] inputs = new double[sql.length];
    for (int i = 0; i < sql.length; i++) {
      inputs[i] = INPUTS[i % INPUTS.length];
      sql[i] = f.eval(inputs[i], -2.0, 2.0, 1.0);
    }
    assertThat(sql)
        .containsExactly(planOutputs("{name: x, min: -2, max: 2, epsilon: 1}", 11, inputs));
    assertThat(metrics.count("valuesPerturbed")).isEqualTo(sql.length);

    LdpPerturb g = opened(12, new TestMetrics());
    for (int i = 0; i < sql.length; i++) {
      sql[i] = g.eval(inputs[i], -2.0, 2.0, 0.5, "classical", "staircase", "l2");
    }
    assertThat(sql)
        .containsExactly(
            planOutputs(
                "{name: x, min: -2, max: 2, epsilon: 0.5, mechanism: staircase, objective: l2}",
                12,
                inputs));
  }

  @Test
  void ogpmPerturbIsTheOptimalMechanismWithTheClosedForm() {
    OgpmPerturb f = new OgpmPerturb(5L);
    f.open(new TestMetrics());
    LdpPerturb g = opened(5, new TestMetrics());
    OgpmPerturb circle = new OgpmPerturb(6L);
    circle.open(new TestMetrics());
    LdpPerturb gCircle = opened(6, new TestMetrics());
    for (double x : INPUTS) {
      assertThat(f.eval(x, -2.0, 2.0, 2.0))
          .isEqualTo(g.eval(x, -2.0, 2.0, 2.0, "classical", "ogpm", "l1"));
      assertThat(circle.eval(x, -2.0, 2.0, 2.0, "circular"))
          .isEqualTo(gCircle.eval(x, -2.0, 2.0, 2.0, "circular", "ogpm", "l1"));
    }
  }

  @Test
  void everyOutputIsACellValueOfTheMechanismsInputIndependentGrid() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.OGPM)
                .objective(Objective.L2)
                .domain(Domain.circular(-Math.PI, Math.PI))
                .epsilon(3)
                .build());
    LdpPerturb f = opened(3, new TestMetrics());
    AesCtrSource inputs = AesCtrSource.seeded(4);
    for (int i = 0; i < 5_000; i++) {
      double x = -Math.PI + 2 * Math.PI * inputs.nextUniform();
      double y = f.eval(x, -Math.PI, Math.PI, 3.0, "circular", "ogpm", "l2");
      long k = Math.round((y - m.domain().lo()) / m.cellWidth() - 0.5);
      assertThat(y).isEqualTo(m.valueOfCell(k));
      assertThat(y).isGreaterThanOrEqualTo(m.outputLo()).isLessThan(m.outputHi());
    }
  }

  @Test
  void nullNanInfinitiesAndValuesOutsideAnIntervalGiveNullEachCounted() {
    TestMetrics metrics = new TestMetrics();
    LdpPerturb f = opened(1, metrics);
    assertThat(f.eval(null, 0.0, 1.0, 1.0)).isNull();
    assertThat(f.eval(Double.NaN, 0.0, 1.0, 1.0)).isNull();
    assertThat(f.eval(Double.POSITIVE_INFINITY, 0.0, 1.0, 1.0)).isNull();
    assertThat(f.eval(Double.NEGATIVE_INFINITY, 0.0, 1.0, 1.0, "circular")).isNull();
    assertThat(f.eval(1.0000001, 0.0, 1.0, 1.0)).isNull();
    assertThat(f.eval(-1e-300, 0.0, 1.0, 1.0)).isNull();
    assertThat(metrics.count("valuesRejected", "null-value")).isEqualTo(1);
    assertThat(metrics.count("valuesRejected", "not-a-number")).isEqualTo(3);
    assertThat(metrics.count("valuesRejected", "out-of-range")).isEqualTo(2);
    assertThat(metrics.count("valuesPerturbed")).isZero();
    // The ends themselves are inputs.
    assertThat(f.eval(0.0, 0.0, 1.0, 1.0)).isNotNull();
    assertThat(f.eval(1.0, 0.0, 1.0, 1.0)).isNotNull();
    assertThat(metrics.count("valuesPerturbed")).isEqualTo(2);
  }

  @Test
  void aCircleWrapsAValueToTheSameAngleAndMinusZeroIsZero() {
    double[] wrapped = {0.25, 0.25 + 4, 0.25 - 8, 0.25 + 4e3};
    for (double x : wrapped) {
      LdpPerturb a = opened(21, new TestMetrics());
      LdpPerturb b = opened(21, new TestMetrics());
      assertThat(a.eval(x, -2.0, 2.0, 1.0, "circular"))
          .isEqualTo(b.eval(0.25, -2.0, 2.0, 1.0, "circular"));
    }
    LdpPerturb a = opened(22, new TestMetrics());
    LdpPerturb b = opened(22, new TestMetrics());
    assertThat(a.eval(-0.0, -2.0, 2.0, 1.0)).isEqualTo(b.eval(0.0, -2.0, 2.0, 1.0));
  }

  @Test
  void argumentsThatDefineNoMechanismGiveNullCompiledOnce() {
    TestMetrics metrics = new TestMetrics();
    LdpPerturb f = opened(1, metrics);
    Object[][] bad = {
      {null, 1.0, 1.0, "classical", "ogpm", "l1"},
      {0.0, null, 1.0, "classical", "ogpm", "l1"},
      {0.0, 1.0, null, "classical", "ogpm", "l1"},
      {0.0, 1.0, 0.0, "classical", "ogpm", "l1"},
      {0.0, 1.0, -1.0, "classical", "ogpm", "l1"},
      {0.0, 1.0, Double.NaN, "classical", "ogpm", "l1"},
      {0.0, 1.0, Double.POSITIVE_INFINITY, "classical", "ogpm", "l1"},
      {1.0, 1.0, 1.0, "classical", "ogpm", "l1"},
      {2.0, 1.0, 1.0, "classical", "ogpm", "l1"},
      {Double.NaN, 1.0, 1.0, "classical", "ogpm", "l1"},
      {0.0, 1.0, 1.0, null, "ogpm", "l1"},
      {0.0, 1.0, 1.0, "circle", "ogpm", "l1"},
      {0.0, 1.0, 1.0, "classical", "laplace", "l1"},
      {0.0, 1.0, 1.0, "classical", "purkayastha", "l1"},
      {0.0, 1.0, 1.0, "classical", "pm", "l2"},
      {0.0, 1.0, 1.0, "classical", "ogpm", "l3"},
      {0.0, 1.0, 1.0, "classical", null, "l1"},
      {0.0, 1.0, 1.0, "classical", "ogpm", null},
      {0.0, 1.0, 701.0, "classical", "ogpm", "l1"},
      {1e300, 1.0000000000000002e300, 1.0, "classical", "ogpm", "l1"},
    };
    for (int round = 0; round < 3; round++) {
      for (Object[] a : bad) {
        assertThat(
                f.eval(
                    0.5,
                    (Double) a[0],
                    (Double) a[1],
                    (Double) a[2],
                    (String) a[3],
                    (String) a[4],
                    (String) a[5]))
            .as("arguments %s", java.util.Arrays.toString(a))
            .isNull();
      }
    }
    assertThat(metrics.count("valuesRejected", "invalid-argument")).isEqualTo(3L * bad.length);
    assertThat(f.perturber.compilations()).isEqualTo(bad.length);
    assertThat(metrics.count("valuesPerturbed")).isZero();
  }

  @Test
  void aRowRepeatingThePreviousArgumentsCompilesNothing() {
    LdpPerturb f = opened(1, new TestMetrics());
    for (int i = 0; i < 1_000; i++) {
      f.eval(0.5, 0.0, 1.0, 1.0);
      f.eval(0.5, 0.0, 1.0, 2.0, "circular");
    }
    // Two tuples, each compiled once: alternating rows find the other in the cache.
    assertThat(f.perturber.compilations()).isEqualTo(2);
  }

  @Test
  void callsInOneOperatorShareItsCounters() {
    TestMetrics metrics = new TestMetrics();
    LdpPerturb a = opened(1, metrics);
    OgpmPerturb b = new OgpmPerturb(2L);
    b.open(metrics);
    a.eval(0.5, 0.0, 1.0, 1.0);
    b.eval(0.5, 0.0, 1.0, 1.0);
    a.eval(null, 0.0, 1.0, 1.0);
    b.eval(null, 0.0, 1.0, 1.0);
    assertThat(metrics.count("valuesPerturbed")).isEqualTo(2);
    assertThat(metrics.count("valuesRejected", "null-value")).isEqualTo(2);
  }

  @Test
  void thePlannerIsToldTheFunctionsAreNotDeterministic() {
    assertThat(new LdpPerturb().isDeterministic()).isFalse();
    assertThat(new OgpmPerturb().isDeterministic()).isFalse();
    assertThat(new LdpPerturbKeyed().isDeterministic()).isFalse();
  }
}
