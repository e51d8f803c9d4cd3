package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismType;
import org.junit.jupiter.api.Test;

/**
 * The run-structured products on matrices chosen by hand, with small dyadic entries so that every
 * sum is exact and the structured products must equal the dense ones bit for bit; when a matrix is
 * declined; the bounds' formulas; and the smoothing step at its ends.
 */
class RunRowsTest {
  private static final double U = 0x1p-53;

  /**
   * Row 0: background 1, one run [2, 4) of 2. Row 1: constant. Row 2: background 2 (the most
   * frequent), runs [0, 1), [3, 4), [4, 5), [7, 8). Row 3: background 4, one run [4, 6) of 6.
   */
  private static final double[][] T = {
    {1, 1, 2, 2, 1, 1, 1, 1},
    {3, 3, 3, 3, 3, 3, 3, 3},
    {0.5, 2, 2, 0.5, 7, 2, 2, 9},
    {4, 4, 4, 4, 6, 6, 4, 4},
  };

  /** The entries squared: the same runs. */
  private static final double[][] SQUARES = squares(T);

  /** Runs elsewhere than T's (row 1 now has one): computed apart, not in T's pass. */
  private static final double[][] OTHER = {
    {1, 1, 2, 2, 1, 1, 1, 1},
    {3, 3, 3, 3, 3, 3, 3, 5},
    {0.5, 2, 2, 0.5, 7, 2, 2, 9},
    {4, 4, 4, 4, 6, 6, 4, 4},
  };

  private static final double[] X = {0.25, 0, 1, 2, 0.5, 4, 0.125, 8};
  private static final double[] W = {2, 0, 0.5, 1};

  private static double[][] squares(double[][] a) {
    double[][] s = new double[a.length][];
    for (int j = 0; j < a.length; j++) {
      s[j] = new double[a[j].length];
      for (int i = 0; i < a[j].length; i++) {
        s[j][i] = a[j][i] * a[j][i];
      }
    }
    return s;
  }

  private static double[] denseApply(double[][] a, double[] x) {
    double[] out = new double[a.length];
    for (int j = 0; j < a.length; j++) {
      for (int i = 0; i < x.length; i++) {
        out[j] += a[j][i] * x[i];
      }
    }
    return out;
  }

  private static double[] denseTransposed(double[][] a, double[] w) {
    double[] out = new double[a[0].length];
    for (int j = 0; j < a.length; j++) {
      for (int i = 0; i < out.length; i++) {
        out[i] += a[j][i] * w[j];
      }
    }
    return out;
  }

  @Test
  void rowsAreTheirMostFrequentEntryPlusRunsOfOthers() {
    RunRows runs = RunRows.of(T);
    assertThat(runs).isNotNull();
    assertThat(runs.runs()).isEqualTo(6);
    assertThat(
            new int[] {runs.runsInRow(0), runs.runsInRow(1), runs.runsInRow(2), runs.runsInRow(3)})
        .containsExactly(1, 0, 4, 1);
    // A_j = L_j + sum of |excess|: row 2 is 2 + 1.5 + 1.5 + 5 + 7.
    assertThat(runs.magnitude(0)).isEqualTo(2);
    assertThat(runs.magnitude(1)).isEqualTo(3);
    assertThat(runs.magnitude(2)).isEqualTo(17);
    assertThat(runs.magnitude(3)).isEqualTo(6);
    assertThat(runs.sameRuns(RunRows.of(SQUARES))).isTrue();
    assertThat(runs.sameRuns(RunRows.of(OTHER))).isFalse();
  }

