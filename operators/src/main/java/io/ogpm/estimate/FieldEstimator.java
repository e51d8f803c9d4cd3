package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;

/**
 * Turns a {@link FieldAccumulator} into a {@link FieldEstimate} for one field's mechanism. Holds
 * what depends only on the mechanism, computed once: the transition matrix, the largest output
 * variance, the affine part of the mean function, the noise's trigonometric moments.
 *
 * <p>Confidence intervals (95 %):
 *
 * <ul>
 *   <li>raw and unbiased linear means: normal intervals with the mechanism's largest output
 *       variance, {@code 1.96 sqrt(maxVar / n)}: valid whatever the inputs, since the outputs are
 *       independent given the inputs and each has variance at most maxVar;
 *   <li>circular direction and resultant length: the components of the mean unit vector
 *       perpendicular and parallel to the mean direction have variance at most {@code (1 + |rho2|)
 *       / 2n} ({@code rho2} the noise's second trigonometric moment; 1/n for mechanisms that are
 *       not rotation invariant); the angle's half-width is {@code asin(1.96 sd / R)};
 *   <li>reconstructed means: a parametric bootstrap of the reconstruction ({@value
 *       #BOOTSTRAP_REPLICATES} replicates of Poisson counts drawn from the fitted output
 *       distribution), normal interval with the bootstrap standard deviation, widened by half a bin
 *       (the reconstruction places each bin's mass at its centre, and the data's mean within the
 *       bins is unknown). The bootstrap is seeded from the counts, so the same window always gives
 *       the same interval.
 * </ul>
 */
public final class FieldEstimator {
  static final int BOOTSTRAP_REPLICATES = 30;

  private final Mechanism mechanism;
  private final FieldBinning binning;
  private final TransitionMatrix transition;
  private final double maxVariance;
  private final double slope;
  private final double intercept;
  private final double affineFrom;
  private final double affineTo;
  private final double rho1;
  private final double rho2;

  private FieldEstimator(Mechanism mechanism, int bins) {
    this.mechanism = mechanism;
    this.binning = FieldBinning.of(mechanism, bins);
    this.transition = mechanism.isPiecewise() ? TransitionMatrix.of(mechanism, binning) : null;
    double lo = mechanism.domain().lo();
    double w = mechanism.domain().width();
    if (mechanism.domain().isCircular()) {
      this.maxVariance = Double.NaN;
      this.slope = Double.NaN;
      this.intercept = Double.NaN;
      this.affineFrom = Double.NaN;
      this.affineTo = Double.NaN;
      boolean invariant = mechanism.isRotationInvariant();
      this.rho1 = invariant ? mechanism.noiseCosineMoment(lo, 1) : Double.NaN;
      this.rho2 = invariant ? mechanism.noiseCosineMoment(lo, 2) : Double.NaN;
    } else {
      this.maxVariance = mechanism.maxOutputVariance();
      this.rho1 = Double.NaN;
      this.rho2 = Double.NaN;
      // The mean function E[M(x)]: a line through its values at 3/8 and 5/8 of the domain, and
      // the range of inputs where it follows that line.
      double x1 = lo + 0.375 * w;
      double x2 = lo + 0.625 * w;
      double g1 = mechanism.outputMean(x1);
      double g2 = mechanism.outputMean(x2);
      double b = (g2 - g1) / (x2 - x1);
      double a = g1 - b * x1;
      int points = 256;
      int first = -1;
      int last = -1;
      for (int i = 0; i <= points; i++) {
        double x = Math.min(lo + w * i / points, mechanism.domain().hi());
        boolean onLine = Math.abs(mechanism.outputMean(x) - (a + b * x)) <= 1e-9 * w;
        if (onLine && first < 0) {
          first = i;
        }
        if (onLine) {
          last = i;
        }
      }
      boolean affine = b > 1e-9 && first >= 0 && last > first;
      this.slope = affine ? b : Double.NaN;
      this.intercept = affine ? a : Double.NaN;
      this.affineFrom = affine ? lo + w * first / points : Double.NaN;
      this.affineTo = affine ? Math.min(lo + w * last / points, mechanism.domain().hi()) : Double.NaN;
    }
  }

  /** An estimator with k bins for a mechanism. */
  public static FieldEstimator of(Mechanism mechanism, int bins) {
    return new FieldEstimator(mechanism, bins);
  }

  public FieldBinning binning() {
    return binning;
  }

  /** A fresh accumulator for this field. */
  public FieldAccumulator newAccumulator() {
    return FieldAccumulator.forBinning(binning);
  }

  /** Whether the mechanism supports reconstruction (piecewise output distribution). */
  public boolean canReconstruct() {
    return transition != null;
  }

  /** The EM reconstruction alone (no intervals), for evaluations. */
  public Reconstruction.Result reconstruct(FieldAccumulator acc) {
    return Reconstruction.em(acc.getHistogram(), transition());
  }

  /** The transition matrix the reconstruction uses, for evaluations. */
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

