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
 * distribution, and variance {@code E_P[Var(psi | x)] / n}. That variance is estimated as the
 * output mean's is ({@link WindowVariance}): from psibar and the window's mean square of psi about
 * the middle of its values, through a model of {@code Var(psi | x)} in {@code Psi(x)} and {@code
 * E[psi^2 | x]} fitted over the inputs and raised above it, so that the readings' own spread (psi's
 * spread over the window's outputs holds that of {@code Psi(x_i)}) does not widen the bound. {@code
 * psibar + (z + term / sqrt n) sqrt(Vhat / n)} is then a normal upper bound for {@code E_P[Psi]}
 * with its Edgeworth term, and its identification bounds the inputs' mean. It is used where that
 * term and the kurtosis term are small ({@link #studentised}, as for the output mean); below that
 * count the statistic is not used.
 *
 * <p>Slack, added to every bound: snapping moves each edge's at-or-beyond probability by at most
 * {@link BinnedKernel#edgeSlack()}, and psi steps up by {@code value[o] - value[o - 1]} at edge o,
 * so {@code E[psi]} moves by at most the slack times the values' range; plus the rounding of
 * psibar's sum (a relative 2^-40 of the values' magnitude, far above a sum's error below 2^63
 * counts). Its standard deviation moves by at most {@code sqrt(2 e) range}, e the edge slack: each
 * edge's probability moves by e, so {@code E[(psi - r)^2]} by at most {@code e range^2} and {@code
 * (Psi - r)^2} by as much again.
 */
final class BinStatistic {
  private final double[] values;
  private final MeanIdentification identification;
  private final WindowVariance variance;
  private final double slack;
  private final double sdSlack;
  private final double skewness;
  private final double kurtosis;
  private final double[] sd;
  private final double[] expectation;
  private final double[] middleHalf;

  private BinStatistic(
      double[] values,
      MeanIdentification identification,
      WindowVariance variance,
      double[] slack,
      double[] shape,
      double[] sd,
      double[] expectation,
      double[] middleHalf) {
    this.values = values;
    this.identification = identification;
    this.variance = variance;
    this.slack = slack[0];
    this.sdSlack = slack[1];
    this.skewness = shape[0];
    this.kurtosis = shape[1];
    this.sd = sd;
    this.expectation = expectation;
    this.middleHalf = middleHalf;
  }

  /**
   * A statistic with the given values, its expectation and mean square given at the identification
   * grid ({@link MeanIdentification#grid}); null when that expectation is not non-decreasing.
   *
   * @param expectation {@code Psi} at the grid's points
   * @param meanSquare {@code E[(psi - r)^2 | x]} at the grid's points, r the middle of the values
   *     ({@link #reference})
   * @param probabilities the output bins' probabilities at the {@value NormalApproximation#INPUTS}
   *     + 1 equally spaced inputs from lo to hi (both included) of every {@value
   *     NormalApproximation#INPUTS}-th grid point, for the statistic's shape and its spread at lo,
   *     in the middle and at hi
   */
  static BinStatistic of(
      double lo,
      double hi,
      double[] values,
      double[] expectation,
      double[] meanSquare,
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
    // psi's skewness at each input, its largest magnitude and the largest excess kurtosis.
    double[] gamma = new double[probabilities.length];
    double[] variances = new double[probabilities.length];
    double[] shape = new double[2];
    for (int i = 0; i < probabilities.length; i++) {
      double[] m = centralMoments(values, probabilities[i]);
      variances[i] = m[0];
      gamma[i] = m[1] / Math.pow(m[0], 1.5);
      shape[0] = Math.max(shape[0], Math.abs(gamma[i]));
      shape[1] = Math.max(shape[1], Math.abs(m[2] / (m[0] * m[0]) - 3));
    }
    double r = reference(values);
    double[] v = new double[expectation.length];
    for (int j = 0; j < v.length; j++) {
      double shift = expectation[j] - r;
      v[j] = Math.max(0, meanSquare[j] - shift * shift);
    }
    // Popoviciu: a variance of values in a range of width w is at most w^2 / 4.
    WindowVariance variance =
        WindowVariance.fit(r, range, expectation, v, gamma, range * range / 4);
    int last = probabilities.length - 1;
    double[] sd = {
      Math.sqrt(variances[0]), Math.sqrt(variances[last / 2]), Math.sqrt(variances[last])
    };
    int points = MeanIdentification.POINTS;
    double[] at = {expectation[0], expectation[points / 2], expectation[points]};
    return new BinStatistic(
        values,
        identification,
        variance,
        new double[] {slack, Math.sqrt(2 * edgeSlack) * range},
        shape,
        sd,
        at,
        middleHalf(values, probabilities));
  }

  /**
   * The expected mean square of psi about {@link #reference} for a mix of inputs whose psi has this
   * mean and spread: what a reference mix's {@link #margin} is taken at.
   */
  double meanSquare(double mean, double spread) {
    return variance.meanSquare(mean, spread);
  }

  /** The model of psi's variance given the inputs; for tests. */
  WindowVariance variance() {
    return variance;
  }

  /** The middle of the values: what psi's mean squares are taken about. */
  static double reference(double[] values) {
    return 0.5 * (values[0] + values[values.length - 1]);
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
   * Whether a side's studentised bound at quantile z, its share of the side's 2.5 %, is used at n:
   * its Edgeworth term and kurtosis term within that share's allowance ({@link
   * NormalApproximation#studentisedHolds}), as for the output mean. Depends on n alone.
   */
  boolean studentised(long n, double z, double share, boolean upperSide) {
    return NormalApproximation.studentisedHolds(
        n,
        variance.term(z, upperSide),
        skewness,
        kurtosis,
        z,
        NormalApproximation.MAX_WIDENED_ERROR * share,
        NormalApproximation.MAX_REMAINDER * share);
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
    double[] m = meanAndSquare(counts, n);
    return identification
        .inputMeans(Double.NEGATIVE_INFINITY, m[0] + margin(n, z, true, m[0], m[1]))[1];
  }

  /**
   * The smallest input mean consistent with the window: psibar's studentised lower bound,
   * identified.
   */
  double lowerMean(long[] counts, long n, double z) {
    double[] m = meanAndSquare(counts, n);
    return identification
        .inputMeans(m[0] - margin(n, z, false, m[0], m[1]), Double.POSITIVE_INFINITY)[0];
  }

  /**
   * The margin of one side of psibar at quantile z, for a window (or a reference mix, in
   * expectation) whose mean of psi and mean square about {@link #reference} are these: the quantile
   * widened by the side's Edgeworth term, times the estimated standard deviation, plus the slacks.
   */
  double margin(long n, double z, boolean upperSide, double mean, double meanSquare) {
    double sd = Math.sqrt(variance.estimate(mean, meanSquare)) + sdSlack;
    double root = Math.sqrt(n);
    return (z + variance.term(z, upperSide) / root) * sd / root + slack;
  }

  /**
   * The input means consistent with psibar itself, no margin: the statistic's identified set at the
   * window's value.
   */
  double[] identifiedMeans(long[] counts, long n) {
    double psibar = meanAndSquare(counts, n)[0];
    return identification.inputMeans(psibar, psibar);
  }

  /**
   * {@code {psibar, mean square about the reference}}: summed about the middle of the values so
   * that a domain far from 0 loses no digits to cancellation.
   */
  private double[] meanAndSquare(long[] counts, long n) {
    double ref = reference(values);
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
    return new double[] {ref + sum / n, squares / n};
  }
}
