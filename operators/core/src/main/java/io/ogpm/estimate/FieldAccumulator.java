package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Objects;

/**
 * What a window keeps of one field's perturbed values: the count, a histogram over the output bins,
 * the sums of the values and of their squares (linear means and their spread) and the sums of the
 * cosine and sine of their angles and of twice their angles (circular means and their spread). Its
 * size does not grow with the data.
 *
 * <p>Exact: every count and sum is an integer, so adding values and merging accumulators are
 * associative and commutative to the last bit, and any split of a window's values over partial
 * accumulators merges into exactly the accumulator of all of them, in any order. The histogram
 * counts are longs. A value y enters the sum as {@code rint(y / q)} quanta of its field's {@code q
 * = 2^e} ({@link FieldBinning#sumExponent()}: at most {@code R 2^-61} for a field whose values stay
 * within R in magnitude, {@link FieldBinning#reach()}), its angle's cosine and sine (computed by
 * {@link StrictMath}, the same on every JVM) as {@code rint(cos * 2^60)} and {@code rint(sin *
 * 2^60)}; its square about the field's centre c as {@code rint((y - c)^2 / q2)} quanta of {@code q2
 * = 2^}{@link FieldBinning#squareExponent()} (at most {@code 2^61}); the sums are 128-bit
 * two's-complement integers (high and low words, {@link Int128}), which cannot overflow below 2^63
 * values. So the quantised {@link #mean()} is within {@code q / 2} of the exact mean of the values
 * added, plus its own rounding to a double (half an ulp, and 1e-33 relative for the division); the
 * mean cosine and sine within {@code 2^-61} (plus their rounding); the {@link #meanSquare} within
 * {@code q2 / 2}.
 *
 * <p>An accumulator belongs to one field and one binning ({@link FieldBinning#id()}), fixed when it
 * is created ({@link #forField}) or, for one created empty (as Flink creates accumulators), by its
 * first value or merge: {@link #merge} refuses an accumulator of another field or binning, and
 * {@link #add} a value of another binning.
 *
 * <p>Mutable, as accumulators are; a public no-argument constructor and getters and setters make it
 * a Flink POJO (serialised field by field, no Kryo).
 */
@PublicEvolving
public final class FieldAccumulator {
  /** Quanta per unit of a cosine or sine: they lie in [-1, 1], so each is at most 2^60 quanta. */
  static final int TRIG_EXPONENT = -60;

  private static final double TRIG_SCALE = 0x1p60;

  private String field;
  private String binning;
  private int sumExponent;
  private long count;
  private long[] histogram = new long[0];
  private long sumHigh;
  private long sumLow;
  private long cosHigh;
  private long cosLow;
  private long sinHigh;
  private long sinLow;
  private long squaresHigh;
  private long squaresLow;
  private long cos2High;
  private long cos2Low;
  private long sin2High;
  private long sin2Low;

  /** An empty accumulator of no field yet (for Flink; use {@link #forField}). */
  public FieldAccumulator() {}

  /** An empty accumulator of an unnamed field with this binning. */
  public static FieldAccumulator forBinning(FieldBinning binning) {
    return forField(null, binning);
  }

  /** An empty accumulator of the named field (null: unnamed) with this binning. */
  public static FieldAccumulator forField(String field, FieldBinning binning) {
    FieldAccumulator a = new FieldAccumulator();
    a.field = field;
    a.bind(binning);
    return a;
  }

  /**
   * Adds one perturbed value (sizing the accumulator on first use, as Flink creates it empty).
   *
   * @throws IllegalArgumentException if the value is not finite or beyond the binning's {@link
   *     FieldBinning#reach()} (the message carries no value), or the binning is not this
   *     accumulator's
   */
  public FieldAccumulator add(double y, FieldBinning b) {
    return change(y, b, 1);
  }

