package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checked examples that concern the optimal mechanisms (docs/mechanisms.md, "The square-error
 * optimum" and "Checked examples").
 */
class CheckedExamplesTest {
  private static Mechanism classical(double eps, Objective objective) {
    return MechanismCatalog.of(MechanismSpec.builder().epsilon(eps).objective(objective).build());
  }

  private static Mechanism circle(double eps) {
    return MechanismCatalog.of(
        MechanismSpec.builder().epsilon(eps).domain(Domain.circular(0, 2 * Math.PI)).build());
  }

  @Test
  void theorem3AtEpsilonOneAndXZero() {
    List<PiecewiseDistribution.Piece> pieces = classical(1, Objective.L1).distribution(0).pieces();
    assertThat(pieces.get(0).from()).isEqualTo(0.0);
    assertThat(pieces.get(0).to()).isCloseTo(0.3775, within(5e-5));
    assertThat(pieces.get(0).density()).isCloseTo(1.6487, within(5e-5));
  }

  @Test
  void theorem3AtEpsilonOneAndXHalf() {
    List<PiecewiseDistribution.Piece> pieces =
        classical(1, Objective.L1).distribution(0.5).pieces();
    assertThat(pieces.get(1).from()).isCloseTo(0.3112, within(5e-5));
    assertThat(pieces.get(1).to()).isCloseTo(0.6888, within(5e-5));
    assertThat(pieces.get(1).density()).isCloseTo(1.6487, within(5e-5));
  }

  @Test
  void theorem4AtEpsilonOneAndXZeroWrapsAcrossTheSeam() {
    List<PiecewiseDistribution.Piece> pieces = circle(1).distribution(0).pieces();
    assertThat(pieces).hasSize(3);
    assertThat(pieces.get(0).from()).isEqualTo(0.0);
    assertThat(pieces.get(0).to() / Math.PI).isCloseTo(0.3775, within(5e-5));
    assertThat(pieces.get(0).density()).isCloseTo(0.2624, within(5e-5));
    assertThat(pieces.get(1).density()).isCloseTo(0.0965, within(5e-5));
    assertThat(pieces.get(2).from() / Math.PI).isCloseTo(1.6225, within(5e-5));
    assertThat(pieces.get(2).to()).isEqualTo(2 * Math.PI);
    assertThat(pieces.get(2).density()).isCloseTo(0.2624, within(5e-5));
  }

  @Test
  void worstCaseAbsoluteErrorAtEpsilonTwo() {
    assertThat(classical(2, Objective.L1).worstCaseError(ErrorMetric.L1, Distance.LINEAR))
        .isCloseTo(0.268941, within(5e-7));
  }

  @Test
  void circularAbsoluteErrorAtEpsilonOne() {
    assertThat(circle(1).worstCaseError(ErrorMetric.L1, Distance.CIRCULAR))
        .isCloseTo(1.186079, within(5e-7));
    // Rotation invariant: the same at every input.
    assertThat(circle(1).expectedError(2.5, ErrorMetric.L1, Distance.CIRCULAR))
        .isCloseTo(1.186079, within(5e-7));
  }

  @Test
  void errorAtASpecificInput() {
    assertThat(classical(1, Objective.L1).expectedError(0.2, ErrorMetric.L1, Distance.LINEAR))
        .isCloseTo(0.24336, within(5e-6));
    OgpmShape atX0 = OgpmShape.optimalAt(1, 0.2, ErrorMetric.L1);
    assertThat(atX0.high()).isCloseTo(1.5459, within(5e-5));
    assertThat(ClassicalOgpm.withShape(atX0).expectedError(0.2, ErrorMetric.L1, Distance.LINEAR))
        .isCloseTo(0.24137, within(5e-6));
  }

  @Test
  void squareErrorOptimumSolvesTheCubic() {
    OgpmShape one = OgpmShape.squareErrorOptimal(1);
    assertThat(one.high()).isCloseTo(1.50933, within(5e-6));
    assertThat(one.worstCaseError(ErrorMetric.L2)).isCloseTo(0.217299, within(5e-7));
    assertThat(OgpmShape.absoluteErrorOptimal(1).worstCaseError(ErrorMetric.L2))
        .isCloseTo(0.220872, within(5e-7));
    OgpmShape eight = OgpmShape.squareErrorOptimal(8);
    assertThat(eight.high()).isCloseTo(18.0816, within(5e-5));
    assertThat(eight.worstCaseError(ErrorMetric.L2)).isCloseTo(0.0030237, within(5e-8));
    assertThat(OgpmShape.absoluteErrorOptimal(8).worstCaseError(ErrorMetric.L2))
        .isCloseTo(0.0062111, within(5e-8));
  }
}
