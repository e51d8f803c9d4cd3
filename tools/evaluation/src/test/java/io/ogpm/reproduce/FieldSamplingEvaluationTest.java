package io.ogpm.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.estimate.Interval;
import org.junit.jupiter.api.Test;

/**
 * Field sampling on MotionSense subjects 4 to 24: at the sample configuration's record epsilon,
 * auto's histograms are at least 1.5 times more accurate and its mean intervals narrower than
 * splitting's, for every field, by the lower ends of the ratios' 95 % intervals over repetitions
 * (so a chance run cannot pass it: with K = 2, pitch's histogram ratio is about 1.24 and the test
 * fails).
 */
class FieldSamplingEvaluationTest {
  @Test
  void atTheSamplesEpsilonAutoBeatsSplittingForEveryField() {
    FieldSamplingEvaluation e =
        FieldSamplingEvaluation.compute(6, new double[] {FieldSamplingEvaluation.TARGET_EPSILON});
    Interval[] histogram = e.targetRatios(true);
    Interval[] width = e.targetRatios(false);
    for (int f = 0; f < histogram.length; f++) {
      assertThat(FieldSamplingEvaluation.targetHolds(histogram[f], width[f]))
          .as(
              "%s: histogram %s, width %s",
              FieldSamplingEvaluation.COLUMNS[f], histogram[f], width[f])
          .isTrue();
    }
    assertThat(e.markdown()).contains("| 5.5 | 1 |").doesNotContain("**no**");
  }
}