  /**
   * Removes one value added before (a retraction in SQL): the exact inverse of {@link #add}, since
   * every count and sum is an integer, so adding a value and removing it leaves the accumulator as
   * it was, bit for bit.
   *
   * @throws IllegalArgumentException as {@link #add} does, or if the accumulator holds no value in
   *     the value's output bin (so it cannot have been added)
   */
  public FieldAccumulator subtract(double y, FieldBinning b) {
    return change(y, b, -1);
  }

  /**
   * Whether a value like y can have been added here: the accumulator has this binning and holds a
   * value in y's output bin (so {@link #subtract} will take it).
   */
  public boolean holdsValueLike(double y, FieldBinning b) {
    return binning != null
        && binning.equals(b.id())
        && b.accepts(y)
        && histogram[b.outputBin(y)] > 0;
  }

  /** Adds (sign 1) or removes (sign -1) one value. */
  private FieldAccumulator change(double y, FieldBinning b, int sign) {
    bind(b);
    if (!b.accepts(y)) {
      throw new IllegalArgumentException(
          "a value of "
              + name()
              + " is not finite or beyond its reach of "
              + b.reach()
              + " in magnitude");
    }
    int bin = b.outputBin(y);
    if (sign < 0 && histogram[bin] == 0) {
      throw new IllegalArgumentException(
          "cannot remove a value from " + name() + ": none was added in its bin");
    }
    count += sign;
    histogram[bin] += sign;
    // Quanta are at most 2^61 in magnitude: their negation cannot overflow.
    long quanta = sign * (long) Math.rint(y * b.sumScale());
    double d = y - b.centre();
    long square = sign * (long) Math.rint(d * d * b.squareScale());
    long cos = 0;
    long sin = 0;
    long cos2 = 0;
    long sin2 = 0;
    if (b.circular()) {
      double angle = 2 * Math.PI * (y - b.lo()) / b.width();
      cos = sign * (long) Math.rint(StrictMath.cos(angle) * TRIG_SCALE);
      sin = sign * (long) Math.rint(StrictMath.sin(angle) * TRIG_SCALE);
      cos2 = sign * (long) Math.rint(StrictMath.cos(2 * angle) * TRIG_SCALE);
      sin2 = sign * (long) Math.rint(StrictMath.sin(2 * angle) * TRIG_SCALE);
    }
    // Each a long, sign-extended to 128 bits.
    addToSums(quanta >> 63, quanta, square >> 63, square);
    addToTrigonometricSums(cos >> 63, cos, sin >> 63, sin, cos2 >> 63, cos2, sin2 >> 63, sin2);
    return this;
  }

  /**
   * Adds another accumulator's contents into this one and returns this. An accumulator of no field
   * and no binning yet (empty) merges as nothing, and takes the field and binning of what is merged
   * into it.
   *
   * @throws IllegalArgumentException naming both if the other belongs to another field or binning
   */
  public FieldAccumulator merge(FieldAccumulator other) {
    if (other.binning == null) {
      if (other.count != 0) {
        throw new IllegalArgumentException(
            "cannot merge an accumulator of " + other.count + " values and no binning");
      }
      return this;
    }
    if (field != null && other.field != null && !field.equals(other.field)) {
      throw new IllegalArgumentException(
          "cannot merge an accumulator of field '"
              + other.field
              + "' into one of field '"
              + field
              + "'");
    }
    if (binning == null) {
      if (count != 0) {
        throw new IllegalArgumentException(
            "cannot merge into an accumulator of " + count + " values and no binning");
      }
      binning = other.binning;
      sumExponent = other.sumExponent;
      histogram = new long[other.histogram.length];
    } else if (!binning.equals(other.binning)) {
      throw new IllegalArgumentException(
          "cannot merge accumulators of "
              + name()
              + " with different binnings: "
              + binning
              + " and "
              + other.binning);
    }
    if (field == null) {
      field = other.field;
    }
    count += other.count;
    for (int i = 0; i < histogram.length; i++) {
      histogram[i] += other.histogram[i];
    }
    addToSums(other.sumHigh, other.sumLow, other.squaresHigh, other.squaresLow);
    addToTrigonometricSums(
        other.cosHigh,
        other.cosLow,
        other.sinHigh,
        other.sinLow,
        other.cos2High,
        other.cos2Low,
        other.sin2High,
        other.sin2Low);
    return this;
  }

