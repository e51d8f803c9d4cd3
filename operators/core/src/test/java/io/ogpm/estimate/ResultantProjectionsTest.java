package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.audit.ClopperPearson;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The direction test: its arc, and its region's coverage at every distance of m and covariance
 * below s^2 I.
 */
class ResultantProjectionsTest {
  @Test
  void theArcIsTheWholeCircleInsideTheDiskAndTheStripsAngleOutside() {
    double s = 0.1;
    assertThat(ResultantProjections.direction(0.2, 0.1, s, 0)[1]).isEqualTo(Math.PI);
    double[] arc = ResultantProjections.direction(0, 0.5, s, 0);
    assertThat(arc[0]).isCloseTo(Math.PI / 2, within(1e-15));
    assertThat(arc[1]).isCloseTo(Math.asin(Interval.Z95 * s / 0.5), within(1e-15));
    // Just outside the disk the arc is under a right angle each way.
    double r = ResultantDisk.CHI95_2 * s * 1.001;
    assertThat(ResultantProjections.direction(r, 0, s, 0)[1]).isLessThan(Math.PI / 2);
  }

  /**
   * For m = r e_0, the probability that the direction 0 is kept is at least 95 % for r from 0 to 6
   * s and covariances with largest eigenvalue s^2, of aspect 1 to 10 at several angles: the
   * one-sided Clopper-Pearson upper bound of each is at least 95 %. With the strip at 1.8 s instead
   * of 1.96 s the large distances fall to 93 % and this fails.
   */
  @Test
  @Tag("slow") // 120 cells of 100,000 normal pairs: run by surefire, left out of mutation testing
  void theKeptRegionHoldsTheTrueDirectionAtNinetyFivePercentEverywhere() {
    RandomBits bits = AesCtrSource.seeded(2024);
    int draws = 100_000;
    double s = 1;
    double worst = 1;
    for (double aspect : new double[] {1, 0.5, 0.1}) {
      for (double angle : new double[] {0, Math.PI / 4, Math.PI / 2, 3 * Math.PI / 4}) {
        for (double r : new double[] {0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6}) {
          int kept =
              kept(
                  bits,
                  draws,
                  r,
                  angle,
                  aspect,
                  (x, y) -> ResultantProjections.direction(x, y, s, 0));
          double upper = ClopperPearson.upper(kept, draws, 1e-3 / 120);
          worst = Math.min(worst, (double) kept / draws);
          assertThat(upper)
              .as("aspect %s, angle %s, r %s: kept %s", aspect, angle, r, kept)
              .isGreaterThanOrEqualTo(0.95);
        }
      }
    }
    assertThat(worst).isLessThan(0.953); // at large r the strip alone: 95 %, no needless width
  }

  /**
   * Studentised by a covariance that is not round: the disk at its largest sd, the strips at the sd
   * across each direction. For m = r e_0 and covariances of aspect 1 to 0.1 at several angles, the
   * direction 0 is kept with probability at least 95 % (each cell's one-sided Clopper-Pearson upper
   * bound). With the strips at the sd across the arc's centre alone (no widest over the arc) a
   * covariance of aspect 0.5 tilted 45 degrees keeps it 94.6 % of the time at r = 2.5 and this
   * fails.
   */
  @Test
  @Tag("slow") // 120 cells of 100,000 normal pairs: run by surefire, left out of mutation testing
  void anAnisotropicCovarianceKeepsTheTrueDirectionAtNinetyFivePercent() {
    RandomBits bits = AesCtrSource.seeded(2025);
    int draws = 100_000;
    double worst = 1;
    for (double aspect : new double[] {1, 0.5, 0.1}) {
      for (double angle : new double[] {0, Math.PI / 8, Math.PI / 4, Math.PI / 2}) {
        // Variance 1 along angle, aspect across it: the variance across phi.
        DoubleUnaryOperator across =
            phi -> {
              double cosine = Math.sin(phi - angle); // across phi, measured from the long axis
              return Math.sqrt(
                  cosine * cosine + aspect * (1 - cosine * cosine)); // u^T Sigma u, u across phi
            };
        for (double r : new double[] {0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6}) {
          int kept =
              kept(
                  bits,
                  draws,
                  r,
                  angle,
                  aspect,
                  (x, y) -> ResultantProjections.direction(x, y, 1, across, 0));
          double upper = ClopperPearson.upper(kept, draws, 1e-3 / 120);
          worst = Math.min(worst, (double) kept / draws);
          assertThat(upper)
              .as("aspect %s, angle %s, r %s: kept %s", aspect, angle, r, kept)
              .isGreaterThanOrEqualTo(0.95);
        }
      }
    }
    assertThat(worst).isLessThan(0.953); // the thin strips are used: no needless width
  }

  /**
   * How many of the draws of v = r e_0 + a normal pair (variance 1 along angle, aspect across it)
   * keep the direction 0 on their arc.
   */
  private static int kept(
      RandomBits bits,
      int draws,
      double r,
      double angle,
      double aspect,
      java.util.function.BiFunction<Double, Double, double[]> arcOf) {
    double c = Math.cos(angle);
    double sn = Math.sin(angle);
    int kept = 0;
    for (int i = 0; i < draws; i++) {
      double a = IntervalCoverageTest.normal(bits);
      double b = IntervalCoverageTest.normal(bits) * Math.sqrt(aspect);
      double[] arc = arcOf.apply(r + c * a - sn * b, sn * a + c * b);
      double offset = Math.abs(Math.IEEEremainder(0 - arc[0], 2 * Math.PI));
      kept += offset <= arc[1] ? 1 : 0;
    }
    return kept;
  }
}
