package io.ogpm.estimate;

import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;

/**
 * The bins of one field: k equal input bins over the domain [lo, hi), and output bins a few times
 * finer ({@code resolution} per input bin) covering the mechanism's output domain (more bins on each
 * side for enlarged output domains; for unbounded outputs the range [lo - 2w, hi + 2w) with the end
 * bins taking the tails, w = hi - lo). Output bin {@code j} spans {@code [lo + (j + offset) h, lo +
 * (j + offset + 1) h)} with {@code h = w / (k resolution)}. Finer output bins keep what the sharp
 * edges of a piecewise mechanism's output say about the input, which the reconstruction uses.
 *
 * <p>Immutable and serializable.
 */
public final class FieldBinning implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final int bins;
  private final double lo;
  private final double width;
  private final boolean circular;
  private final int offset;
  private final int outputBins;
  private final int resolution;

  private FieldBinning(
      int bins, double lo, double width, boolean circular, int offset, int outputBins, int resolution) {
    this.bins = bins;
    this.lo = lo;
    this.width = width;
    this.circular = circular;
    this.offset = offset;
    this.outputBins = outputBins;
    this.resolution = resolution;
  }

  /** k bins over the mechanism's domain, and output bins of the same width. */
  public static FieldBinning of(Mechanism mechanism, int bins) {
    return of(mechanism, bins, 1);
  }

  /** k input bins over the mechanism's domain; output bins {@code resolution} times finer. */
  public static FieldBinning of(Mechanism mechanism, int bins, int resolution) {
    if (bins < 1 || bins > 100_000) {
      throw new IllegalArgumentException("bins must be in [1, 100000], got " + bins);
    }
    if (resolution < 1 || resolution > 64) {
      throw new IllegalArgumentException("output resolution must be in [1, 64], got " + resolution);
    }
    Domain d = mechanism.domain();
    double w = d.width();
    int fine = bins * resolution;
    double h = w / fine;
    if (d.isCircular()) {
      return new FieldBinning(bins, d.lo(), w, true, 0, fine, resolution);
    }
    double outLo = Double.isFinite(mechanism.outputLo()) ? mechanism.outputLo() : d.lo() - 2 * w;
    double outHi = Double.isFinite(mechanism.outputHi()) ? mechanism.outputHi() : d.hi() + 2 * w;
    int first = (int) Math.floor((outLo - d.lo()) / h + 1e-9);
    int last = (int) Math.ceil((outHi - d.lo()) / h - 1e-9);
    first = Math.min(first, 0);
    last = Math.max(last, fine);
    return new FieldBinning(bins, d.lo(), w, false, first, last - first, resolution);
  }

  /** A binning of a domain alone (raw histograms of true values, for evaluation). */
  public static FieldBinning ofDomain(Domain domain, int bins) {
    Checks.notNull("domain", domain);
    return new FieldBinning(bins, domain.lo(), domain.width(), domain.isCircular(), 0, bins, 1);
  }

  /** Number of input bins k. */
  public int bins() {
    return bins;
  }

  /** Number of output bins. */
  public int outputBins() {
    return outputBins;
  }

  /** Whether the domain is a circle. */
  public boolean circular() {
    return circular;
  }

  public double lo() {
    return lo;
  }

  /** The domain's width (the period on a circle). */
  public double width() {
    return width;
  }

  /** Width of one input bin. */
  public double binWidth() {
    return width / bins;
  }

  /** Output bins per input bin. */
  public int resolution() {
    return resolution;
  }

  /**
   * Output bin of a value: clamped into range (tails of unbounded outputs go to the end bins, however
   * far: the index is clamped as a double, before it could overflow an int).
   */
  public int outputBin(double y) {
    int fine = bins * resolution;
    double j = Math.floor((y - lo) / width * fine);
    if (circular) {
      return (int) Math.floorMod((long) j, fine);
    }
    return (int) Math.min(Math.max(j - offset, 0), outputBins - 1);
  }

  /** Input bin of a value in [lo, hi] (hi goes to the last bin; wraps on a circle). */
  public int inputBin(double x) {
    int j = (int) Math.floor((x - lo) / width * bins);
    if (circular) {
      return Math.floorMod(j, bins);
    }
    return Math.min(Math.max(j, 0), bins - 1);
  }

  /** Left edge of output bin j. */
  public double outputBinLo(int j) {
    return lo + (double) (j + offset) * width / ((long) bins * resolution);
  }

  /** Right edge of output bin j. */
  public double outputBinHi(int j) {
    return lo + (double) (j + offset + 1) * width / ((long) bins * resolution);
  }

  /**
   * The raw histogram over the input bins from output-bin counts: each output bin's count goes to
   * the input bin that holds its centre, outputs beyond the domain to the end bins (truncation).
   * Frequencies sum to 1.
   */
  public double[] rawHistogram(long[] outputCounts) {
    double[] f = new double[bins];
    long n = 0;
    for (int j = 0; j < outputCounts.length; j++) {
      n += outputCounts[j];
      double centre = 0.5 * (outputBinLo(j) + outputBinHi(j));
      f[inputBin(Math.min(Math.max(centre, lo), lo + width))] += outputCounts[j];
    }
    if (n > 0) {
      for (int i = 0; i < bins; i++) {
        f[i] /= n;
      }
    }
    return f;
  }

  /** Centre of input bin i. */
  public double inputBinCentre(int i) {
    return lo + (i + 0.5) * width / bins;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldBinning b && b.bins == bins && b.lo == lo && b.width == width
        && b.circular == circular && b.offset == offset && b.outputBins == outputBins
        && b.resolution == resolution;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(bins, lo, width, circular, offset, outputBins, resolution);
  }
}