  /**
   * Adds 128-bit integers, as (high, low) words, to the sum of the values and of their squares
   * ({@link Int128#addHigh}: each high word is computed before its low word moves).
   */
  private void addToSums(long valuesHigh, long valuesLow, long squaredHigh, long squaredLow) {
    sumHigh = Int128.addHigh(sumHigh, sumLow, valuesHigh, valuesLow);
    sumLow += valuesLow;
    squaresHigh = Int128.addHigh(squaresHigh, squaresLow, squaredHigh, squaredLow);
    squaresLow += squaredLow;
  }

  /**
   * Adds 128-bit integers, as (high, low) words, to the sums of the values' cosines and sines and
   * of those of their doubled angles, as {@link #addToSums} does.
   */
  private void addToTrigonometricSums(
      long cosinesHigh,
      long cosinesLow,
      long sinesHigh,
      long sinesLow,
      long doubledCosinesHigh,
      long doubledCosinesLow,
      long doubledSinesHigh,
      long doubledSinesLow) {
    cosHigh = Int128.addHigh(cosHigh, cosLow, cosinesHigh, cosinesLow);
    cosLow += cosinesLow;
    sinHigh = Int128.addHigh(sinHigh, sinLow, sinesHigh, sinesLow);
    sinLow += sinesLow;
    cos2High = Int128.addHigh(cos2High, cos2Low, doubledCosinesHigh, doubledCosinesLow);
    cos2Low += doubledCosinesLow;
    sin2High = Int128.addHigh(sin2High, sin2Low, doubledSinesHigh, doubledSinesLow);
    sin2Low += doubledSinesLow;
  }

  /** A deep copy. */
  public FieldAccumulator copy() {
    FieldAccumulator c = new FieldAccumulator();
    c.field = field;
    return c.merge(this);
  }

  /** Whether this accumulator holds values of this binning, or of none yet. */
  public boolean hasBinning(FieldBinning b) {
    return binning == null || binning.equals(b.id());
  }

  /**
   * The mean of the values added (as quantised; see the class comment), NaN when there are none.
   */
  public double mean() {
    return meanOf(sumHigh, sumLow, sumExponent);
  }

  /**
   * The mean cosine of the values' angles on a circular field (0 on an interval), NaN when empty.
   */
  public double meanCos() {
    return meanOf(cosHigh, cosLow, TRIG_EXPONENT);
  }

  /** The mean sine of the values' angles on a circular field (0 on an interval), NaN when empty. */
  public double meanSin() {
    return meanOf(sinHigh, sinLow, TRIG_EXPONENT);
  }

  /**
   * The mean cosine of twice the values' angles on a circular field (0 on an interval), NaN when
   * empty: with {@link #meanSin2}, the window's second trigonometric moment, what the covariance of
   * its mean resultant is estimated from.
   */
  public double meanCos2() {
    return meanOf(cos2High, cos2Low, TRIG_EXPONENT);
  }

  /** The mean sine of twice the values' angles on a circular field, NaN when empty. */
  public double meanSin2() {
    return meanOf(sin2High, sin2Low, TRIG_EXPONENT);
  }

