package io.ogpm.estimate;

import io.ogpm.annotation.Internal;
import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleUnaryOperator;

/**
 * Turns a {@link FieldAccumulator} into a {@link FieldEstimate} for one field's mechanism. Holds
 * what depends only on the mechanism and the binning, computed once: the transition matrix, the
 * linear interval's statistics ({@link LinearMeanBounds}), the cumulative band's windows and
 * certificates ({@link CumulativeBands}), the noise's trigonometric moments; and the quantiles and
 * exceedance thresholds to report ({@link DistributionQuery}), checked against the field's domain
 * once, here, rather than at every window.
 *
 * <p>Every 95 % interval covers the truth of the window, the mean (on a circle: the direction and
 * length of the mean resultant vector, each; for the distribution: the share at or below every
 * point at once) of its actual inputs, for every input distribution on the domain. The outputs are
 * independent given the inputs. A mean of outputs is taken as normal only from the count where the
 * leading error of that approximation is small ({@link NormalApproximation}); below it, the
 * intervals come from Bernstein's inequality, which needs no approximation (for staircase, whose
 * outputs are unbounded, there is then no interval). docs/interval-coverage.md has the coverage
 * measured over a grid of input distributions.
 *
 * <ul>
 *   <li>Linear means: every input mean consistent with the window's output mean and, for mechanisms
 *       whose mean function is flat at the ends (OGPM), with the tails of its output histogram
 *       ({@link LinearMeanBounds}). The point estimates (unbiased or raw; the reconstruction's for
 *       em) are moved into the interval when they fall outside: that never moves them away from a
 *       mean the interval holds.
 *   <li>Circular means (rotation-invariant mechanisms only, whose noise is the same symmetric
 *       distribution at every input: {@code E[e^{i M(x)}] = rho1 e^{i x}} exactly): {@code v =
 *       mean(e^{i y}) / rho1} is unbiased for the inputs' mean resultant vector m; along any
 *       direction one output's component has variance at most {@code max((1 - rho2) / 2, (1 + rho2)
 *       / 2 - rho1^2)}, so the covariance of v is at most {@code s^2 I} with {@code s^2} that over
 *       {@code n rho1^2}. The disk of radius {@code sqrt(chi2_2(0.95)) s} around v holds m with
 *       probability at least 95 % (Anderson's theorem: a centred disk holds a normal vector with
 *       smaller covariance at least as often; below the normal regime, the disk around the square
 *       that Bernstein bounds for two fixed components at 2.5 % each); the resultant length
 *       interval is its points' lengths ({@link ResultantDisk}). The direction interval comes from
 *       a test of each direction in the normal regime ({@link ResultantProjections}: the disk's
 *       projection onto the directions covers more than it needs to), from the disk below it. Other
 *       mechanisms on a circle have no interval.
 *   <li>The cumulative band, and the quantiles and exceedance shares read off it ({@link
 *       DistributionEstimate}): {@link CumulativeBands}, for piecewise mechanisms (on a circle,
 *       rotation-invariant ones). Their point estimates are the reconstruction's, linear within
 *       each bin, moved into the interval; without a reconstruction, the interval's middle.
 * </ul>
 *
 * <p>The slack: outputs are snapped to the grid, which moves each by at most one cell, so its
 * expectation by at most a cell and its standard deviation by at most a cell; the mean function and
 * the trigonometric moments are exact for piecewise mechanisms and computed by quadrature to 1e-13
 * (of the unit domain) for the others. The intervals are widened by these bounds. (Coupled with a
 * draw of the continuous mechanism, the integer sampler's cell is within one cell of it except when
 * its rounded choice between bump and background differs, with probability at most 2^-53 per
 * record: that changes any coverage by at most n 2^-53.)
 */
@PublicEvolving
public final class FieldEstimator {
  /**
   * Relative error of the mean function and moments (quadrature tolerance 1e-13, with a margin).
   */
  static final double NUMERICAL = 1e-12;

  private final Mechanism mechanism;
  private final FieldBinning binning;
  private final TransitionMatrix transition;
  private final CumulativeBands cumulative;
  private final DistributionQuery query;
  private final AffinePart affine;
  private final LinearMeanBounds linearBounds;
  private final double rho1;
  private final double rho2;
  private final double componentSd;
  private final double angleSlack;
  private final long normalFrom;

