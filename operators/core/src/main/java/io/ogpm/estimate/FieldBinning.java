package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;

/**
 * The bins of one field: k equal input bins over the domain [lo, hi), and output bins a few times
 * finer ({@code resolution} per input bin) covering the mechanism's output domain (more bins on
 * each side for enlarged output domains; for unbounded outputs the range [lo - 2w, hi + 2w) with
 * the end bins taking the tails, w = hi - lo). Output bin {@code j} spans {@code [lo + (j + offset)
 * h, lo + (j + offset + 1) h)} with {@code h = w / (k resolution)}. Finer output bins keep what the
 * sharp edges of a piecewise mechanism's output say about the input, which the reconstruction uses.
 *
 * <p>It also fixes how a {@link FieldAccumulator} sums the field's values exactly: in integer units
 * of the quantum {@code q = 2^}{@link #sumExponent()}, chosen from the field's {@link #reach()} R,
 * the largest magnitude a value may have (the larger end of the output domain; for unbounded
 * outputs, the domain widened by 1024 widths on each side): {@code q = 2^(floor(log2 R) - 60)}, so
 * a value is at most {@code 2^61} units and a sum of up to {@code 2^63} values fits in 128 bits.
 * Rounding a value to a whole number of units moves it by at most {@code q / 2 <= R 2^-61}, less
 * than a hundredth of an ulp of R.
 *
 * <p>Squares are summed the same way, for the window's spread: a value y enters as its squared
 * distance from the domain's {@link #centre()} c, {@code (y - c)^2}, in units of {@code 2^}{@link
 * #squareExponent()}, chosen as above from the largest such square an accepted value can have,
 * {@code (R + |c|)^2}: at most {@code 2^61} units each. About the centre, because the spread of a
 * field far from 0 (a domain [1000, 1001]) is a difference of two squares near 10^6 otherwise, and
 * loses the digits the spread needs.
 *
 * <p>Immutable and serializable.
 */