  @Test
  void withExactSumsTheProductsEqualTheDenseOnes() {
    TransitionMatrix t = TransitionMatrix.of(T, SQUARES, false);
    assertThat(t.structured()).isTrue();
    assertThat(t.apply(X)).containsExactly(denseApply(T, X));
    assertThat(t.applyMeanSquare(X)).containsExactly(denseApply(SQUARES, X));
    assertThat(t.applyTransposed(W)).containsExactly(denseTransposed(T, W));
    double[][] both = t.applyWithMeanSquare(X);
    assertThat(both[0]).containsExactly(denseApply(T, X));
    assertThat(both[1]).containsExactly(denseApply(SQUARES, X));
    // Mean squares with other runs: the same numbers, computed in two passes.
    TransitionMatrix apart = TransitionMatrix.of(T, OTHER, false);
    assertThat(apart.structured()).isTrue();
    double[][] twoPasses = apart.applyWithMeanSquare(X);
    assertThat(twoPasses[0]).containsExactly(denseApply(T, X));
    assertThat(twoPasses[1]).containsExactly(denseApply(OTHER, X));
    // The dense reference: the same, and zero weights skipped without changing a sum.
    TransitionMatrix dense = t.dense();
    assertThat(dense.structured()).isFalse();
    assertThat(dense.runs()).isNull();
    assertThat(dense.apply(X)).containsExactly(denseApply(T, X));
    assertThat(dense.applyTransposed(W)).containsExactly(denseTransposed(T, W));
    assertThat(dense.applyWithMeanSquare(X)[1]).containsExactly(denseApply(SQUARES, X));
  }

  @Test
  void entriesAreComparedExactly() {
    // Two entries 2^-40 apart are two runs, not one: the runs are found, never approximated.
    double[][] close = {{1, 1, 1, 1 + 0x1p-40, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 2, 2, 2 + 0x1p-40}};
    RunRows runs = RunRows.of(close);
    assertThat(runs.runs()).isEqualTo(2);
    assertThat(runs.runsInRow(0)).isEqualTo(1);
    TransitionMatrix t = TransitionMatrix.of(close, close, false);
    assertThat(t.apply(X)).containsExactly(denseApply(close, X));
    assertThat(t.applyTransposed(new double[] {0.5, 2}))
        .containsExactly(denseTransposed(close, new double[] {0.5, 2}));
  }

  @Test
  void moreRunsThanRowsTimesFourAreKept() {
    // 2 x 64: room for 24 runs at first, 32 at most; 30 runs (a 1 at every odd column below 30).
    double[][] many = new double[2][64];
    for (int j = 0; j < 2; j++) {
      for (int i = 1; i < 30; i += 2) {
        many[j][i] = j + 1;
      }
    }
    RunRows runs = RunRows.of(many);
    assertThat(runs.runs()).isEqualTo(30);
    double[] x = new double[64];
    for (int i = 0; i < 64; i++) {
      x[i] = i % 5;
    }
    TransitionMatrix t = TransitionMatrix.of(many, many, false);
    assertThat(t.apply(x)).containsExactly(denseApply(many, x));
    assertThat(t.applyTransposed(new double[] {3, 0.25}))
        .containsExactly(denseTransposed(many, new double[] {3, 0.25}));
  }

  @Test
  void aMatrixWithManyRunsKeepsTheDenseProducts() {
    // 32 entries, all different: 32 runs, more than a quarter of the entries (8).
    double[][] distinct = new double[4][8];
    for (int j = 0; j < 4; j++) {
      for (int i = 0; i < 8; i++) {
        distinct[j][i] = 1 + j * 8 + i;
      }
    }
    assertThat(RunRows.of(distinct)).isNull();
    // One run too many: 9 > 8 (row 0 gains three, T has six).
    double[][] nine = {T[0].clone(), T[1].clone(), T[2].clone(), T[3].clone()};
    nine[1][0] = 5;
    nine[1][2] = 5;
    nine[1][7] = 5;
    assertThat(RunRows.of(nine)).isNull();
    double[][] eight = {T[0].clone(), T[1].clone(), T[2].clone(), T[3].clone()};
    eight[1][0] = 5;
    eight[1][7] = 5;
    assertThat(RunRows.of(eight).runs()).isEqualTo(8);
    // Either matrix without runs makes both dense.
    TransitionMatrix t = TransitionMatrix.of(distinct, squares(distinct), true);
    assertThat(t.structured()).isFalse();
    assertThat(t.circular()).isTrue();
    assertThat(TransitionMatrix.of(T, distinct, false).structured()).isFalse();
    assertThat(TransitionMatrix.of(distinct, SQUARES, false).structured()).isFalse();
    assertThat(t.apply(X)).containsExactly(denseApply(distinct, X));
    assertThat(t.applyMeanSquare(X)).containsExactly(denseApply(squares(distinct), X));
    assertThat(t.applyTransposed(W)).containsExactly(denseTransposed(distinct, W));
  }