  private FieldEstimator(Mechanism mechanism, int bins, DistributionQuery query) {
    this.mechanism = mechanism;
    this.query =
        Objects.requireNonNull(query, "query: a distribution query is required")
            .requireWithin(mechanism.domain());
    this.binning = FieldBinning.of(mechanism, bins);
    this.transition =
        mechanism.resolvesDistributions() ? TransitionMatrix.of(mechanism, binning) : null;
    this.cumulative = CumulativeBands.of(mechanism, binning);
    double lo = mechanism.domain().lo();
    double w = mechanism.domain().width();
    double cell = mechanism.cellWidth();
    if (mechanism.domain().isCircular()) {
      this.affine = null;
      this.linearBounds = null;
      boolean invariant = mechanism.isRotationInvariant();
      double r1 = invariant ? mechanism.noiseCosineMoment(lo, 1) : Double.NaN;
      double r2 = invariant ? mechanism.noiseCosineMoment(lo, 2) : Double.NaN;
      this.rho1 = r1 > 0 ? r1 : Double.NaN;
      this.rho2 = r2;
      // One output's variance along a direction at angle t from its input: (1 - rho2) / 2 + (rho2
      // - rho1^2) cos^2 t, largest at t = 0 or pi / 2.
      double variance = Math.max((1 - r2) / 2, (1 + r2) / 2 - r1 * r1);
      // Snapping moves an output by at most one cell: 2 pi cell / w radians, and a unit vector by
      // at most as much.
      this.angleSlack = 2 * Math.PI * cell / w + NUMERICAL;
      this.componentSd = Math.sqrt(Math.max(variance, 0)) + componentSlack();
      this.normalFrom =
          invariant
              ? NormalApproximation.minimumCount(
                  r1, r2, mechanism.noiseCosineMoment(lo, 3), mechanism.noiseCosineMoment(lo, 4))
              : Long.MAX_VALUE;
    } else {
      this.affine = AffinePart.of(mechanism);
      this.linearBounds = LinearMeanBounds.of(mechanism, binning, affine);
      this.rho1 = Double.NaN;
      this.rho2 = Double.NaN;
      this.componentSd = Double.NaN;
      this.angleSlack = Double.NaN;
      this.normalFrom = Long.MAX_VALUE;
    }
  }

  /**
   * An estimator with k bins for a mechanism, reporting the default quantiles ({@link
   * DistributionQuery#DEFAULT}).
   */
  public static FieldEstimator of(Mechanism mechanism, int bins) {
    return new FieldEstimator(mechanism, bins, DistributionQuery.DEFAULT);
  }

  /**
   * An estimator with k bins for a mechanism, reporting the quantiles and exceedance shares of a
   * query.
   *
   * @throws IllegalArgumentException naming a threshold outside the mechanism's domain
   */
  public static FieldEstimator of(Mechanism mechanism, int bins, DistributionQuery query) {
    return new FieldEstimator(mechanism, bins, query);
  }

  /** The field's mechanism. */
  Mechanism mechanism() {
    return mechanism;
  }

  /** The quantiles and exceedance thresholds each estimate reports. */
  public DistributionQuery query() {
    return query;
  }

  public FieldBinning binning() {
    return binning;
  }

  /** The linear mean's interval machinery (null on a circle), for comparisons in tests. */
  LinearMeanBounds linearBounds() {
    return linearBounds;
  }

  /** The affine part of the mean function (null on a circle). */
  AffinePart affinePart() {
    return affine;
  }

  /** A fresh accumulator for this field. */
  public FieldAccumulator newAccumulator() {
    return FieldAccumulator.forBinning(binning);
  }

  /** A fresh accumulator for the field of this name. */
  public FieldAccumulator newAccumulator(String field) {
    return FieldAccumulator.forField(field, binning);
  }

  /** Whether the mechanism supports reconstruction (piecewise output distribution). */
  public boolean canReconstruct() {
    return transition != null;
  }

  /** The EM reconstruction alone (no intervals), for evaluations. */
  @Internal
  public Reconstruction.Result reconstruct(FieldAccumulator acc) {
    return Reconstruction.em(acc.getHistogram(), transition());
  }

  /** The transition matrix the reconstruction uses, for evaluations. */
  @Internal
  public TransitionMatrix transition() {
    if (transition == null) {
      throw new IllegalStateException("reconstruction needs a piecewise mechanism");
    }
    return transition;
  }

  /** The linear mean of a distribution over the bins (bin centres). */
  public double meanOf(double[] frequencies) {
    return linearMean(frequencies);
  }

