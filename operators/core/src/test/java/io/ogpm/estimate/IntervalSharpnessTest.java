package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The linear interval is as narrow as the data allow. Studentised, for readings in the middle or
 * spread over the middle half, every mechanism whose mean function is affine up to the ends is
 * within 1.15 times an oracle's width from 2,000 reports and 1.6 times at 320, at eps 1 to 8 (the
 * table {@code target/interval-widths.md}); ogpm away from its flat ends within twice the oracle's
 * at 10,000, shrinking as 1/sqrt(n); for inputs piled at the ends, where the flat ends decide, at
 * most 10 % wider than the output mean's interval alone (without the tail statistics). On [0, 1]
 * with the aggregation's default 50 bins.
 *
 * <p>Each target is checked on a confidence bound of the mean width (mean plus 3 standard errors),
 * of a ratio of paired widths, or of the ratio of two mean widths (delta method). The two sides of
 * an interval come from two statistics with independent noise, so widths vary by about a fifth from
 * window to window; the ratio of shrinking needs thousands of windows to be told from 0.4.
 */
@Tag("slow") // simulations of windows of up to 100,000 records: run by surefire, left out of
// mutation testing
class IntervalSharpnessTest {
  private static final Domain UNIT = Domain.classical(0, 1);
  private static final int BINS = 50;

