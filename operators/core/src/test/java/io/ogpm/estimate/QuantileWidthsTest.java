package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * How wide the quantiles' intervals are beside what any method could give: for OGPM on [0, 1] with
 * 50 bins, readings normal in the middle, near an end (clamped there) and uniform, the interval of
 * the 10th, 50th and 90th percentile read off the cumulative band, beside
 *
 * <ul>
 *   <li>the oracle: the linear program over every input distribution whose window shares lie within
 *       the band's confidence bounds around the true output distribution, the narrowest interval
 *       any certificate of those bounds gives (it knows the output distribution exactly and takes
 *       the sampling spread a simultaneous 95 % set needs; the band's certificates are feasible
 *       points of its dual, so it is never wider than the band);
 *   <li>the raw readings' own interval: the order statistics' distribution-free 95 % interval, what
 *       a window without privacy would report.
 * </ul>
 *
 * The window's counts are the expected ones (the output distribution exactly, rounded), so every
 * number is that of a typical window. The programs run on a grid of 8 points per bin, which can
 * only narrow them: the ratio to the band errs against the band. Writes {@code
 * target/quantile-widths.md}; checks that the program is never wider than the band and that the
 * band's median interval meets its targets (0.15 of the domain at eps 1, 0.08 at eps 4, n = 10,000,
 * readings in the middle).
 */
@Tag("slow") // hundreds of linear programs: run by surefire, left out of mutation testing
class QuantileWidthsTest {
  private static final NormalDistribution NORMAL = new NormalDistribution(0, 1);
  private static final int BINS = 50;
  private static final int LP_POINTS_PER_BIN = 8;
  private static final double[] PROBABILITIES = {0.1, 0.5, 0.9};
  private static final double[] EPSILONS = {1, 4, 8};
  private static final long[] SIZES = {1_000, 10_000, 100_000};

  /** The readings' distributions: name and quantile function on [0, 1]. */
  private record Readings(String name, DoubleUnaryOperator quantile, DoubleUnaryOperator cdf) {}

  private static final List<Readings> READINGS =
      List.of(
          new Readings(
              "normal(0.5, 0.05)",
              u -> 0.5 + 0.05 * NORMAL.inverseCumulativeProbability(u),
              x -> NORMAL.cumulativeProbability((x - 0.5) / 0.05)),
          new Readings(
              "normal(0.05, 0.05), clamped at 0",
              u -> Math.max(0, 0.05 + 0.05 * NORMAL.inverseCumulativeProbability(u)),
              x -> x < 0 ? 0 : NORMAL.cumulativeProbability((x - 0.05) / 0.05)),
          new Readings("uniform", u -> u, x -> Math.min(1, Math.max(0, x))));

  @Test
  void quantileIntervalsBesideTheProgramTheIdentifiedSetAndRawReadings() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("| readings | eps | n | p | band | oracle | raw readings | band / oracle |");
    lines.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (double eps : EPSILONS) {
      Mechanism m =
          MechanismCatalog.of(
              MechanismSpec.builder().epsilon(eps).domain(Domain.classical(0, 1)).build());
      FieldBinning binning = FieldBinning.of(m, BINS);
      CumulativeBands bands = CumulativeBands.of(m, binning);
      BinnedKernel kernel = new BinnedKernel(m, binning);
      for (Readings readings : READINGS) {
        Oracle oracle = new Oracle(kernel, binning, readings);
        for (long n : SIZES) {
          long[] counts = oracle.expectedCounts(n);
          CumulativeBand band = bands.band(counts, n);
          for (double p : PROBABILITIES) {
            Interval ours = band.quantile(p, Double.NaN);
            double[] program = oracle.quantile(band, p, n);
            double raw = rawWidth(readings, p, n);
            double width = ours.upper() - ours.lower();
            double programWidth = program[1] - program[0];
            assertThat(programWidth)
                .as("%s eps %s n %s p %s", readings.name, eps, n, p)
                .isLessThanOrEqualTo(width + 1e-9);
            if (p == 0.5 && n == 10_000 && readings == READINGS.get(0)) {
              assertThat(width)
                  .as("median at eps %s", eps)
                  .isLessThanOrEqualTo(eps == 1 ? 0.15 + 1e-9 : eps == 4 ? 0.08 + 1e-9 : 1);
            }
            lines.add(
                String.format(
                    Locale.ROOT,
                    "| %s | %s | %,d | %s | %.3f | %.3f | %.3f | %.2f |",
                    readings.name,
                    eps,
                    n,
                    p,
                    width,
                    programWidth,
                    raw,
                    programWidth > 0 ? width / programWidth : Double.NaN));
          }
        }
      }
    }
    Path out = Path.of("target", "quantile-widths.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, String.join("\n", lines) + "\n");
  }

