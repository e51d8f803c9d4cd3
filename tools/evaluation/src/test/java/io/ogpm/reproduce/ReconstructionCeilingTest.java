package io.ogpm.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.estimate.Histograms;
import io.ogpm.estimate.Reconstruction;
import io.ogpm.estimate.TransitionMatrix;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The ceiling is a ceiling: never above the shipped reconstruction or any plain EM iterate. */
class ReconstructionCeilingTest {
  @ParameterizedTest
  @CsvSource({"1, false", "4, false", "2, true", "4, true"})
  void ceilingIsAtMostTheShippedReconstructionsError(double eps, boolean circular) {
    Domain domain = circular ? Domain.circular(0, 2 * Math.PI) : Domain.classical(0, 1);
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().domain(domain).epsilon(eps).build());
    FieldBinning binning = FieldBinning.of(m, 25);
    FieldBinning truthBins = FieldBinning.ofDomain(domain, 25);
    AesCtrSource bits = AesCtrSource.seeded(3);
    FieldAccumulator acc = FieldAccumulator.forBinning(binning);
    double[] truth = new double[25];
    int n = 5000;
    for (int i = 0; i < n; i++) {
      double u = bits.nextUniform();
      double x =
          domain.lo() + domain.width() * (u < 0.7 ? 0.1 + 0.2 * bits.nextUniform() : 0.5 + 0.1 * u);
      truth[truthBins.inputBin(x)] += 1.0 / n;
      acc.add(m.perturb(x, bits), binning);
    }
    TransitionMatrix t = TransitionMatrix.of(m, binning);
    long[] counts = acc.getHistogram();
    double[] shipped = Reconstruction.em(counts, t).frequencies();
    double ceiling = ReconstructionCeiling.bestError(counts, t, truth, shipped);
    assertThat(ceiling).isPositive().isLessThanOrEqualTo(Histograms.l1(shipped, truth));
    double[] theta = new double[25];
    java.util.Arrays.fill(theta, 1.0 / 25);
    for (int it = 1; it <= ReconstructionCeiling.ITERATIONS; it++) {
      theta = Reconstruction.step(counts, n, t, theta);
      if (it % 7 == 0) {
        assertThat(ceiling).as("iteration %s", it).isLessThanOrEqualTo(Histograms.l1(theta, truth));
      }
    }
  }
}
