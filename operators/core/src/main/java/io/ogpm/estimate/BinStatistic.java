package io.ogpm.estimate;

/**
 * A statistic of one output, {@code psi = value[o]} for an output in bin o, with its exact
 * expectation {@code Psi(x) = E[psi | x]} turned into the input means it allows ({@link
 * MeanIdentification}). The values are non-decreasing in o, so Psi is non-decreasing in x for a
 * mechanism whose output is stochastically non-decreasing in its input.
 *
 * <p>Why a statistic of the bins: the accumulator holds the bins' counts exactly, so the window's
 * mean {@code psibar} and its spread {@code (1/n) sum psi^2 - psibar^2} are exact functions of the
 * counts, and so are Psi and its moments of the kernel.
 *
 * <p>A window's {@code psibar} has expectation {@code E_P[Psi]}, P the inputs' empirical
 * distribution, and variance {@code E_P[Var(psi | x)] / n}, at most the spread of psi over the
 * window's outputs in expectation (the law of total variance). So {@code psibar + z sqrt(spread /
 * n)} is a normal upper bound for {@code E_P[Psi]} (the studentised mean), and its identification
 * bounds the inputs' mean. Its approximation error is checked by {@link NormalApproximation} on
 * psi's largest skewness and kurtosis over the inputs ({@link #normalFrom}): below that count the
 * statistic is not used.
 *
 * <p>Slack, added to every bound: snapping moves each edge's at-or-beyond probability by at most
 * {@link BinnedKernel#edgeSlack()}, and psi steps up by {@code value[o] - value[o - 1]} at edge o,
 * so {@code E[psi]} moves by at most the slack times the values' range; plus the rounding of
 * psibar's sum (a relative 2^-40 of the values' magnitude, far above a sum's error below 2^63
 * counts).
 */
final class BinStatistic {
  private final double[] values;
  private final MeanIdentification identification;
  private final double slack;
  private final double skewness;
  private final double kurtosis;
  private final double rightSkew;
  private final double leftSkew;
  private final double[] sd;
  private final double[] expectation;
  private final double[] middleHalf;

  private BinStatistic(
      double[] values,
      MeanIdentification identification,
      double slack,
      double[] skew,
      double kurtosis,
      double[] sd,
      double[] expectation,
      double[] middleHalf) {
    this.values = values;
    this.identification = identification;
    this.slack = slack;
    this.skewness = Math.max(skew[0], skew[1]);
    this.rightSkew = skew[0];
    this.leftSkew = skew[1];
    this.kurtosis = kurtosis;
    this.sd = sd;
    this.expectation = expectation;
    this.middleHalf = middleHalf;
  }

  /**
   * A statistic with the given values, its expectation given at the identification grid ({@link
   * MeanIdentification#grid}); null when that expectation is not non-decreasing.
   *
   * @param expectation {@code Psi} at the grid's points
   * @param probabilities the output bins' probabilities at an odd number of equally spaced inputs
   *     from lo to hi (both included), for the statistic's normal regime and its spread at lo, in
   *     the middle and at hi
   */
  static BinStatistic of(
      double lo,
      double hi,
      double[] values,
      double[] expectation,
      double[][] probabilities,
      double edgeSlack) {
    for (int o = 1; o < values.length; o++) {
      if (!(values[o] >= values[o - 1])) {
        throw new IllegalArgumentException(
            "values must be non-decreasing, but value "
                + o
                + " is "
                + values[o]
                + " after "
                + values[o - 1]);
      }
    }
    double range = values[values.length - 1] - values[0];
    double magnitude = Math.max(Math.abs(values[0]), Math.abs(values[values.length - 1]));
    double scale = magnitude + (hi - lo);
    MeanIdentification identification =
        MeanIdentification.of(lo, hi, expectation, MeanIdentification.ROUNDING * scale);
    if (identification == null) {
      return null;
    }
    double slack =
        edgeSlack * range
            + 0x1p-40 * magnitude
            + MeanIdentification.ROUNDING * scale
            + FieldEstimator.NUMERICAL * scale;
    // The largest skewness to the right and to the left, and the largest excess kurtosis.
    double[] skew = new double[2];
    double kurtosis = 0;
    for (double[] p : probabilities) {
      double[] m = centralMoments(values, p);
      double g1 = m[1] / Math.pow(m[0], 1.5);
      skew[0] = Math.max(skew[0], g1);
      skew[1] = Math.max(skew[1], -g1);
      kurtosis = Math.max(kurtosis, Math.abs(m[2] / (m[0] * m[0]) - 3));
    }
    int last = probabilities.length - 1;
    double[] sd = {
      Math.sqrt(centralMoments(values, probabilities[0])[0]),
      Math.sqrt(centralMoments(values, probabilities[last / 2])[0]),
      Math.sqrt(centralMoments(values, probabilities[last])[0])
    };
    int points = MeanIdentification.POINTS;
    double[] at = {expectation[0], expectation[points / 2], expectation[points]};
    return new BinStatistic(
        values, identification, slack, skew, kurtosis, sd, at, middleHalf(values, probabilities));
  }

