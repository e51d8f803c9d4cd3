package io.ogpm.estimate;

/**
 * What a window keeps of one field's perturbed values: a histogram over the output bins, the count,
 * a compensated sum of y (linear means), and sums of cos and sin of the angle (circular means).
 * Mergeable: merging is adding, so it is associative and commutative; its size does not grow with
 * the data.
 *
 * <p>Mutable, as accumulators are; a public no-argument constructor and getters and setters make it
 * a Flink POJO (serialised field by field, no Kryo). The sum uses Neumaier's compensated summation
 * so that millions of additions lose no more than a few ulps.
 */
public final class FieldAccumulator {
  private long count;
  private long[] histogram = new long[0];
  private double sum;
  private double sumCompensation;
  private double sumCos;
  private double sumSin;

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
    addToSum(y);
    if (binning.circular()) {
      double angle = 2 * Math.PI * (y - binning.lo()) / binning.width();
      sumCos += Math.cos(angle);
      sumSin += Math.sin(angle);
    }
    return this;
  }

  /** Neumaier's step: the rounding error of {@code sum + v} goes into the compensation. */
  private void addToSum(double v) {
    double t = sum + v;
    sumCompensation += Math.abs(sum) >= Math.abs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
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
    addToSum(other.sum);
    sumCompensation += other.sumCompensation;
    sumCos += other.sumCos;
    sumSin += other.sumSin;
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
}