  /**
   * The mean square of the values added about the binning's {@link FieldBinning#centre()} c, {@code
   * (1/n) sum (y - c)^2}, NaN when there are none: what the window's variance is estimated from
   * ({@code LinearMeanBounds}). Within {@code q2 / 2} of the exact mean square (each square's
   * quantisation), plus a few ulps of it (the squares' own rounding, the division).
   *
   * @throws IllegalArgumentException if the binning is not this accumulator's
   */
  public double meanSquare(FieldBinning b) {
    if (!hasBinning(b)) {
      throw new IllegalArgumentException(
          "the binning " + b.id() + " is not that of " + name() + ": " + binning);
    }
    return meanOf(squaresHigh, squaresLow, b.squareExponent());
  }

  /** The sum of the values, as quantised, rounded to a double. */
  public double sum() {
    return Math.scalb(Int128.toBigInteger(sumHigh, sumLow).doubleValue(), sumExponent);
  }

  /** The sum of the cosines of the values' angles, as quantised, rounded to a double. */
  public double sumCos() {
    return Math.scalb(Int128.toBigInteger(cosHigh, cosLow).doubleValue(), TRIG_EXPONENT);
  }

  /** The sum of the sines of the values' angles, as quantised, rounded to a double. */
  public double sumSin() {
    return Math.scalb(Int128.toBigInteger(sinHigh, sinLow).doubleValue(), TRIG_EXPONENT);
  }

  /**
   * Sets the count and the sums to those of n values whose sums are these (each rounded to whole
   * quanta), for tests of estimators that need given moments without the values.
   */
  FieldAccumulator withMoments(long n, double sum, double sumCos, double sumSin) {
    count = n;
    long[] words = words(sum, sumExponent);
    sumHigh = words[0];
    sumLow = words[1];
    words = words(sumCos, TRIG_EXPONENT);
    cosHigh = words[0];
    cosLow = words[1];
    words = words(sumSin, TRIG_EXPONENT);
    sinHigh = words[0];
    sinLow = words[1];
    return this;
  }

  /**
   * Sets the sum of the squares about the centre to that of values whose squares sum to this
   * (rounded to whole quanta), for tests that need a given spread without the values.
   */
  FieldAccumulator withSquares(double sumSquares, FieldBinning b) {
    long[] words = words(sumSquares, b.squareExponent());
    squaresHigh = words[0];
    squaresLow = words[1];
    return this;
  }

  /**
   * Sets the sums of the cosines and sines of the doubled angles (rounded to whole quanta), for
   * tests that need a given second trigonometric moment without the values.
   */
  FieldAccumulator withDoubledAngleMoments(double sumCos2, double sumSin2) {
    long[] words = words(sumCos2, TRIG_EXPONENT);
    cos2High = words[0];
    cos2Low = words[1];
    words = words(sumSin2, TRIG_EXPONENT);
    sin2High = words[0];
    sin2Low = words[1];
    return this;
  }

  private void bind(FieldBinning b) {
    String id = b.id();
    if (binning == id) {
      return;
    }
    if (binning == null) {
      if (count != 0) {
        throw new IllegalArgumentException("an accumulator of " + count + " values has no binning");
      }
      binning = id;
      sumExponent = b.sumExponent();
      histogram = new long[b.outputBins()];
    } else if (!binning.equals(id)) {
      throw new IllegalArgumentException(
          "a value of the binning "
              + id
              + " cannot be added to an accumulator of "
              + name()
              + " with the binning "
              + binning);
    }
  }

  private String name() {
    return field == null ? "an unnamed field" : "field '" + field + "'";
  }

  private double meanOf(long high, long low, int exponent) {
    if (count == 0) {
      return Double.NaN;
    }
    BigDecimal quotient =
        new BigDecimal(Int128.toBigInteger(high, low))
            .divide(BigDecimal.valueOf(count), MathContext.DECIMAL128);
    return Math.scalb(quotient.doubleValue(), exponent);
  }

  /** {high, low} of rint(value 2^-exponent). */
  private static long[] words(double value, int exponent) {
    return Int128.words(
        new BigDecimal(Math.rint(Math.scalb(value, -exponent))).toBigIntegerExact());
  }

  // Getters and setters: the Flink POJO contract.