  /**
   * {@code {E psi, Var psi}} for one output of an input drawn evenly from the middle half of the
   * domain: the inputs at the given probabilities' positions from a quarter to three quarters.
   */
  private static double[] middleHalf(double[] values, double[][] probabilities) {
    int last = probabilities.length - 1;
    int from = last / 4;
    int to = last - last / 4;
    double first = 0;
    double second = 0;
    for (int i = from; i <= to; i++) {
      for (int o = 0; o < values.length; o++) {
        first += probabilities[i][o] * values[o];
        second += probabilities[i][o] * values[o] * values[o];
      }
    }
    int count = to - from + 1;
    first /= count;
    second /= count;
    return new double[] {first, Math.max(0, second - first * first)};
  }

  /**
   * {@code E psi} and the spread of psi for inputs spread evenly over the middle half of the
   * domain.
   */
  double[] middleHalf() {
    return middleHalf.clone();
  }

  /** Central moments 2, 3 and 4 of psi for an output with these bin probabilities. */
  private static double[] centralMoments(double[] values, double[] p) {
    double mean = 0;
    for (int o = 0; o < values.length; o++) {
      mean += p[o] * values[o];
    }
    double[] m = new double[3];
    for (int o = 0; o < values.length; o++) {
      double d = values[o] - mean;
      m[0] += p[o] * d * d;
      m[1] += p[o] * d * d * d;
      m[2] += p[o] * d * d * d * d;
    }
    return m;
  }

  /**
   * The count from which psibar is taken as normal for a bound at quantile z whose approximation
   * may err by {@code maxError}: psi's largest skewness and kurtosis over the inputs.
   */
  long normalFrom(double z, double maxError) {
    return NormalApproximation.minimumCountAt(skewness, kurtosis, z, maxError);
  }

  /** The standard deviation of psi for the input lo (0), the middle of the domain (1) or hi (2). */
  double sdAt(int where) {
    return sd[where];
  }

  /** {@code Psi} at lo (0), the middle of the domain (1) or hi (2). */
  double expectationAt(int where) {
    return expectation[where];
  }

  /** The identification of psi's expectation. */
  MeanIdentification identification() {
    return identification;
  }

  /** The slack added to every bound of psibar. */
  double slack() {
    return slack;
  }

  /**
   * {@code {E psi, E psi^2}} for one output with these bin probabilities: what a mix of inputs adds
   * up to the mixture's expectation and spread.
   */
  double[] rawMoments(double[] probabilities) {
    double first = 0;
    double second = 0;
    for (int o = 0; o < values.length; o++) {
      first += probabilities[o] * values[o];
      second += probabilities[o] * values[o] * values[o];
    }
    return new double[] {first, second};
  }

  /** psi's value in each output bin. */
  double[] values() {
    return values.clone();
  }

  /**
   * The largest input mean consistent with the window: psibar's studentised upper bound at quantile
   * z, identified.
   */
  double upperMean(long[] counts, long n, double z) {
    double[] m = meanAndSpread(counts, n);
    double margin = studentised(z, rightSkew, n) * Math.sqrt(m[1] / n) + slack;
    return identification.inputMeans(Double.NEGATIVE_INFINITY, m[0] + margin)[1];
  }

  /**
   * The smallest input mean consistent with the window: psibar's studentised lower bound,
   * identified.
   */
  double lowerMean(long[] counts, long n, double z) {
    double[] m = meanAndSpread(counts, n);
    double margin = studentised(z, leftSkew, n) * Math.sqrt(m[1] / n) + slack;
    return identification.inputMeans(m[0] - margin, Double.POSITIVE_INFINITY)[0];
  }

  /**
   * The input means consistent with psibar itself, no margin: the statistic's identified set at the
   * window's value.
   */
  double[] identifiedMeans(long[] counts, long n) {
    double psibar = meanAndSpread(counts, n)[0];
    return identification.inputMeans(psibar, psibar);
  }

  /**
   * The quantile for a one-sided studentised bound on the side psi is skewed towards: z plus the
   * leading Edgeworth term of the studentised mean, {@code g1 (2 z^2 + 1) / (6 sqrt n)} (Hall 1992,
   * section 2.6), with g1 psi's largest skewness to that side over the inputs. A mean of outputs
   * skewed to the right falls below its expectation more often than the normal says, and its spread
   * with it, so an upper bound misses more often; the term restores the side to its level up to
   * O(1/n). Data-free: the largest skewness over the inputs, never an estimate.
   */
  static double studentised(double z, double skew, long n) {
    return z + Math.max(0, skew) * (2 * z * z + 1) / (6 * Math.sqrt(n));
  }

  /** psi's largest skewness to the right (positive third moment) over the inputs. */
  double rightSkew() {
    return rightSkew;
  }

  /** psi's largest skewness to the left over the inputs. */
  double leftSkew() {
    return leftSkew;
  }

  /**
   * {@code {psibar, spread}}: the window's mean of psi and the mean square about it, summed about
   * the middle of the values so that a domain far from 0 loses no digits to cancellation.
   */
  private double[] meanAndSpread(long[] counts, long n) {
    double ref = 0.5 * (values[0] + values[values.length - 1]);
    double sum = 0;
    double squares = 0;
    for (int o = 0; o < values.length; o++) {
      if (counts[o] != 0) {
        double c = counts[o];
        double d = values[o] - ref;
        sum += c * d;
        squares += c * d * d;
      }
    }
    double shift = sum / n;
    return new double[] {ref + shift, Math.max(0, squares / n - shift * shift)};
  }
}
