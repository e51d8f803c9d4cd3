package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.TwoLevelCellSampler;
import io.ogpm.mechanism.audit.ClopperPearson;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Keyed mode against a producer who reuses record ids on purpose: pairs of records that share an id
 * and a user but carry different values must get independent noise. With shared noise their outputs
 * are equal (both drawn from the background) or shifted by exactly the inputs' distance (both from
 * the bump), so the pair reveals one input to anyone who knows the other.
 *
 * <p>A coarse grid (1,024 cells per domain width, the least that resolves these mechanisms) makes
 * every event's probability under independence sizeable and exactly computable from {@link
 * TwoLevelCellSampler#cellProbabilities}: for pair j with inputs a and b, {@code P_j = sum_k p_a(k)
 * p_b(S_j(k))} where {@code S_j(k) = {k, k + d_j}} and {@code d_j} is the distance of the inputs'
 * grid cells. The count of events over n pairs is then Poisson-binomial with mean {@code n pbar};
 * by Hoeffding (1956, Theorem 4) its tails beyond one unit of the mean are no heavier than those of
 * Binomial(n, pbar), so the exact Clopper-Pearson test of a binomial proportion at level {@value
 * #ALPHA} applies to both sides. Keys, seeds and inputs are fixed, so each run is the same.
 */
class KeyedNoiseReuseTest {
  static final double ALPHA = 1e-4;
  static final int PAIRS = 20_000;
  static final int GRID_BITS = 10;
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      user-field: user
      grid-bits: 10
      fields:
        - name: x
          min: -2
          max: 2
          epsilon: 2
        - name: angle
          domain: circular
          min: 0
          max: 360
          epsilon: 1
          objective: l2
      """);
  static final byte[] KEY = "keyed noise reuse test, 32 bytes".getBytes(StandardCharsets.US_ASCII);
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One field's mechanism, the value-to-cell map of its outputs and its exact cell probabilities.
   */
  record FieldModel(
      String name,
      Mechanism m,
      OutputGrid grid,
      TwoLevelCellSampler cells,
      Map<Double, Long> cellOf) {
    static FieldModel of(FieldConfig f) {
      Mechanism m = MechanismCatalog.of(f.spec());
      OutputGrid grid = OutputGrid.of(GRID_BITS, m.unit());
      Map<Double, Long> cellOf = new HashMap<>();
      for (long k = grid.minCell(); k <= grid.maxCell(); k++) {
        cellOf.put(m.valueOfCell(k), k);
      }
      return new FieldModel(
          f.name(), m, grid, (TwoLevelCellSampler) m.unit().cellSampler(grid), cellOf);
    }

    double unit(double x) {
      return (x - m.domain().lo()) / m.domain().width();
    }

    double[] probabilities(double x) {
      return cells.cellProbabilities(unit(x));
    }

    long cell(double y) {
      Long k = cellOf.get(y);
      assertThat(k).as("%s: output %s is a grid value", name, y).isNotNull();
      return k;
    }

    /** The grid cell holding input x, and the distance of two cells (modulo the circle). */
    long inputCell(double x) {
      return (long) Math.floor(unit(x) * Math.scalb(1.0, GRID_BITS));
    }

    long wrap(long k) {
      return grid.circular() ? Math.floorMod(k, 1L << GRID_BITS) : k;
    }

    /** P(cell2 in {cell1, cell1 + d}) for independent outputs of inputs a and b. */
    double eventProbability(double a, double b) {
      double[] pa = probabilities(a);
      double[] pb = probabilities(b);
      long d = inputCell(b) - inputCell(a);
      double p = 0;
      for (int i = 0; i < pa.length; i++) {
        long k = grid.minCell() + i;
        double q = pb[i];
        long shifted = wrap(k + d);
        if (d != 0
            && shifted >= grid.minCell()
            && shifted <= grid.maxCell()
            && wrap(shifted) != k) {
          q += pb[(int) (shifted - grid.minCell())];
        }
        p += pa[i] * q;
      }
      return p;
    }

    boolean event(double a, double b, long k1, long k2) {
      long d = inputCell(b) - inputCell(a);
      return k2 == k1 || k2 == wrap(k1 + d);
    }

    /**
     * The mid-distribution transform F(k - 1) + p(k) / 2 of cell k for input x: mean 1/2 exactly.
     */
    double midUniform(double x, long k) {
      double[] p = probabilities(x);
      int index = (int) (k - grid.minCell());
      double below = 0;
      for (int i = 0; i < index; i++) {
        below += p[i];
      }
      return below + p[index] / 2;
    }
  }

  /** Inputs of pair j: both in the field's domain. */
  record Pair(String id, double[] first, double[] second) {}

  private static Outcome.Perturbed perturb(
      RecordPerturber p, String id, String user, double x, double angle) {
    String json =
        "{\"id\":" + id + ",\"user\":" + user + ",\"x\":" + x + ",\"angle\":" + angle + "}";
    Outcome o = p.perturb(json.getBytes(StandardCharsets.UTF_8), Source.line(1));
    assertThat(o).as(json).isInstanceOf(Outcome.Perturbed.class);
    return (Outcome.Perturbed) o;
  }

  private static double out(Outcome.Perturbed o, String field) throws Exception {
    return JSON.readTree(o.value()).get(field).asDouble();
  }

  /**
   * The worst a producer can do with ids: every record carries the same id and user, and every
   * value is different (random doubles, so no two records are a replay).
   */
  @Test
  @Tag("slow") // a statistical test; no mutant that faster tests leave
  void oneIdForEveryRecordWithDifferentValuesLeaksNothingBeyondChance() throws Exception {
    AesCtrSource data = AesCtrSource.seeded(11);
    assertPairsLeakNothing(
        j ->
            new Pair(
                "\"mallory-1\"",
                new double[] {-2 + 4 * data.nextUniform(), 360 * data.nextUniform()},
                new double[] {-2 + 4 * data.nextUniform(), 360 * data.nextUniform()}));
  }

  /** Values one ulp apart under a shared id: the smallest difference there is. */
  @Test
  @Tag("slow") // a statistical test; no mutant that faster tests leave
  void valuesOneUlpApartUnderASharedIdGetIndependentNoise() throws Exception {
    AesCtrSource data = AesCtrSource.seeded(12);
    assertPairsLeakNothing(
        j -> {
          double x = -2 + 4 * data.nextUniform();
          double angle = 360 * data.nextUniform();
          return new Pair(
              Integer.toString(j),
              new double[] {x, angle},
              new double[] {Math.nextUp(x), Math.nextUp(angle)});
        });
  }

  private static void assertPairsLeakNothing(IntFunction<Pair> pairs) throws Exception {
    RecordPerturber perturber = new RecordPerturber(CONFIG, RandomnessMode.keyed(KEY));
    FieldModel[] models = {
      FieldModel.of(CONFIG.fields().get(0)), FieldModel.of(CONFIG.fields().get(1))
    };
    long[] events = new long[2];
    double[] expected = new double[2];
    double correlationSum = 0;
    for (int j = 0; j < PAIRS; j++) {
      Pair pair = pairs.apply(j);
      Outcome.Perturbed o1 =
          perturb(perturber, pair.id(), "\"u\"", pair.first()[0], pair.first()[1]);
      Outcome.Perturbed o2 =
          perturb(perturber, pair.id(), "\"u\"", pair.second()[0], pair.second()[1]);
      for (int f = 0; f < 2; f++) {
        FieldModel model = models[f];
        double a = pair.first()[f];
        double b = pair.second()[f];
        long k1 = model.cell(out(o1, model.name()));
        long k2 = model.cell(out(o2, model.name()));
        if (model.event(a, b, k1, k2)) {
          events[f]++;
        }
        expected[f] += model.eventProbability(a, b);
        if (f == 0) {
          correlationSum += (model.midUniform(a, k1) - 0.5) * (model.midUniform(b, k2) - 0.5);
        }
      }
    }
    for (int f = 0; f < 2; f++) {
      double pbar = expected[f] / PAIRS;
      // Dozens of events expected by chance; noise reused under a shared id makes them thousands.
      assertThat(pbar * PAIRS).as("the events are common enough to test").isGreaterThan(20);
      assertThat(ClopperPearson.lower(events[f], PAIRS, ALPHA))
          .as(
              "%s: %s pairs of %s with equal or input-shifted outputs, %s expected",
              models[f].name(), events[f], PAIRS, PAIRS * pbar)
          .isLessThanOrEqualTo(pbar);
      assertThat(ClopperPearson.upper(events[f], PAIRS, ALPHA))
          .as("%s: not fewer than chance either", models[f].name())
          .isGreaterThanOrEqualTo(pbar);
    }
    // Independence of the pair's outputs: for independent outputs each term has mean 0 (each
    // mid-distribution transform has mean exactly 1/2), variance at most (1/12)^2 (a transform's
    // variance is (1 - sum p^3) / 12) and modulus at most 1/4, so by Bernstein's inequality
    // |sum| >= t has probability at most 2 exp(-(t^2 / 2) / (n / 144 + t / 12)) = ALPHA at this t.
    double log = Math.log(2 / ALPHA);
    double t = log / 12 + Math.sqrt(log * log / 144 + 2 * log * PAIRS / 144.0);
    assertThat(Math.abs(correlationSum))
        .as("covariance sum of the outputs' mid-uniforms")
        .isLessThan(t);
  }
}