  /** The circular mean angle, in radians, of a distribution over the bins of a circular field. */
  public double circularMeanAngleOf(double[] frequencies) {
    return circularMeanAngle(frequencies);
  }

  /**
   * Estimates from an accumulator; reconstructs when asked and possible.
   *
   * @throws IllegalArgumentException if the accumulator holds values of another binning
   */
  public FieldEstimate estimate(FieldAccumulator acc, boolean reconstruct) {
    if (!acc.hasBinning(binning)) {
      throw new IllegalArgumentException(
          "cannot estimate an accumulator of the binning "
              + acc.getBinning()
              + " with an estimator of the binning "
              + binning.id());
    }
    long n = acc.getCount();
    double[] raw = binning.rawHistogram(acc.getHistogram());
    double[] reconstructed = null;
    int iterations = 0;
    if (reconstruct && transition != null && n > 0) {
      Reconstruction.Result r = Reconstruction.em(acc.getHistogram(), transition);
      reconstructed = r.frequencies();
      iterations = r.iterations();
    }
    if (n == 0) {
      return new FieldEstimate(n, raw, reconstructed, iterations, null, null, null);
    }
    DistributionEstimate distribution = distribution(acc.getHistogram(), n, reconstructed);
    if (binning.circular()) {
      return new FieldEstimate(
          n,
          raw,
          reconstructed,
          iterations,
          null,
          circularMeans(acc, reconstructed, false),
          distribution);
    }
    return new FieldEstimate(
        n, raw, reconstructed, iterations, linearMeans(acc, reconstructed), null, distribution);
  }

  /**
   * The cumulative band of a window and the query's quantiles and exceedances read off it; null
   * without a band. The point estimates are the reconstruction's where there is one (NaN, the
   * interval's middle, otherwise): the band bounds F but names no value inside it.
   */
  private DistributionEstimate distribution(long[] counts, long n, double[] reconstructed) {
    CumulativeBand cdf = cumulative == null ? null : cumulative.band(counts, n, query);
    if (cdf == null) {
      return null;
    }
    double[] probabilities = query.probabilities();
    List<QuantileEstimate> quantiles = new ArrayList<>(probabilities.length);
    for (double p : probabilities) {
      double estimate = reconstructed == null ? Double.NaN : quantileOf(reconstructed, p);
      quantiles.add(new QuantileEstimate(p, cdf.quantile(p, estimate)));
    }
    double[] thresholds = query.thresholds();
    List<ExceedanceEstimate> exceedances = new ArrayList<>(thresholds.length);
    for (double t : thresholds) {
      double estimate = reconstructed == null ? Double.NaN : shareAbove(reconstructed, t);
      exceedances.add(new ExceedanceEstimate(t, cdf.exceedance(t, estimate)));
    }
    return new DistributionEstimate(cumulative.reported(cdf), quantiles, exceedances);
  }

  /**
   * The p-quantile of a distribution over the bins, {@code inf {t : F(t) >= p}} for its cumulative
   * distribution F linear within each bin (its mass spread evenly over the bin); on a circle along
   * the arc from the domain's start. The domain's end where rounding leaves F below p.
   */
  double quantileOf(double[] frequencies, double p) {
    double below = 0;
    for (int i = 0; i < frequencies.length; i++) {
      double through = below + frequencies[i];
      if (through >= p && frequencies[i] > 0) {
        double within = Math.min(1, Math.max(0, (p - below) / frequencies[i]));
        return binning.lo() + binning.binWidth() * (i + within);
      }
      below = through;
    }
    return binning.lo() + binning.width();
  }

  /**
   * The share of a distribution over the bins above a threshold, {@code 1 - F(t)} for its
   * cumulative distribution F linear within each bin; on a circle the share of the arc from t to
   * the domain's end.
   */
  double shareAbove(double[] frequencies, double threshold) {
    double x = (threshold - binning.lo()) / binning.binWidth();
    if (x <= 0) {
      return 1;
    }
    if (x >= frequencies.length) {
      return 0;
    }
    int bin = (int) x;
    double below = 0;
    for (int i = 0; i < bin; i++) {
      below += frequencies[i];
    }
    return Math.min(1, Math.max(0, 1 - below - frequencies[bin] * (x - bin)));
  }