  private static Mechanism mechanism(MechanismType type, double eps) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(UNIT).build());
  }

  /** Mean and standard error of a width over windows of n inputs drawn by {@code inputs}. */
  private static double[] width(
      Mechanism m,
      long seed,
      int n,
      int windows,
      InputDraw inputs,
      ToDoubleFunction<Window> measure) {
    FieldEstimator estimator = FieldEstimator.of(m, BINS);
    RandomBits bits = AesCtrSource.seeded(seed);
    double sum = 0;
    double squares = 0;
    for (int w = 0; w < windows; w++) {
      FieldAccumulator acc = estimator.newAccumulator();
      for (int i = 0; i < n; i++) {
        acc.add(m.perturb(inputs.next(bits), bits), estimator.binning());
      }
      double v = measure.applyAsDouble(new Window(estimator, acc));
      sum += v;
      squares += v * v;
    }
    double mean = sum / windows;
    double sd = Math.sqrt(Math.max(0, squares / windows - mean * mean));
    return new double[] {mean, sd / Math.sqrt(windows)};
  }

  private record Window(FieldEstimator estimator, FieldAccumulator acc) {
    double newWidth() {
      Interval i = estimator.estimate(acc, false).linear().mean();
      return i.upper() - i.lower();
    }

    double oldWidth() {
      LinearMeanBounds.Bounds b =
          estimator
              .linearBounds()
              .outputMeanBounds(acc.getCount(), acc.mean(), acc.meanSquare(estimator.binning()));
      return b.upper() - b.lower();
    }
  }

  @FunctionalInterface
  private interface InputDraw {
    double next(RandomBits bits);
  }

  private static final InputDraw MIDDLE_HALF = bits -> 0.25 + 0.5 * bits.nextUniform();
  private static final InputDraw POINT_MIDDLE = bits -> 0.5;
  private static final InputDraw MOTIONSENSE =
      bits ->
          IntervalCoverageTest.MOTION[
              (int) (bits.nextUniform() * IntervalCoverageTest.MOTION.length)];

  /**
   * The oracle's width: {@code 2 x 1.96 sd(Y | x = 1/2) / (b sqrt n)}, b the slope of ogpm's affine
   * mean.
   */
  private static double oracle(Mechanism ogpm, int n) {
    return 2
        * Interval.Z95
        * Math.sqrt(ogpm.outputVariance(0.5))
        / (AffinePart.of(ogpm).slope() * Math.sqrt(n));
  }

  @Test
  void awayFromTheFlatEndsTheIntervalIsWithinTwiceTheOracleAndNoWiderThanPmsAndShrinksWithN() {
    Mechanism ogpm = mechanism(MechanismType.OGPM, 1);
    Mechanism pm = mechanism(MechanismType.PM, 1);
    InputDraw[] inputs = {MIDDLE_HALF, POINT_MIDDLE, MOTIONSENSE};
    String[] names = {
      "uniform on the middle half", "point mass in the middle", "MotionSense-shaped"
    };
    for (int d = 0; d < inputs.length; d++) {
      double[] at10k = width(ogpm, 100 + d, 10_000, 2000, inputs[d], Window::newWidth);
      double[] pmAt10k = width(pm, 200 + d, 10_000, 100, inputs[d], Window::newWidth);
      double[] at100k = width(ogpm, 300 + d, 100_000, 1000, inputs[d], Window::newWidth);
      double upper10k = at10k[0] + 3 * at10k[1];
      System.out.printf(
          java.util.Locale.ROOT,
          "%s: %.4f +- %.4f at 10,000 (pm %.4f, oracle %.4f), %.4f +- %.4f at 100,000%n",
          names[d],
          at10k[0],
          at10k[1],
          pmAt10k[0],
          oracle(ogpm, 10_000),
          at100k[0],
          at100k[1]);
      assertThat(upper10k)
          .as("%s at n = 10,000: within twice the oracle's %s", names[d], oracle(ogpm, 10_000))
          .isLessThanOrEqualTo(2 * oracle(ogpm, 10_000));
      // pm's interval, studentised, is as narrow in the middle: ogpm's costs the tails' noise.
      assertThat(upper10k)
          .as("%s at n = 10,000: within 1.35 times pm's", names[d])
          .isLessThanOrEqualTo(1.35 * (pmAt10k[0] - 3 * pmAt10k[1]));
      // The ratio of the mean widths with its standard error (delta method), at 3 standard errors.
      double ratio = at100k[0] / at10k[0];
      double ratioError = ratio * Math.hypot(at100k[1] / at100k[0], at10k[1] / at10k[0]);
      assertThat(ratio + 3 * ratioError)
          .as("%s: at n = 100,000 at most 0.4 of its width at 10,000", names[d])
          .isLessThanOrEqualTo(0.4);
    }
  }

  /** The epsilons, counts and readings of the width table. */
  static final double[] TABLE_EPSILONS = {1, 2, 4, 5.5, 8};

  static final int[] TABLE_SIZES = {320, 2_000, 10_000};

  /**
   * The expected width of the oracle: the normal interval with the true variance of the window's
   * mean output given its readings (drawn from {@code inputs}: the noise's average variance over
   * them), through the mean function's slope. It knows what no window tells: the noise's variance
   * at the readings.
   */
  private static double oracle(Mechanism m, InputDraw inputs, int n) {
    RandomBits bits = AesCtrSource.seeded(99);
    int draws = 20_000;
    double noise = 0;
    for (int i = 0; i < draws; i++) {
      noise += m.outputVariance(inputs.next(bits)) / draws;
    }
    return 2 * Interval.Z95 * Math.sqrt(noise / n) / AffinePart.of(m).slope();
  }

  /** Windows per cell of the table: each mean width to about 1 %. */
  private static int tableWindows(int n) {
    return n <= 320 ? 300 : n <= 2_000 ? 100 : 40;
  }

  @Test
  void studentisedWidthsAgainstTheOracle() throws java.io.IOException {
    InputDraw[] inputs = {POINT_MIDDLE, MIDDLE_HALF};
    StringBuilder table =
        new StringBuilder(
            "| mechanism | readings | eps | n = 320 | n = 2,000 | n = 10,000 |\n"
                + "| --- | --- | ---: | ---: | ---: | ---: |\n");
    java.util.List<String> failures = new java.util.ArrayList<>();
    for (MechanismType type : MechanismType.values()) {
      if (!type.supportsClassical()) {
        continue;
      }
      for (double eps : TABLE_EPSILONS) {
        Mechanism m;
        try {
          m = mechanism(type, eps);
        } catch (IllegalArgumentException unavailable) {
          continue;
        }
        AffinePart affine = AffinePart.of(m);
        boolean affineToTheEnds = affine.exists() && affine.from() <= 0 && affine.to() >= 1;
        if (!affineToTheEnds && type != MechanismType.OGPM) {
          continue;
        }
        for (int d = 0; d < inputs.length; d++) {
          table.append(
              String.format(
                  java.util.Locale.ROOT,
                  "| `%s` | %s | %s |",
                  type.id(),
                  d == 0 ? "point mass in the middle" : "uniform on the middle half",
                  eps));
          for (int n : TABLE_SIZES) {
            double[] w =
                width(
                    m,
                    7_000_000L + 1000L * type.ordinal() + 10L * d + n,
                    n,
                    tableWindows(n),
                    inputs[d],
                    Window::newWidth);
            double oracle = oracle(m, inputs[d], n);
            double ratio = w[0] / oracle;
            double upper = (w[0] + 3 * w[1]) / oracle;
            table.append(String.format(java.util.Locale.ROOT, " %.2f |", ratio));
            double target = n >= 2_000 ? 1.15 : 1.6;
            if (affineToTheEnds && upper > target) {
              failures.add(
                  String.format(
                      java.util.Locale.ROOT,
                      "%s, eps %s, %s, n %d: %.3f (upper %.3f) times the oracle, above %s",
                      type.id(),
                      eps,
                      d == 0 ? "middle" : "middle half",
                      n,
                      ratio,
                      upper,
                      target));
            }
          }
          table.append('\n');
        }
      }
    }
    java.nio.file.Files.writeString(
        java.nio.file.Path.of("target", "interval-widths.md"), table.toString());
    assertThat(failures).as("widths above their target").isEmpty();
  }

  /**
   * ogpm's interval as planned at a window's expected statistics (its variance estimate at its
   * expectation, so no variance error at all), over the oracle, for middle readings: what remains
   * above the oracle is the flat ends' identification, not the variance. At eps 8 the flat end (1.2
   * % of the domain) is narrower than an output bin at 50 bins: more than twice the oracle at
   * 10,000 reports; at 200 bins the tail's threshold lies in it and the interval is within 1.5
   * times the oracle at 320 to 10,000.
   */
  @Test
  void atEpsilonEightMoreBinsLetTheTailsIdentifyTheFlatEnds() {
    Mechanism m = mechanism(MechanismType.OGPM, 8);
    double[] middle = {0.5};
    double[] weight = {1};
    double[] ratios = new double[3];
    int[] sizes = {320, 2_000, 10_000};
    for (int k = 0; k < sizes.length; k++) {
      double oracle = oracle(m, sizes[k]);
      ratios[k] = PlannedMeanInterval.of(m, 200, middle).width(sizes[k], weight) / oracle;
      assertThat(ratios[k]).as("200 bins, n %d", sizes[k]).isLessThanOrEqualTo(1.5);
    }
    double at50 = PlannedMeanInterval.of(m, BINS, middle).width(10_000, weight) / oracle(m, 10_000);
    assertThat(at50).as("50 bins, n 10,000").isGreaterThan(2);
  }

  @Test
  void atTheEndsTheIntervalIsAtMostATenthWiderThanTheOutputMeansAlone() {
    InputDraw[] inputs = {
      bits -> 0,
      bits -> 1,
      bits -> bits.nextUniform() < 0.5 ? 0 : 1,
      bits -> bits.nextUniform() < 0.9 ? 0 : 1,
      bits -> bits.nextUniform() < 0.5 ? 0 : bits.nextUniform()
    };
    String[] names = {
      "point mass at lo", "point mass at hi", "ends 50/50", "ends 90/10", "half at lo, rest uniform"
    };
    for (double eps : new double[] {0.5, 1, 4}) {
      Mechanism m = mechanism(MechanismType.OGPM, eps);
      for (int n : new int[] {200, 1000, 10_000}) {
        for (int d = 0; d < inputs.length; d++) {
          int windows = n == 10_000 ? 200 : 600;
          double[] ratio =
              width(m, 1000L * n + d, n, windows, inputs[d], w -> w.newWidth() / w.oldWidth());
          assertThat(ratio[0] + 3 * ratio[1])
              .as("%s, eps %s, n %d: new / old width", names[d], eps, n)
              .isLessThanOrEqualTo(1.10);
        }
      }
    }
  }
}
