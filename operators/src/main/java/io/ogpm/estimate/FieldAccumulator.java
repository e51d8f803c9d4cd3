package io.ogpm.estimate;

import java.util.Arrays;

/**
 * What a window keeps of one field's perturbed values: a histogram over the output bins, the count,
 * compensated sums of y and y^2 (linear means), and sums of cos and sin of the angle and of twice
 * the angle (circular means). Mergeable: merging is adding, so it is associative and commutative;
 * its size does not grow with the data.
 *
 * <p>Mutable, as accumulators are; a public no-argument constructor and getters and setters make it
 * a Flink POJO (serialised field by field, no Kryo). Sums use Neumaier's compensated summation so
 * that millions of additions lose no more than a few ulps.
 */
public final class FieldAccumulator {
  private long count;
  private long[] histogram = new long[0];
  private double sum;
  private double sumCompensation;
  private double sumOfSquares;
  private double sumOfSquaresCompensation;
  private double sumCos;
  private double sumSin;
  private double sumCos2;
  private double sumSin2;

  /** An empty accumulator (for Flink; use {@link #forBinning}). */
  public FieldAccumulator() {}

  /** An empty accumulator with one counter per output bin. */
  public static FieldAccumulator forBinning(FieldBinning binning) {
    FieldAccumulator a = new FieldAccumulator();
    a.histogram = new long[binning.outputBins()];
    return a;
  }

  /** Adds one perturbed value (sizing the histogram on first use, as Flink creates it empty). */
  public FieldAccumulator add(double y, FieldBinning binning) {
    if (histogram.length == 0) {
      histogram = new long[binning.outputBins()];
    }
    count++;
    histogram[binning.outputBin(y)]++;
    addCompensated(y, true);
    addCompensated(y * y, false);
    if (binning.circular()) {
      double angle = 2 * Math.PI * (y - binning.lo()) / binning.width();
      sumCos += Math.cos(angle);
      sumSin += Math.sin(angle);
      sumCos2 += Math.cos(2 * angle);
      sumSin2 += Math.sin(2 * angle);
    }
    return this;
  }

  private void addCompensated(double v, boolean first) {
    double s = first ? sum : sumOfSquares;
    double t = s + v;
    double c = Math.abs(s) >= Math.abs(v) ? (s - t) + v : (v - t) + s;
    if (first) {
      sum = t;
      sumCompensation += c;
    } else {
      sumOfSquares = t;
      sumOfSquaresCompensation += c;
    }
  }

  /** Adds another accumulator's contents into this one and returns this. */
  public FieldAccumulator merge(FieldAccumulator other) {
    if (histogram.length == 0) {
      histogram = new long[other.histogram.length];
    }
    if (other.histogram.length != 0 && other.histogram.length != histogram.length) {
      throw new IllegalArgumentException(
          "cannot merge histograms of " + histogram.length + " and " + other.histogram.length + " bins");
    }
    count += other.count;
    for (int i = 0; i < other.histogram.length; i++) {
      histogram[i] += other.histogram[i];
    }
    addCompensated(other.sum, true);
    sumCompensation += other.sumCompensation;
    addCompensated(other.sumOfSquares, false);
    sumOfSquaresCompensation += other.sumOfSquaresCompensation;
    sumCos += other.sumCos;
    sumSin += other.sumSin;
    sumCos2 += other.sumCos2;
    sumSin2 += other.sumSin2;
    return this;
  }

  /** A deep copy. */
  public FieldAccumulator copy() {
    return new FieldAccumulator().merge(this);
  }

  /** The mean of the values added. */
  public double mean() {
    return count == 0 ? Double.NaN : (sum + sumCompensation) / count;
  }

  /** The mean of the squares of the values added. */
  public double meanOfSquares() {
    return count == 0 ? Double.NaN : (sumOfSquares + sumOfSquaresCompensation) / count;
  }

  // Getters and setters: the Flink POJO contract.

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

  public double getSum() {
    return sum;
  }

  public void setSum(double sum) {
    this.sum = sum;
  }

  public double getSumCompensation() {
    return sumCompensation;
  }

  public void setSumCompensation(double sumCompensation) {
    this.sumCompensation = sumCompensation;
  }

  public double getSumOfSquares() {
    return sumOfSquares;
  }

  public void setSumOfSquares(double sumOfSquares) {
    this.sumOfSquares = sumOfSquares;
  }

  public double getSumOfSquaresCompensation() {
    return sumOfSquaresCompensation;
  }

  public void setSumOfSquaresCompensation(double sumOfSquaresCompensation) {
    this.sumOfSquaresCompensation = sumOfSquaresCompensation;
  }

  public double getSumCos() {
    return sumCos;
  }

  public void setSumCos(double sumCos) {
    this.sumCos = sumCos;
  }

  public double getSumSin() {
    return sumSin;
  }

  public void setSumSin(double sumSin) {
    this.sumSin = sumSin;
  }

  public double getSumCos2() {
    return sumCos2;
  }

  public void setSumCos2(double sumCos2) {
    this.sumCos2 = sumCos2;
  }

  public double getSumSin2() {
    return sumSin2;
  }

  public void setSumSin2(double sumSin2) {
    this.sumSin2 = sumSin2;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldAccumulator a && a.count == count && Arrays.equals(a.histogram, histogram)
        && Double.compare(a.mean(), mean()) == 0 && Double.compare(a.meanOfSquares(), meanOfSquares()) == 0
        && a.sumCos == sumCos && a.sumSin == sumSin && a.sumCos2 == sumCos2 && a.sumSin2 == sumSin2;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(count) * 31 + Arrays.hashCode(histogram);
  }
}