  /**
   * A lighter estimate, without the tail statistics, the band and the step-limited schedule: EMS by
   * {@link Reconstruction.Schedule#PLAIN_FIRST}, the linear mean's interval from the outputs' mean
   * alone, the circular direction from the confidence disk, no distribution. Only for benchmarks
   * that show what those parts of {@link #estimate} cost, side by side with it.
   */
  @Internal
  public FieldEstimate estimateWithoutTailsOrBand(FieldAccumulator acc) {
    long n = acc.getCount();
    double[] raw = binning.rawHistogram(acc.getHistogram());
    if (transition == null || n == 0) {
      throw new IllegalArgumentException(
          "the estimate without tails or band needs a piecewise mechanism and a value");
    }
    Reconstruction.Result r =
        Reconstruction.em(acc.getHistogram(), transition, Reconstruction.Schedule.PLAIN_FIRST);
    if (binning.circular()) {
      return new FieldEstimate(
          n,
          raw,
          r.frequencies(),
          r.iterations(),
          null,
          circularMeans(acc, r.frequencies(), true),
          null);
    }
    return new FieldEstimate(
        n,
        raw,
        r.frequencies(),
        r.iterations(),
        linearMeans(acc, r.frequencies(), true),
        null,
        null);
  }

  private LinearMeans linearMeans(FieldAccumulator acc, double[] reconstructed) {
    return linearMeans(acc, reconstructed, false);
  }

  private LinearMeans linearMeans(
      FieldAccumulator acc, double[] reconstructed, boolean outputMeanOnly) {
    long n = acc.getCount();
    double mean = acc.mean();
    double unbiased = affine.exists() ? affine.inverse(mean) : Double.NaN;
    LinearMeanBounds.Bounds bounds =
        outputMeanOnly
            ? linearBounds.outputMeanBounds(n, mean, acc.meanSquare(binning))
            : linearBounds.bounds(n, mean, acc.meanSquare(binning), acc.getHistogram());
    Interval headline =
        Interval.within(Double.isNaN(unbiased) ? mean : unbiased, bounds.lower(), bounds.upper());
    double rec = reconstructed == null ? Double.NaN : linearMean(reconstructed);
    Interval recHeadline =
        reconstructed == null
            ? null
            : Interval.within(
                Double.isNaN(unbiased)
                    ? rec
                    : nearest(rec, binning.width() / binning.bins() / 2, headline.estimate()),
                bounds.lower(),
                bounds.upper());
    double identified = linearBounds.identifiedWidth(n, mean, acc.getHistogram());
    double width = bounds.upper() - bounds.lower();
    MeanAlternative alternative =
        identified >= UNIDENTIFIED_SHARE * width
            ? alternative(n, width, bounds.lower(), bounds.upper())
            : null;
    return new LinearMeans(
        headline,
        recHeadline,
        mean,
        unbiased,
        affine.from(),
        affine.to(),
        rec,
        bounds.method(),
        identified,
        alternative);
  }

  /**
   * The share of a window's mean interval that, once unidentified, makes the estimate name a
   * mechanism that would have done better.
   */
  public static final double UNIDENTIFIED_SHARE = 0.25;

  /**
   * The mechanisms named as alternatives: unbiased, with no end band, so every input mean is
   * identified ({@link PlannedMeanInterval}).
   */
  static final MechanismType[] ALTERNATIVES = {
    MechanismType.HM, MechanismType.PM, MechanismType.STAIRCASE
  };

  /** The alternatives' planners, built on first need (most fields never need them). */
  private PlannedMeanInterval[] alternatives;

  /**
   * Steps of the grid of readings an alternative's width is planned at: its interval, studentised,
   * is narrower for readings where its noise is smaller.
   */
  static final int ALTERNATIVE_POINTS = 16;

  /**
   * The alternative narrowest at n, if narrower than {@code width}; else null. Its width is the
   * largest it is expected to give for readings anywhere in the window's interval [lower, upper]
   * (the grid points in it and the nearest on each side), so the claim holds wherever the readings
   * lie.
   */
  private MeanAlternative alternative(long n, double width, double lower, double upper) {
    PlannedMeanInterval[] planners = alternatives();
    double step = mechanism.domain().width() / ALTERNATIVE_POINTS;
    double lo = mechanism.domain().lo();
    int from = (int) Math.max(0, Math.floor((lower - lo) / step));
    int to = (int) Math.min(ALTERNATIVE_POINTS, Math.ceil((upper - lo) / step));
    MeanAlternative best = null;
    for (int i = 0; i < ALTERNATIVES.length; i++) {
      if (planners[i] == null || ALTERNATIVES[i] == mechanism.spec().type()) {
        continue;
      }
      double w = 0;
      for (int j = from; j <= to; j++) {
        double[] at = new double[ALTERNATIVE_POINTS + 1];
        at[j] = 1;
        w = Math.max(w, planners[i].width(n, at));
      }
      if (w < width && (best == null || w < best.expectedWidth())) {
        best = new MeanAlternative(ALTERNATIVES[i], w);
      }
    }
    return best;
  }