  @Test
  void theBoundsAreTheDerivedFormulas() {
    RunRows runs = RunRows.of(T);
    double sum = 0;
    for (double x : X) {
      sum += x;
    }
    // (2k + R_j + 5) u A_j sum x, k = 8 columns.
    assertThat(runs.applyBound(2, X)).isEqualTo((2 * 8 + 4 + 5) * U * 17 * sum);
    assertThat(runs.applyBound(1, X)).isEqualTo((2 * 8 + 0 + 5) * U * 3 * sum);
    // (m + 4N + 4) u sum_j A_j w_j, m = 4 rows, N = 6 runs.
    assertThat(runs.transposedBound(W))
        .isEqualTo((4 + 4 * 6 + 4) * U * (2 * 2 + 3 * 0 + 17 * 0.5 + 6 * 1));
  }

  @Test
  void reconstructionWithTheRunsMatchesTheDenseOne() {
    // The shipped path on OGPM, eps 2, 50 bins: the same stop and the same estimate to one EMS
    // step's rounding bound (StructuredProducts.stepBound).
    Mechanism m = StructuredProducts.mechanism(MechanismType.OGPM, 2, false);
    FieldBinning binning = FieldBinning.of(m, 50);
    TransitionMatrix t = TransitionMatrix.of(m, binning);
    assertThat(t.structured()).isTrue();
    // About 2,000 records from a bump: a window plain EMS stops within 2,000 steps.
    double[] truth = new double[50];
    for (int i = 0; i < 50; i++) {
      truth[i] = i >= 30 && i < 40 ? 0.08 : 0.2 / 40;
    }
    double[] pi = t.apply(truth);
    long[] counts = new long[t.rows()];
    for (int j = 0; j < counts.length; j++) {
      counts[j] = Math.round(2_000 * pi[j]) + (j % 3);
    }
    // Plain EMS (the accelerated path depends on the products' last bits).
    Reconstruction.Result fast =
        Reconstruction.em(counts, t, Reconstruction.Schedule.PLAIN.maxIterations(2_000));
    Reconstruction.Result slow =
        Reconstruction.em(counts, t.dense(), Reconstruction.Schedule.PLAIN.maxIterations(2_000));
    assertThat(fast.iterations()).isEqualTo(slow.iterations()).isPositive().isLessThan(2_000);
    double bound = StructuredProducts.stepBound(t);
    for (int i = 0; i < 50; i++) {
      assertThat(Math.abs(fast.frequencies()[i] - slow.frequencies()[i]))
          .isLessThanOrEqualTo(bound * slow.frequencies()[i]);
    }
    assertThat(fast.deviance())
        .isCloseTo(slow.deviance(), org.assertj.core.api.Assertions.within(1e-9 * slow.deviance()));
    assertThat(fast.targetDeviance())
        .isCloseTo(
            slow.targetDeviance(),
            org.assertj.core.api.Assertions.within(1e-9 * slow.targetDeviance()));
  }

  @Test
  void smoothingAtTheEndsWrapsOnTheCircleAndReflectsOnTheInterval() {
    for (int k = 1; k <= 5; k++) {
      double[] theta = new double[k];
      for (int i = 0; i < k; i++) {
        theta[i] = (i + 1) * (i + 3) / 64.0;
      }
      for (boolean circular : new boolean[] {false, true}) {
        double[] expected = new double[k];
        for (int i = 0; i < k; i++) {
          int left = circular ? Math.floorMod(i - 1, k) : Math.max(i - 1, 0);
          int right = circular ? Math.floorMod(i + 1, k) : Math.min(i + 1, k - 1);
          expected[i] = (1 - 0.3) * theta[i] + 0.5 * 0.3 * (theta[left] + theta[right]);
        }
        assertThat(Reconstruction.smooth(theta, 0.3, circular))
            .as("k = %d, circular %s", k, circular)
            .containsExactly(expected);
      }
    }
    assertThat(Reconstruction.smooth(new double[0], 0.3, true)).isEmpty();
  }
}