  /** The field's name, or null for an unnamed field. */
  public String getField() {
    return field;
  }

  public void setField(String field) {
    this.field = field;
  }

  /** The {@link FieldBinning#id()} of the binning, or null before the first value or merge. */
  public String getBinning() {
    return binning;
  }

  public void setBinning(String binning) {
    this.binning = binning;
  }

  public int getSumExponent() {
    return sumExponent;
  }

  public void setSumExponent(int sumExponent) {
    this.sumExponent = sumExponent;
  }

  public long getCount() {
    return count;
  }

  public void setCount(long count) {
    this.count = count;
  }

  public long[] getHistogram() {
    return histogram;
  }

  public void setHistogram(long[] histogram) {
    this.histogram = histogram;
  }

  public long getSumHigh() {
    return sumHigh;
  }

  public void setSumHigh(long sumHigh) {
    this.sumHigh = sumHigh;
  }

  public long getSumLow() {
    return sumLow;
  }

  public void setSumLow(long sumLow) {
    this.sumLow = sumLow;
  }

  public long getCosHigh() {
    return cosHigh;
  }

  public void setCosHigh(long cosHigh) {
    this.cosHigh = cosHigh;
  }

  public long getSquaresHigh() {
    return squaresHigh;
  }

  public void setSquaresHigh(long squaresHigh) {
    this.squaresHigh = squaresHigh;
  }

  public long getSquaresLow() {
    return squaresLow;
  }

  public void setSquaresLow(long squaresLow) {
    this.squaresLow = squaresLow;
  }

  public long getCos2High() {
    return cos2High;
  }

  public void setCos2High(long cos2High) {
    this.cos2High = cos2High;
  }

  public long getCos2Low() {
    return cos2Low;
  }

  public void setCos2Low(long cos2Low) {
    this.cos2Low = cos2Low;
  }

  public long getSin2High() {
    return sin2High;
  }

  public void setSin2High(long sin2High) {
    this.sin2High = sin2High;
  }

  public long getSin2Low() {
    return sin2Low;
  }

  public void setSin2Low(long sin2Low) {
    this.sin2Low = sin2Low;
  }

  public long getCosLow() {
    return cosLow;
  }

  public void setCosLow(long cosLow) {
    this.cosLow = cosLow;
  }

  public long getSinHigh() {
    return sinHigh;
  }

  public void setSinHigh(long sinHigh) {
    this.sinHigh = sinHigh;
  }

  public long getSinLow() {
    return sinLow;
  }

  public void setSinLow(long sinLow) {
    this.sinLow = sinLow;
  }

  /** Equal state: field, binning, count, histogram and sums. */
  @Override
  public boolean equals(Object o) {
    return o instanceof FieldAccumulator a
        && Objects.equals(a.field, field)
        && Objects.equals(a.binning, binning)
        && a.sumExponent == sumExponent
        && a.count == count
        && java.util.Arrays.equals(a.histogram, histogram)
        && a.sumHigh == sumHigh
        && a.sumLow == sumLow
        && a.cosHigh == cosHigh
        && a.cosLow == cosLow
        && a.sinHigh == sinHigh
        && a.sinLow == sinLow
        && a.squaresHigh == squaresHigh
        && a.squaresLow == squaresLow
        && a.cos2High == cos2High
        && a.cos2Low == cos2Low
        && a.sin2High == sin2High
        && a.sin2Low == sin2Low;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        field,
        binning,
        count,
        java.util.Arrays.hashCode(histogram),
        sumHigh,
        sumLow,
        cosHigh,
        cosLow,
        sinHigh,
        sinLow,
        squaresHigh,
        squaresLow,
        cos2High,
        cos2Low,
        sin2High,
        sin2Low);
  }

  @Override
  public String toString() {
    return "FieldAccumulator{" + name() + ", " + count + " values, binning " + binning + "}";
  }
}