  private synchronized PlannedMeanInterval[] alternatives() {
    if (alternatives == null) {
      PlannedMeanInterval[] planners = new PlannedMeanInterval[ALTERNATIVES.length];
      double[] points = new double[ALTERNATIVE_POINTS + 1];
      for (int j = 0; j <= ALTERNATIVE_POINTS; j++) {
        points[j] = mechanism.domain().lo() + mechanism.domain().width() * j / ALTERNATIVE_POINTS;
      }
      for (int i = 0; i < ALTERNATIVES.length; i++) {
        try {
          Mechanism m =
              MechanismCatalog.of(
                  mechanism.spec().toBuilder()
                      .type(ALTERNATIVES[i])
                      .objective(Objective.L1)
                      .optimizeAt(Double.NaN)
                      .build());
          planners[i] = PlannedMeanInterval.of(m, binning.bins(), points);
        } catch (IllegalArgumentException e) {
          // not available at this field's settings
        }
      }
      alternatives = planners;
    }
    return alternatives;
  }

  /**
   * What one output's component standard deviation carries beyond the noise's: snapping's angle and
   * a margin for the moments' rounding.
   */
  private double componentSlack() {
    return angleSlack + Math.sqrt(NUMERICAL);
  }

  /**
   * The circular means with the direction from the confidence disk's projection instead of the
   * direction test ({@link ResultantProjections}); for tests that compare the two.
   */
  CircularMeans circularMeansFromTheDisk(FieldAccumulator acc) {
    return circularMeans(acc, null, true);
  }

  private CircularMeans circularMeans(
      FieldAccumulator acc, double[] reconstructed, boolean diskDirection) {
    long n = acc.getCount();
    double c = acc.meanCos();
    double s = acc.meanSin();
    double[] recResultant = reconstructed == null ? null : resultant(reconstructed);
    double rec = recResultant == null ? Double.NaN : Math.atan2(recResultant[1], recResultant[0]);
    double located =
        recResultant == null
            ? Double.NaN
            : locatedDirection(
                reconstructed.length, rec, Math.hypot(recResultant[0], recResultant[1]), s, c);
    if (Double.isNaN(rho1)) {
      // No valid interval: the noise is not the same at every input.
      Interval direction = Interval.pointOnly(toField(Math.atan2(s, c)));
      Interval length = Interval.pointOnly(Math.hypot(c, s));
      return new CircularMeans(
          direction,
          reconstructed == null ? null : Interval.pointOnly(toField(located)),
          length,
          reconstructed == null ? Double.NaN : toField(rec));
    }
    // The sums' rounding: a margin of n ulps of the mean's components, a bound for sums of
    // doubles; the exact sums' quantisation, 2^-61 per value, is far below it.
    double slack = (angleSlack + n * 0x1p-52) / rho1;
    double x = c / rho1;
    double y = s / rho1;
    double centre;
    double half;
    Interval length;
    if (n >= normalFrom) {
      double sd = componentSd / Math.sqrt(n) / rho1;
      // Studentised by the window's own covariance (without its readings' spread), within the
      // worst case; rho2 <= 0 leaves the worst case.
      ResultantCovariance covariance =
          rho2 > 0 ? ResultantCovariance.of(rho1, rho2, acc.meanCos2(), acc.meanSin2()) : null;
      double extra = componentSlack();
      double scale = Math.sqrt(n) * rho1;
      double diskSd =
          covariance == null ? sd : Math.min(sd, (Math.sqrt(covariance.largest()) + extra) / scale);
      DoubleUnaryOperator acrossSd =
          covariance == null
              ? phi -> sd
              : phi -> Math.min(sd, (Math.sqrt(covariance.across(phi)) + extra) / scale);
      ResultantDisk disk = new ResultantDisk(x, y, ResultantDisk.CHI95_2 * diskSd + slack);
      double[] arc =
          diskDirection
              ? new double[] {disk.direction(), disk.directionHalfWidth()}
              : ResultantProjections.direction(x, y, diskSd, acrossSd, slack);
      centre = arc[0];
      half = arc[1];
      length = new Interval(Math.min(1, disk.length()), disk.minLength(), disk.maxLength());
    } else {
      // Below the normal regime: Bernstein for each of two fixed components at 2.5 %, each within 1
      // + rho1 of its expectation; the square they bound lies in the disk of sqrt(2) times its
      // half-side.
      double spread =
          Math.sqrt(2)
              * NormalApproximation.bernsteinHalfWidth(
                  n, componentSd * componentSd, 1 + rho1 + 2 * angleSlack, 0.025);
      ResultantDisk disk = new ResultantDisk(x, y, spread / rho1 + slack);
      centre = disk.direction();
      half = disk.directionHalfWidth();
      length = new Interval(Math.min(1, disk.length()), disk.minLength(), disk.maxLength());
    }
    double angle = Math.atan2(y, x);
    Interval direction = angleInterval(angle, centre, half);
    Interval recHeadline = null;
    if (reconstructed != null) {
      // The reconstruction's direction, moved onto the arc when it falls outside.
      double offset = Math.IEEEremainder(located - centre, 2 * Math.PI);
      recHeadline = angleInterval(centre + Math.max(-half, Math.min(half, offset)), centre, half);
    }
    return new CircularMeans(
        direction, recHeadline, length, reconstructed == null ? Double.NaN : toField(rec));
  }

