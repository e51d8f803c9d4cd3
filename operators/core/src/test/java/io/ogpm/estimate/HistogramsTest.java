package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HistogramsTest {
  @Test
  void l1DistanceSumsTheAbsoluteDifferencesOverTheCommonBins() {
    assertThat(Histograms.l1(new double[] {0.5, 0.25, 0.25}, new double[] {0.25, 0.25, 0.5}))
        .isCloseTo(0.5, within(1e-15));
    assertThat(Histograms.l1(new double[] {1, 0}, new double[] {0, 1})).isEqualTo(2);
    // Over the shorter length: the third bin of the first is ignored.
    assertThat(Histograms.l1(new double[] {0.2, 0.3, 0.5}, new double[] {0.3, 0.2}))
        .isCloseTo(0.2, within(1e-15));
    assertThat(Histograms.l1(new double[0], new double[] {1})).isZero();
  }
}
