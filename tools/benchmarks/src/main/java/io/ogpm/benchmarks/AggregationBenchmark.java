package io.ogpm.benchmarks;

import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.estimate.Reconstruction;
import io.ogpm.estimate.TransitionMatrix;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The aggregation's costs, one thread, 50 bins: adding a value to an exact accumulator, merging two
 * accumulators (what the merge stage does per partial), and one emission (the estimate of a window
 * from its accumulator: raw histogram, means with intervals and the EMS reconstruction) for windows
 * of 1e3 to 1e6 perturbed values, with the reconstruction (its matrix products over runs of equal
 * entries, or dense: parameter {@code products}) and without it (intervals only). An emission's
 * cost depends on the values only through the histogram, so through the number of EMS iterations
 * (capped at 10,000), not through their number. Run: {@code java -jar
 * tools/benchmarks/target/benchmarks.jar AggregationBenchmark}.
 */
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AggregationBenchmark {
  static final int BINS = 50;
  static final int BATCH = 1024;

  /**
   * A field: OGPM on [-3, 3] (classical) or on the circle, epsilon 1 (many EMS iterations) or 4.
   */
  @State(Scope.Thread)
  public static class Field {
    @Param({"classical", "circular"})
    public String domain;

    @Param({"1", "4"})
    public double epsilon;

    Mechanism mechanism;
    FieldEstimator estimator;
    FieldBinning binning;

    void setUpField() {
      mechanism =
          MechanismCatalog.of(
              MechanismSpec.builder()
                  .epsilon(epsilon)
                  .domain(
                      domain.equals("circular")
                          ? Domain.circular(-Math.PI, Math.PI)
                          : Domain.classical(-3, 3))
                  .build());
      estimator = FieldEstimator.of(mechanism, BINS);
      binning = estimator.binning();
    }

    /**
     * n perturbed values of a two-humped input distribution (a third at one hump, the rest at the
     * other).
     */
    double[] values(int n, long seed) {
      AesCtrSource bits = AesCtrSource.seeded(seed);
      Domain d = mechanism.domain();
      double[] out = new double[n];
      for (int i = 0; i < n; i++) {
        double centre = bits.nextUniform() < 1.0 / 3 ? 0.25 : 0.7;
        double u =
            Math.min(
                Math.max(centre + 0.08 * (bits.nextUniform() + bits.nextUniform() - 1), 0), 0.999);
        out[i] = mechanism.perturb(d.lo() + d.width() * u, bits);
      }
      return out;
    }
  }

  /** Adding values: each operation is one value. */
  @State(Scope.Thread)
  public static class Adding extends Field {
    double[] values;
    FieldAccumulator acc;

    @Setup(Level.Trial)
    public void setUp() {
      setUpField();
      values = values(BATCH, 1);
      acc = estimator.newAccumulator("f");
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(BATCH)
  public FieldAccumulator add(Adding s) {
    FieldAccumulator acc = s.acc;
    for (double v : s.values) {
      acc.add(v, s.binning);
    }
    return acc;
  }

  /** Merging: each operation merges one accumulator of 1,000 values into another. */
  @State(Scope.Thread)
  public static class Merging extends Field {
    FieldAccumulator into;
    FieldAccumulator part;

    @Setup(Level.Trial)
    public void setUp() {
      setUpField();
      into = estimator.newAccumulator("f");
      part = estimator.newAccumulator("f");
      for (double v : values(1_000, 2)) {
        part.add(v, binning);
      }
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public FieldAccumulator merge(Merging s) {
    return s.into.merge(s.part);
  }

  /**
   * An emission: the estimate of a window of n values, EMS reconstruction included, with the
   * transition matrix's products over its runs of equal entries (what the estimator uses) or dense
   * (the reference, O(bins x output bins) per product), side by side.
   */
  @State(Scope.Thread)
  public static class Emitting extends Field {
    @Param({"1000", "10000", "100000", "1000000"})
    public int records;

    @Param({"runs", "dense"})
    public String products;

    FieldAccumulator window;

    /** The dense matrix when products = dense, else null (the estimator's own). */
    TransitionMatrix dense;

    @Setup(Level.Trial)
    public void setUp() {
      setUpField();
      dense = products.equals("dense") ? estimator.transition().dense() : null;
      window = estimator.newAccumulator("f");
      for (double v : values(records, 3)) {
        window.add(v, binning);
      }
      int iterations =
          dense == null
              ? estimator.estimate(window, true).iterations()
              : Reconstruction.em(window.getHistogram(), dense).iterations();
      System.out.printf(
          "%n%s eps %s, %d records, %s products: %d EMS iterations%n",
          domain, epsilon, records, products, iterations);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public Object emission(Emitting s) {
    if (s.dense == null) {
      return s.estimator.estimate(s.window, true);
    }
    // The same work with the dense products: the estimate without EMS, then EMS.
    return new Object[] {
      s.estimator.estimate(s.window, false), Reconstruction.em(s.window.getHistogram(), s.dense)
    };
  }

  /**
   * The same window's emission without the tail statistics, the band and the step-limited EMS
   * schedule ({@link FieldEstimator#estimateWithoutTailsOrBand}): the side-by-side reference for
   * {@link #emission}, which shows what those parts cost (products over runs; with dense products
   * it is the same reference).
   */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public FieldEstimate emissionWithoutTailsOrBand(Emitting s) {
    return s.estimator.estimateWithoutTailsOrBand(s.window);
  }

  /**
   * The same emission without the EMS reconstruction: raw histogram, means and their 95 % intervals
   * only (what {@code --method raw} emits); the difference to {@link #emission} is the
   * reconstruction's cost.
   */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public FieldEstimate emissionIntervalsOnly(Emitting s) {
    return s.estimator.estimate(s.window, false);
  }
}
