package io.ogpm.mechanism.solve;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.ErrorMetric;
import java.util.OptionalDouble;

/**
 * The optimisation problem of the paper's section "Framework for Deriving the Optimal GPM": the
 * best m-piece generalised piecewise mechanism (Definition "m-GPM") on a classical domain {@code
 * [lo, hi)} for a privacy parameter, under absolute (l1) or square (l2) error, either in the worst
 * case over the inputs (Formulation "min-max", reduced to the endpoints by Lemma 1) or at one
 * chosen input x0 (section "Minimize Error at a Specific x"). Immutable; validated by its factories
 * with messages that name the bad value.
 */
@Internal
public final class GpmProblem {
  /** At least three pieces: the paper's family starts at TPM (m = 3); see {@link GpmSolver}. */
  public static final int MIN_PIECES = 3;

  /** Up to twelve pieces (24 variables): enough to see the collapse, small enough to solve. */
  public static final int MAX_PIECES = 12;

  /**
   * The largest eps the solver takes. Beyond it the low density (about {@code e^(-eps/2)}) weighs
   * so little in the error that the search does not resolve it (at eps 40, low pieces can come out
   * a factor 10 apart); the paper's range is eps < 10.
   */
  public static final double MAX_EPSILON = 20;

  private final Domain domain;
  private final double epsilon;
  private final int pieces;
  private final ErrorMetric metric;
  private final double x0;

  private GpmProblem(Domain domain, double epsilon, int pieces, ErrorMetric metric, double x0) {
    this.domain = domain;
    this.epsilon = epsilon;
    this.pieces = pieces;
    this.metric = metric;
    this.x0 = x0;
  }

  /** The worst case over {@code [lo, hi]}: Formulation "min-max" with Lemma 1. */
  public static GpmProblem worstCase(
      double lo, double hi, double epsilon, int pieces, ErrorMetric metric) {
    return of(lo, hi, epsilon, pieces, metric, Double.NaN);
  }

  /** The error at one input x0 in {@code [lo, hi]} (section "Minimize Error at a Specific x"). */
  public static GpmProblem at(
      double lo, double hi, double epsilon, int pieces, ErrorMetric metric, double x0) {
    Checks.finite("x0", x0);
    return of(lo, hi, epsilon, pieces, metric, x0);
  }

  private static GpmProblem of(
      double lo, double hi, double epsilon, int pieces, ErrorMetric metric, double x0) {
    Domain domain = Domain.classical(lo, hi);
    Checks.positive("epsilon", epsilon);
    if (epsilon > MAX_EPSILON) {
      throw new IllegalArgumentException(
          "epsilon must be <= " + MAX_EPSILON + " for the solver, got " + epsilon);
    }
    if (pieces < MIN_PIECES || pieces > MAX_PIECES) {
      throw new IllegalArgumentException(
          "pieces must be in [" + MIN_PIECES + ", " + MAX_PIECES + "], got " + pieces);
    }
    Checks.notNull("metric", metric);
    if (!Double.isNaN(x0) && !(x0 >= lo && x0 <= hi)) {
      throw new IllegalArgumentException("x0 must be in [" + lo + ", " + hi + "], got " + x0);
    }
    return new GpmProblem(domain, epsilon, pieces, metric, x0);
  }

  public Domain domain() {
    return domain;
  }

  public double epsilon() {
    return epsilon;
  }

  public int pieces() {
    return pieces;
  }

  public ErrorMetric metric() {
    return metric;
  }

  /** Whether the problem is the worst case over the domain (else the error at {@link #x0()}). */
  public boolean isWorstCase() {
    return Double.isNaN(x0);
  }

  /** The chosen input, in the domain's units; empty for the worst case. */
  public OptionalDouble x0() {
    return isWorstCase() ? OptionalDouble.empty() : OptionalDouble.of(x0);
  }

  /**
   * The input whose pieces are optimised, on the unit domain: x0 mapped to [0, 1], or the left
   * endpoint 0 for the worst case (see {@link GpmSolver} for why one endpoint suffices).
   */
  public double unitInput() {
    return isWorstCase() ? 0 : Math.min(1, (x0 - domain.lo()) / domain.width());
  }

  @Override
  public String toString() {
    return "GpmProblem{domain="
        + domain
        + ", epsilon="
        + epsilon
        + ", pieces="
        + pieces
        + ", metric="
        + metric.id()
        + (isWorstCase() ? ", worst case" : ", x0=" + x0)
        + "}";
  }
}