  /**
   * An estimate and the arc {@code centre +- half} (radians) in the field's units wrapped into [lo,
   * hi); the whole circle [lo, hi] when half reaches pi.
   */
  private Interval angleInterval(double estimate, double centre, double half) {
    if (half >= Math.PI) {
      return new Interval(toField(estimate), binning.lo(), binning.lo() + binning.width());
    }
    return new Interval(toField(estimate), toField(centre - half), toField(centre + half));
  }

  /** An angle in radians to the field's units, wrapped into [lo, hi). */
  private double toField(double angle) {
    return wrap(binning.lo() + binning.width() * angle / (2 * Math.PI));
  }

  private double wrap(double v) {
    double lo = binning.lo();
    double w = binning.width();
    double r = lo + (((v - lo) % w) + w) % w;
    return r >= lo + w ? lo : r;
  }

  private double linearMean(double[] theta) {
    double m = 0;
    for (int i = 0; i < theta.length; i++) {
      m += theta[i] * binning.inputBinCentre(i);
    }
    return m;
  }

  /**
   * The value within {@code resolution} of {@code estimate} nearest to {@code reference}. A
   * reconstruction's mean locates the mean only to its bins' resolution (its bins' centres stand
   * for their inputs); within that, the headline takes the data's own unbiased estimate where it
   * can, so that at large epsilon, where the outputs sit within a hair of their inputs, the
   * headline is not half a bin off them.
   */
  static double nearest(double estimate, double resolution, double reference) {
    return estimate + Math.max(-resolution, Math.min(resolution, reference - estimate));
  }

  /**
   * The reconstruction's direction {@code rec} (its resultant of {@code length}, over {@code bins})
   * within what its bins resolve, nearest the outputs' direction ({@link #nearest}): each bin's
   * inputs stand at its centre, up to half a bin away, which moves the reconstruction's resultant
   * by at most that chord and so its direction by at most asin(chord / length).
   */
  private static double locatedDirection(
      int bins, double rec, double length, double meanSin, double meanCos) {
    double chord = 2 * Math.sin(Math.PI / bins);
    double resolved = chord < length ? Math.asin(chord / length) : Math.PI;
    return rec
        + nearest(0, resolved, Math.IEEEremainder(Math.atan2(meanSin, meanCos) - rec, 2 * Math.PI));
  }

  /** Circular mean of a distribution over the bins, in radians. */
  private static double circularMeanAngle(double[] theta) {
    double[] r = resultant(theta);
    return Math.atan2(r[1], r[0]);
  }

  /** The mean resultant {cos, sin} of a distribution over the bins, at the bins' centres. */
  private static double[] resultant(double[] theta) {
    double c = 0;
    double s = 0;
    for (int i = 0; i < theta.length; i++) {
      double a = 2 * Math.PI * (i + 0.5) / theta.length;
      c += theta[i] * Math.cos(a);
      s += theta[i] * Math.sin(a);
    }
    return new double[] {c, s};
  }
}