  /** Estimates from an accumulator; reconstructs when asked and possible. */
  public FieldEstimate estimate(FieldAccumulator acc, boolean reconstruct) {
    long n = acc.getCount();
    double[] raw = binning.rawHistogram(acc.getHistogram());
    double[] reconstructed = null;
    int iterations = 0;
    double[] bootstrapMeans = null;
    if (reconstruct && transition != null && n > 0) {
      Reconstruction.Result r = Reconstruction.em(acc.getHistogram(), transition);
      reconstructed = r.frequencies();
      iterations = r.iterations();
      bootstrapMeans = bootstrap(acc.getHistogram(), reconstructed, n);
    }
    if (binning.circular()) {
      return new FieldEstimate(n, raw, reconstructed, iterations, null, circularMeans(acc, reconstructed, bootstrapMeans));
    }
    return new FieldEstimate(n, raw, reconstructed, iterations, linearMeans(acc, reconstructed, bootstrapMeans), null);
  }

  private LinearMeans linearMeans(FieldAccumulator acc, double[] reconstructed, double[] bootstrapMeans) {
    long n = acc.getCount();
    if (n == 0) {
      return new LinearMeans(null, null, affineFrom, affineTo, null);
    }
    double mean = acc.mean();
    double half = Interval.Z95 * Math.sqrt(maxVariance / n);
    Interval raw = Interval.around(mean, half);
    Interval unbiased = Double.isNaN(slope) ? null : Interval.around((mean - intercept) / slope, half / slope);
    Interval rec = null;
    if (reconstructed != null) {
      double m = linearMean(reconstructed);
      rec = Interval.around(m, Interval.Z95 * standardDeviation(bootstrapMeans, m, false) + binning.binWidth() / 2);
    }
    return new LinearMeans(raw, unbiased, affineFrom, affineTo, rec);
  }

  private CircularMeans circularMeans(FieldAccumulator acc, double[] reconstructed, double[] bootstrapMeans) {
    long n = acc.getCount();
    if (n == 0) {
      return new CircularMeans(null, null, null);
    }
    double c = acc.getSumCos() / n;
    double s = acc.getSumSin() / n;
    double r = Math.hypot(c, s);
    double variance = Double.isNaN(rho2) ? 1 : (1 + Math.abs(rho2)) / 2;
    double sd = Math.sqrt(variance / n);
    double angle = Math.atan2(s, c);
    double halfAngle = Interval.Z95 * sd >= r ? Math.PI : Math.asin(Interval.Z95 * sd / r);
    Interval direction = angleInterval(angle, halfAngle);
    double scale = Double.isNaN(rho1) ? 1 : rho1;
    double rl = Math.min(1, r / scale);
    Interval length = new Interval(rl, Math.max(0, (r - Interval.Z95 * sd) / scale), Math.min(1, (r + Interval.Z95 * sd) / scale));
    Interval rec = null;
    if (reconstructed != null) {
      double a = circularMeanAngle(reconstructed);
      double half = Math.min(Math.PI, Interval.Z95 * standardDeviation(bootstrapMeans, a, true) + Math.PI / reconstructed.length);
      rec = angleInterval(a, half);
    }
    return new CircularMeans(direction, length, rec);
  }

  /** An angle and half-width in radians, as an interval in the field's units wrapped into [lo, hi). */
  private Interval angleInterval(double angle, double half) {
    double lo = binning.lo();
    double w = binning.width();
    if (half >= Math.PI) {
      // No information on the direction: the interval is the whole circle.
      return new Interval(wrap(lo + w * angle / (2 * Math.PI)), lo, lo + w);
    }
    return new Interval(wrap(lo + w * angle / (2 * Math.PI)), wrap(lo + w * (angle - half) / (2 * Math.PI)),
        wrap(lo + w * (angle + half) / (2 * Math.PI)));
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

  /** Circular mean of a distribution over the bins, in radians. */
  private double circularMeanAngle(double[] theta) {
    double c = 0;
    double s = 0;
    for (int i = 0; i < theta.length; i++) {
      double a = 2 * Math.PI * (i + 0.5) / theta.length;
      c += theta[i] * Math.cos(a);
      s += theta[i] * Math.sin(a);
    }
    return Math.atan2(s, c);
  }

  /** Means (linear, or circular angles) of reconstructions from Poisson counts around the fit. */
  private double[] bootstrap(long[] counts, double[] theta, long n) {
    double[] pi = transition.apply(theta);
    RandomBits bits = AesCtrSource.seeded(java.util.Arrays.hashCode(counts));
    double[] means = new double[BOOTSTRAP_REPLICATES];
    long[] replicate = new long[counts.length];
    for (int b = 0; b < BOOTSTRAP_REPLICATES; b++) {
      for (int j = 0; j < counts.length; j++) {
        replicate[j] = Poisson.sample(bits, n * pi[j]);
      }
      double[] t = Reconstruction.em(replicate, transition).frequencies();
      means[b] = binning.circular() ? circularMeanAngle(t) : linearMean(t);
    }
    return means;
  }

  private static double standardDeviation(double[] values, double centre, boolean angles) {
    double s = 0;
    for (double v : values) {
      double d = v - centre;
      if (angles) {
        d = Math.IEEEremainder(d, 2 * Math.PI);
      }
      s += d * d;
    }
    return Math.sqrt(s / (values.length - 1));
  }
}
