package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The least certified constant on small grids worked out by hand, and the monotonicity check's
 * tolerance and messages. ({@link CdfCertificatesTest} checks the constant's validity between grid
 * points on random grids.)
 */
class CertifiedConstantTest {
  /**
   * Two tails on grid points 0, 1, 2: {@code T_1 = (0, 0.5, 1)}, {@code T_2 = (0, 0.25, 1)}, with
   * coefficients +1 and -1. At the points the sum is {@code (0, 0.25, 0)}; crosswise on a cell (T_1
   * at its smaller end, T_2 at its larger) it is {@code 0 - 0.25 = -0.25} on cell 0 and {@code 0.5
   * - 1 = -0.5} on cell 1, below either end: between the points the tails may move apart.
   */
  private static final double[][] COLUMNS = {{1, 1, 1}, {0, 0.5, 1}, {0, 0.25, 1}};

  private static final int[] TAILS = {1, 2};
  private static final double[] COEFFICIENTS = {1, -1};

  /** The margin for these coefficients: {@code 2^-36 (1 + |1| + |-1|)}. */
  private static final double MARGIN = 0x1p-36 * 3;

  /** The values here are sums of a few dyadic numbers: exact, so only the margin is compared. */
  private static final double EXACT = 1e-15;

  @Test
  void belowAThresholdTheCellBeforeItNeedsTheMost() {
    // x <= x_1: indicator (1, 1, 0) minus the sums (0, 0.25, 0) gives 1, 0.75, 0 at the points;
    // cell 0 lies inside (1 + 0.25), cell 1 outside (0 + 0.5). The largest: 1.25, on cell 0.
    assertThat(CertifiedConstant.of(COLUMNS, 1, 0, TAILS, COEFFICIENTS))
        .isCloseTo(1.25 + MARGIN, within(EXACT));
  }

  @Test
  void aboveAThresholdTheCellAfterItNeedsTheMost() {
    // x > x_0: indicator (0, 1, 1): 0, 0.75, 1 at the points; both cells inside (1 + 0.25 and
    // 1 + 0.5). The largest: 1.5, on cell 1.
    assertThat(CertifiedConstant.of(COLUMNS, 0, 1, TAILS, COEFFICIENTS))
        .isCloseTo(1.5 + MARGIN, within(EXACT));
    // x > x_1: indicator (0, 0, 1): 0, -0.25, 1 at the points; cell 0 outside (0.25), cell 1
    // inside (1.5).
    assertThat(CertifiedConstant.of(COLUMNS, 1, 1, TAILS, COEFFICIENTS))
        .isCloseTo(1.5 + MARGIN, within(EXACT));
  }

  @Test
  void atTheTopEveryInputIsBelowAndOnlyThePointsAndCellsBoundIt() {
    // x <= x_2: the indicator is 1 everywhere; the least crosswise sum, -0.5 on cell 1, needs 1.5.
    assertThat(CertifiedConstant.of(COLUMNS, 2, 0, TAILS, COEFFICIENTS))
        .isCloseTo(1.5 + MARGIN, within(EXACT));
  }

  @Test
  void withoutTermsTheConstantIsTheLargestIndicatorPlusTheMargin() {
    assertThat(CertifiedConstant.of(COLUMNS, 1, 0, new int[0], new double[0]))
        .isCloseTo(1 + 0x1p-36, within(EXACT));
    // x > x_2 holds for no input.
    assertThat(CertifiedConstant.of(COLUMNS, 2, 1, new int[0], new double[0]))
        .isCloseTo(0x1p-36, within(EXACT));
  }

  @Test
  void theMarginGrowsWithTheCoefficientsSize() {
    // One tail with coefficient -100 bounding x <= x_0: at the points 1 + 0, 0 + 50, 0 + 100; on
    // the cells 0 + 50 and 0 + 100 (cell 0 is beyond x_0). The margin is 2^-36 (1 + 100).
    double nu = CertifiedConstant.of(COLUMNS, 0, 0, new int[] {1}, new double[] {-100});
    assertThat(nu).isCloseTo(100 + 0x1p-36 * 101, within(1e-13));
  }

  @Test
  void aTailMayFallByRoundingButNoMore() {
    double fall = CertifiedConstant.MONOTONE_TOLERANCE;
    double[][] tails = {{1, 0.5}, {1, 0.5}, {1, 0.5}, {1, 0.5}};
    tails[3][1] = tails[2][1] - fall;
    CertifiedConstant.checkMonotone(tails);
    tails[3][1] = tails[2][1] - 2 * fall;
    assertThatThrownBy(() -> CertifiedConstant.checkMonotone(tails))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tail 1 decreases between grid points 2 and 3");
  }

  @Test
  void aGridPointWithAnotherNumberOfTailsIsRefused() {
    double[][] tails = {{1, 0.5}, {1, 0.5}, {1}};
    assertThatThrownBy(() -> CertifiedConstant.checkMonotone(tails))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("grid point 2 has another number of tails");
  }

  @Test
  void columnsTransposeTheTails() {
    double[][] tails = {{1, 0.25, 0}, {1, 0.5, 0.125}};
    assertThat(CertifiedConstant.columns(tails))
        .isDeepEqualTo(new double[][] {{1, 1}, {0.25, 0.5}, {0, 0.125}});
  }
}
