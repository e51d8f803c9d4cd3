package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import org.junit.jupiter.api.Test;

/**
 * The window's covariance of one output's unit vector, from its second trigonometric moment: the
 * average over the readings of each reading's covariance, without the readings' spread; within the
 * worst case; a point mass's variance across its direction is the noise's across.
 */
class ResultantCovarianceTest {
  private static final Mechanism CIRCLE =
      MechanismCatalog.of(
          MechanismSpec.builder().epsilon(5.5).domain(Domain.circular(-Math.PI, Math.PI)).build());

  @Test
  void aPointMassesCovarianceIsAlongAndAcrossItsDirection() {
    double rho1 = CIRCLE.noiseCosineMoment(0, 1);
    double rho2 = CIRCLE.noiseCosineMoment(0, 2);
    double t = 0.7;
    // The expected second moment of a point mass at t: rho2 e^{2it}.
    ResultantCovariance c =
        ResultantCovariance.of(rho1, rho2, rho2 * Math.cos(2 * t), rho2 * Math.sin(2 * t));
    double along = (1 + rho2) / 2 - rho1 * rho1;
    double across = (1 - rho2) / 2;
    assertThat(c.along(t)).isCloseTo(along, within(1e-12));
    assertThat(c.across(t)).isCloseTo(across, within(1e-12));
    assertThat(c.largest()).isCloseTo(Math.max(along, across), within(1e-12));
    assertThat(across).isLessThan(0.5 * along); // at eps 5.5: what the direction gains
  }

  @Test
  void readingsSpreadEvenlyHaveOneVarianceInEveryDirectionAndNoneOfTheirSpread() {
    double rho1 = CIRCLE.noiseCosineMoment(0, 1);
    double rho2 = CIRCLE.noiseCosineMoment(0, 2);
    ResultantCovariance c = ResultantCovariance.of(rho1, rho2, 0, 0);
    double mean = 0.5 * ((1 + rho2) / 2 - rho1 * rho1 + (1 - rho2) / 2);
    for (double phi : new double[] {0, 1, 2, 3}) {
      assertThat(c.along(phi)).isCloseTo(mean, within(1e-12));
    }
    // The outputs' own covariance would be 1/2 in every direction (unit vectors spread evenly).
    assertThat(mean).isLessThan(0.5);
  }

  @Test
  void aWindowsEstimateIsTheAverageOfItsReadingsCovariances() {
    double rho1 = CIRCLE.noiseCosineMoment(0, 1);
    double rho2 = CIRCLE.noiseCosineMoment(0, 2);
    FieldBinning binning = FieldBinning.of(CIRCLE, 20);
    RandomBits bits = AesCtrSource.seeded(8);
    FieldAccumulator acc = FieldAccumulator.forBinning(binning);
    int n = 200_000;
    double[] readings = {-2.5, 0.3, 1.1};
    double truthAcross = 0;
    double phi = 0.9;
    double along = (1 + rho2) / 2 - rho1 * rho1;
    double across = (1 - rho2) / 2;
    for (int i = 0; i < n; i++) {
      double t = readings[i % 3];
      acc.add(CIRCLE.perturb(t, bits), binning);
      double cosine = Math.cos(phi + Math.PI / 2 - t);
      truthAcross += (across + (along - across) * cosine * cosine) / n;
    }
    ResultantCovariance c = ResultantCovariance.of(rho1, rho2, acc.meanCos2(), acc.meanSin2());
    // The mean of cos 2y has a standard error below 1/sqrt(n); over rho2, times along - across.
    assertThat(c.across(phi))
        .isCloseTo(truthAcross, within(4 * (along - across) / (rho2 * Math.sqrt(n))));
  }
}