  /**
   * The order statistics' 95 % interval for the p-quantile of n readings drawn from the
   * distribution: ranks {@code n p -+ 1.96 sqrt(n p (1 - p))}, read off its quantile function.
   */
  private static double rawWidth(Readings readings, double p, long n) {
    double half = 1.96 * Math.sqrt(p * (1 - p) / n);
    return readings.quantile.applyAsDouble(Math.min(1 - 1e-12, p + half))
        - readings.quantile.applyAsDouble(Math.max(1e-12, p - half));
  }

  /**
   * The linear programs over input distributions on a grid of points, at the band's points: the
   * most share at or below each point and at or above it, given bounds on every prefix window's
   * expected share.
   */
  private static final class Oracle {
    private final double[][] tails;
    private final double[] weights;
    private final int grid;

    Oracle(BinnedKernel kernel, FieldBinning binning, Readings readings) {
      this.grid = BINS * LP_POINTS_PER_BIN;
      this.tails = new double[grid + 1][];
      this.weights = new double[grid + 1];
      for (int g = 0; g <= grid; g++) {
        tails[g] = kernel.upperTails((double) g / grid);
      }
      // Each grid point takes the readings' mass nearest it: a point mass at 0 stays at 0.
      double previous = 0;
      for (int g = 0; g <= grid; g++) {
        double through = g == grid ? 1 : readings.cdf.applyAsDouble((g + 0.5) / grid);
        weights[g] = through - previous;
        previous = through;
      }
    }

    /** The window's expected share at or beyond each output edge. */
    double[] expectedTails() {
      double[] q = new double[tails[0].length];
      for (int g = 0; g <= grid; g++) {
        for (int o = 0; o < q.length; o++) {
          q[o] += weights[g] * tails[g][o];
        }
      }
      return q;
    }

    long[] expectedCounts(long n) {
      double[] q = expectedTails();
      long[] counts = new long[q.length - 1];
      for (int o = 0; o < counts.length; o++) {
        counts[o] = Math.round(n * (q[o] - q[o + 1]));
      }
      long total = 0;
      for (long c : counts) {
        total += c;
      }
      counts[counts.length / 2] += n - total;
      return counts;
    }

    /**
     * The program's interval for the p-quantile at the band's points: from the last point whose
     * most share at or below is under p, to the first whose least share reaches p.
     */
    double[] quantile(CumulativeBand band, double p, long n) {
      double[] q = expectedTails();
      int outputs = q.length - 1;
      double level = Math.log(2.0 * (outputs - 1) / CumulativeBands.ALPHA);
      double[] lower = new double[outputs];
      double[] upper = new double[outputs];
      for (int o = 1; o < outputs; o++) {
        long k = Math.round(q[o] * n);
        lower[o] = ChernoffBounds.lower(k, n, level);
        upper[o] = ChernoffBounds.upper(k, n, level);
      }
      double[][] a = new double[2 * (outputs - 1)][grid + 2];
      double[] b = new double[2 * (outputs - 1)];
      for (int o = 1; o < outputs; o++) {
        for (int g = 0; g <= grid; g++) {
          a[o - 1][g] = tails[g][o];
          a[outputs - 2 + o][g] = -tails[g][o];
        }
        // The data's own mixture: a feasible start.
        a[o - 1][grid + 1] = q[o];
        a[outputs - 2 + o][grid + 1] = -q[o];
        b[o - 1] = upper[o];
        b[outputs - 2 + o] = -lower[o];
      }
      double[] points = band.points();
      double from = points[0];
      double to = points[points.length - 1];
      Interval ours = band.quantile(p, Double.NaN);
      for (int k = 0; k < points.length; k++) {
        if (points[k] < ours.lower() || points[k] > ours.upper()) {
          continue;
        }
        int t = (int) Math.round(points[k] * grid);
        if (most(a, b, t, 0) < p) {
          from = Math.max(from, points[k]);
        }
        if (1 - most(a, b, t + 1, 1) >= p && points[k] < to) {
          to = points[k];
        }
      }
      return new double[] {Math.max(from, ours.lower()), Math.min(to, ours.upper())};
    }

    /** The most share at or below grid point t (side 0) or at or above it (side 1). */
    private double most(double[][] a, double[] b, int t, int side) {
      if (side == 1 && t > grid) {
        return 0;
      }
      double[] objective = new double[grid + 2];
      for (int g = 0; g <= grid; g++) {
        objective[g] = (side == 0 ? g <= t : g >= t) ? 1 : 0;
      }
      LinearProgram.Solution s = LinearProgram.maximize(objective, a, b);
      assertThat(s.status()).isEqualTo(LinearProgram.Status.OPTIMAL);
      return s.value();
    }
  }
}
