package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.Domain;
import java.io.Serializable;
import java.util.Arrays;

/**
 * What a field's {@link DistributionEstimate} reports besides the cumulative band: the quantiles
 * (by probability) and the exceedance shares (by threshold, in the field's units). Every interval
 * is read off the one simultaneous band, so asking for more of them widens none ({@link
 * CumulativeBand}); the limits of {@value #MAX_PROBABILITIES} and {@value #MAX_THRESHOLDS} keep an
 * estimate's JSON short, not its coverage.
 *
 * <p>Invariants, checked by the factories: probabilities strictly inside (0, 1), thresholds finite,
 * each list strictly increasing (so without repeats), at most the limit of each. Whether the
 * thresholds lie in a field's domain is checked where the domain is known ({@link #requireWithin}).
 * Immutable and serializable, so that a Flink operator can hold it.
 */
@PublicEvolving
public final class DistributionQuery implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Most quantile probabilities. */
  public static final int MAX_PROBABILITIES = 32;

  /** Most exceedance thresholds. */
  public static final int MAX_THRESHOLDS = 32;

  /** The default quantiles' probabilities: the median and the 10 % and 90 % quantiles. */
  private static final double[] DEFAULT_PROBABILITIES = {0.1, 0.5, 0.9};

  /** The deciles 0.1 and 0.9 and the median, no exceedances. */
  public static final DistributionQuery DEFAULT =
      new DistributionQuery(DEFAULT_PROBABILITIES, new double[0]);

  private final double[] probabilities;
  private final double[] thresholds;

  private DistributionQuery(double[] probabilities, double[] thresholds) {
    this.probabilities = probabilities;
    this.thresholds = thresholds;
  }

  /**
   * A query.
   *
   * @param probabilities the quantiles' probabilities (null: none)
   * @param thresholds the exceedances' thresholds, in the field's units (null: none)
   * @throws IllegalArgumentException naming the first bad value
   */
  public static DistributionQuery of(double[] probabilities, double[] thresholds) {
    return new DistributionQuery(checkProbabilities(probabilities), checkThresholds(thresholds));
  }

  /** The default probabilities ({@link #DEFAULT}): 0.1, 0.5 and 0.9. */
  public static double[] defaultProbabilities() {
    return DEFAULT_PROBABILITIES.clone();
  }

  /** This query with other probabilities. */
  public DistributionQuery withProbabilities(double... probabilities) {
    return new DistributionQuery(checkProbabilities(probabilities), thresholds);
  }

  /** This query with other thresholds. */
  public DistributionQuery withThresholds(double... thresholds) {
    return new DistributionQuery(probabilities, checkThresholds(thresholds));
  }

  /**
   * Validated quantile probabilities: a copy, empty for null.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static double[] checkProbabilities(double[] probabilities) {
    double[] p = probabilities == null ? new double[0] : probabilities.clone();
    if (p.length > MAX_PROBABILITIES) {
      throw new IllegalArgumentException(
          "at most " + MAX_PROBABILITIES + " quantiles, got " + p.length);
    }
    for (int i = 0; i < p.length; i++) {
      if (!(p[i] > 0 && p[i] < 1)) {
        throw new IllegalArgumentException(
            "a quantile's probability must be in (0, 1), got " + p[i]);
      }
      if (i > 0 && p[i] <= p[i - 1]) {
        throw new IllegalArgumentException(
            "quantile probabilities must increase without repeats, got "
                + p[i]
                + " after "
                + p[i - 1]);
      }
    }
    return p;
  }

  /**
   * Validated exceedance thresholds: a copy, empty for null.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static double[] checkThresholds(double[] thresholds) {
    double[] t = thresholds == null ? new double[0] : thresholds.clone();
    if (t.length > MAX_THRESHOLDS) {
      throw new IllegalArgumentException(
          "at most " + MAX_THRESHOLDS + " exceedance thresholds, got " + t.length);
    }
    for (int i = 0; i < t.length; i++) {
      if (!Double.isFinite(t[i])) {
        throw new IllegalArgumentException(
            "an exceedance threshold must be a finite number, got " + t[i]);
      }
      if (i > 0 && t[i] <= t[i - 1]) {
        throw new IllegalArgumentException(
            "exceedance thresholds must increase without repeats, got "
                + t[i]
                + " after "
                + t[i - 1]);
      }
    }
    return t;
  }

  /**
   * Checks that every threshold lies in the domain, its ends included: the share above a threshold
   * outside it says nothing the data could tell (all or none of the inputs). On a circle the share
   * is of the arc from the threshold to the domain's end.
   *
   * @throws IllegalArgumentException naming the first threshold outside
   */
  public DistributionQuery requireWithin(Domain domain) {
    for (double t : thresholds) {
      if (!(t >= domain.lo() && t <= domain.hi())) {
        throw new IllegalArgumentException(
            "exceedance threshold "
                + t
                + " is outside the domain ["
                + domain.lo()
                + ", "
                + domain.hi()
                + "]");
      }
    }
    return this;
  }

  /** The quantiles' probabilities, increasing; possibly empty. */
  public double[] probabilities() {
    return probabilities.clone();
  }

  /** The exceedances' thresholds, increasing; possibly empty. */
  public double[] thresholds() {
    return thresholds.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DistributionQuery q
        && Arrays.equals(q.probabilities, probabilities)
        && Arrays.equals(q.thresholds, thresholds);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(probabilities) + Arrays.hashCode(thresholds);
  }

  @Override
  public String toString() {
    return "quantiles "
        + Arrays.toString(probabilities)
        + ", exceedances "
        + Arrays.toString(thresholds);
  }
}