@PublicEvolving
public final class FieldBinning implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final int bins;
  private final double lo;
  private final double width;
  private final boolean circular;
  private final int offset;
  private final int outputBins;
  private final int resolution;
  private final double reach;
  private final int sumExponent;
  private final double sumScale;
  private final int squareExponent;
  private final double squareScale;
  private final String id;

  private FieldBinning(
      int bins,
      double lo,
      double width,
      boolean circular,
      int offset,
      int outputBins,
      int resolution,
      double reach) {
    this.bins = bins;
    this.lo = lo;
    this.width = width;
    this.circular = circular;
    this.offset = offset;
    this.outputBins = outputBins;
    this.resolution = resolution;
    this.reach = reach;
    // (Clamped where 2^-e would overflow: only for a reach below 2^-962, where the quantum is then
    // coarser than stated.)
    this.sumExponent = Math.max(Math.getExponent(reach) - 60, Double.MIN_EXPONENT);
    this.sumScale = Math.scalb(1.0, -sumExponent);
    // A little above (R + |c|)^2, so that no rounding of a square makes it more than 2^61 units.
    double c = Math.abs(centre());
    double largestSquare = (reach + c) * (reach + c) * (1 + 0x1p-40);
    this.squareExponent =
        Math.min(
            Math.max(Math.getExponent(largestSquare) - 60, Double.MIN_EXPONENT),
            Double.MAX_EXPONENT);
    this.squareScale = Math.scalb(1.0, -squareExponent);
    this.id =
        bins
            + " bins on ["
            + lo
            + ", "
            + (lo + width)
            + ") "
            + (circular ? "circular" : "classical")
            + ", "
            + outputBins
            + " output bins from "
            + offset
            + ", values within "
            + reach
            + " in units of 2^"
            + sumExponent;
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
    double reach = reachOf(mechanism);
    if (d.isCircular()) {
      return new FieldBinning(bins, d.lo(), w, true, 0, fine, resolution, reach);
    }
    double outLo = Double.isFinite(mechanism.outputLo()) ? mechanism.outputLo() : d.lo() - 2 * w;
    double outHi = Double.isFinite(mechanism.outputHi()) ? mechanism.outputHi() : d.hi() + 2 * w;
    int first = (int) Math.floor((outLo - d.lo()) / h + 1e-9);
    int last = (int) Math.ceil((outHi - d.lo()) / h - 1e-9);
    first = Math.min(first, 0);
    last = Math.max(last, fine);
    return new FieldBinning(bins, d.lo(), w, false, first, last - first, resolution, reach);
  }

  /**
   * How many domain widths beyond each end unbounded outputs (staircase) are summed: farther values
   * are not accepted. Staircase's tails decay geometrically, by e^-eps per step of its width, far
   * less than a domain width, so a value 1024 widths out has probability below e^-1024 eps.
   */
  static final double UNBOUNDED_REACH = 1024;

  /**
   * The largest magnitude of a mechanism's outputs that its field's sums take: the larger end of
   * its output domain (on a circle too: outputs beyond [lo, hi) are wrapped into it), or for
   * unbounded outputs of the domain widened by {@value #UNBOUNDED_REACH} widths on each side.
   */
  public static double reachOf(Mechanism mechanism) {
    Domain d = mechanism.domain();
    double w = d.width();
    return magnitude(
        Double.isFinite(mechanism.outputLo()) ? mechanism.outputLo() : d.lo() - UNBOUNDED_REACH * w,
        Double.isFinite(mechanism.outputHi())
            ? mechanism.outputHi()
            : d.hi() + UNBOUNDED_REACH * w);
  }

  private static double magnitude(double a, double b) {
    double m = Math.max(Math.abs(a), Math.abs(b));
    // A domain [0, 0] is no domain; the smallest normal keeps the exponent defined.
    return Math.max(m, Double.MIN_NORMAL);
  }

  /** A binning of a domain alone (raw histograms of true values, for evaluation). */
  public static FieldBinning ofDomain(Domain domain, int bins) {
    Checks.notNull("domain", domain);
    return new FieldBinning(
        bins,
        domain.lo(),
        domain.width(),
        domain.isCircular(),
        0,
        bins,
        1,
        magnitude(domain.lo(), domain.hi()));
  }

  /** The largest magnitude of a value the field's sums take ({@link #accepts}). */
  public double reach() {
    return reach;
  }

  /** Whether a value can be summed: finite and within the {@link #reach()}. */
  public boolean accepts(double y) {
    return Math.abs(y) <= reach;
  }

  /** The exponent e of the quantum {@code 2^e} in which the field's values are summed. */
  public int sumExponent() {
    return sumExponent;
  }

  /** {@code 2^-e}: a value times this, rounded to an integer, is its number of quanta. */
  double sumScale() {
    return sumScale;
  }

  /** The middle of the domain: the field's squares are summed about it. */
  public double centre() {
    return lo + width / 2;
  }

  /** The exponent of the quantum in which the squares about the {@link #centre()} are summed. */
  public int squareExponent() {
    return squareExponent;
  }

  /** {@code 2^-squareExponent}: a square times this, rounded, is its number of quanta. */
  double squareScale() {
    return squareScale;
  }

  /**
   * A canonical description of everything that fixes what an accumulator's counts and sums mean:
   * equal for equal binnings, different otherwise; for messages and for checking that accumulators
   * belong together.
   */
  public String id() {
    return id;
  }

  @Override
  public String toString() {
    return id;
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
   * Output bin of a value: clamped into range (tails of unbounded outputs go to the end bins,
   * however far: the index is clamped as a double, before it could overflow an int).
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
    return o instanceof FieldBinning b
        && b.bins == bins
        && b.lo == lo
        && b.width == width
        && b.circular == circular
        && b.offset == offset
        && b.outputBins == outputBins
        && b.resolution == resolution
        && b.reach == reach;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(bins, lo, width, circular, offset, outputBins, resolution, reach);
  }
}
