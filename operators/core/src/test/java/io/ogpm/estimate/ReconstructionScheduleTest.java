package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.sample.BundledSample;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shipped schedule ({@link Reconstruction.Schedule#DEFAULT}: SQUAREM from the first step,
 * settled by its estimated distance to the fixed point) against a simpler reference ({@link
 * Reconstruction.Schedule#PLAIN_FIRST}: 100 plain steps first, settled by the deviance's change),
 * window by window on the same counts.
 *
 * <ul>
 *   <li>The error against each window's own inputs is no worse: for the histogram (L1) and the
 *       reconstructed mean (on the circle the circular mean's angle), at eps 0.5, 1, 2, 4 and 8, on
 *       the interval and the circle, windows of 1,000 and 10,000 records. The windows are paired,
 *       so the test is on the mean of the differences (shipped minus reference): its one-sided
 *       upper confidence bound at {@value #CONFIDENCE} (normal, the sample standard deviation; a
 *       few hundred windows) is at most {@value #TOLERANCE} of the reference's mean error. A
 *       margin, not a tolerance fitted to one run: the upper bound's own sampling spread at a few
 *       hundred windows is about one per cent of the error, so a one per cent margin would fail on
 *       noise about as often as not when the two are equal.
 *   <li>Results move by a stated bound: the L1 distance between the two reconstructions of the same
 *       counts is at most {@value #MOVE_BOUND} {@code sqrt(k / n)} in every window (k bins, n
 *       records; the L1 sampling error of a histogram of n records over k bins is about {@code
 *       sqrt(2 k / (pi n))}, 0.8 of that scale), and {@value #MEAN_MOVE_BOUND} of it on average.
 *       They move most in the windows that stop at the target: the target is reached along another
 *       path (SQUAREM's jumps, then the pulled-back crossing) than plain EMS's, at another point of
 *       the target's level set, equally good against the truth on average (the first check).
 *       Settled windows move by about the settling distance.
 * </ul>
 *
 * <p>Windows: the MotionSense sample's userAcceleration.x on [-3, 3] (the interval) and
 * attitude.roll on the circle, n records drawn with replacement from the sample's values; the
 * sample's own six fields, as an aggregation windows them (ten-second windows of one activity, and
 * windows of 1,000 consecutive records); and for the bound also a two-humped synthetic input. Fixed
 * seeds, so every run draws the same windows.
 *
 * <p>Tagged slow (several thousand windows, each reconstructed twice, the reference schedule taking
 * a few hundred steps): mutation testing leaves it out.
 */
@Tag("slow")
class ReconstructionScheduleTest {
  static final int BINS = 50;
  static final double[] EPSILONS = {0.5, 1, 2, 4, 8};

  /** One-sided confidence of the bound on the mean difference of errors. */
  static final double CONFIDENCE = 0.99;

  /** Its normal quantile. */
  static final double Z = 2.326;

  /** The largest mean worsening allowed, as a fraction of the reference schedule's mean error. */
  static final double TOLERANCE = 0.02;

  /** Largest L1 distance between the two schedules' results, in units of {@code sqrt(k / n)}. */
  static final double MOVE_BOUND = 2;

  /** Largest mean L1 distance, in the same units. */
  static final double MEAN_MOVE_BOUND = 0.06;

  /** The sample's records in time order. */
  static List<JsonNode> sample() throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> records = new ArrayList<>();
    for (String line : BundledSample.records(Integer.MAX_VALUE)) {
      records.add(json.readTree(line));
    }
    records.sort((a, b) -> Long.compare(a.get("ts").asLong(), b.get("ts").asLong()));
    return records;
  }

  /**
   * A field's values, clamped into its domain (as the sample configuration's out-of-range: clamp).
   */
  static double[] values(List<JsonNode> records, String pointer, Domain d) {
    double[] v = new double[records.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] =
          Math.min(Math.max(records.get(i).at(pointer).asDouble(), d.lo()), Math.nextDown(d.hi()));
    }
    return v;
  }

  /** Two humps on the domain: half near 0.3 of it, half near 0.67, spread 0.06 of it. */
  static double[] humps(Domain d, int count) {
    Random r = new Random(1);
    double[] v = new double[count];
    for (int i = 0; i < count; i++) {
      double u = (r.nextBoolean() ? 0.3 : 0.67) + 0.06 * r.nextGaussian();
      v[i] = Math.min(Math.max(d.lo() + d.width() * u, d.lo()), Math.nextDown(d.hi()));
    }
    return v;
  }

  /** One window reconstructed both ways, with its errors against its own inputs. */
  record Pair(
      int records,
      double histogramError,
      double formerHistogramError,
      double meanError,
      double formerMeanError,
      double moved) {
    /** The move in units of {@code sqrt(k / n)}. */
    double scaledMove() {
      return moved / Math.sqrt(BINS / (double) records);
    }
  }

  static Pair pair(Mechanism m, FieldEstimator e, double[] inputs, AesCtrSource bits) {
    Domain d = m.domain();
    FieldBinning b = e.binning();
    TransitionMatrix t = e.transition();
    FieldAccumulator acc = FieldAccumulator.forBinning(b);
    double[] truth = new double[b.bins()];
    double mean = 0;
    double c = 0;
    double s = 0;
    for (double x : inputs) {
      truth[b.inputBin(x)] += 1.0 / inputs.length;
      mean += x / inputs.length;
      double a = 2 * Math.PI * (x - d.lo()) / d.width();
      c += Math.cos(a);
      s += Math.sin(a);
      acc.add(m.perturb(x, bits), b);
    }
    double trueAngle = Math.atan2(s, c);
    double[] shipped = Reconstruction.em(acc.getHistogram(), t).frequencies();
    double[] former =
        Reconstruction.em(acc.getHistogram(), t, Reconstruction.Schedule.PLAIN_FIRST).frequencies();
    return new Pair(
        inputs.length,
        l1(shipped, truth),
        l1(former, truth),
        meanError(e, shipped, mean, trueAngle),
        meanError(e, former, mean, trueAngle),
        l1(shipped, former));
  }

  /**
   * The reconstructed mean's error: linear, or the circular mean's angle (radians, of the circle's
   * 2 pi).
   */
  static double meanError(FieldEstimator e, double[] theta, double mean, double angle) {
    if (!e.binning().circular()) {
      return Math.abs(e.meanOf(theta) - mean);
    }
    double gap = Math.abs(e.circularMeanAngleOf(theta) - angle) % (2 * Math.PI);
    return Math.min(gap, 2 * Math.PI - gap);
  }

  static double l1(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += Math.abs(a[i] - b[i]);
    }
    return sum;
  }

  /** The one-sided upper confidence bound of the mean of paired differences. */
  static double upperBound(List<Double> differences) {
    int w = differences.size();
    double mean = differences.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double ss = differences.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
    return mean + Z * Math.sqrt(ss / (w - 1) / w);
  }

  /** Checks a cell's windows: errors no worse, moves within the bound. */
  static void check(String cell, List<Pair> pairs, boolean errors) {
    double meanMove = 0;
    for (Pair p : pairs) {
      assertThat(p.scaledMove())
          .as("%s: a window's move, over sqrt(k / n)", cell)
          .isLessThanOrEqualTo(MOVE_BOUND);
      meanMove += p.scaledMove() / pairs.size();
    }
    assertThat(meanMove)
        .as("%s: mean move, over sqrt(k / n)", cell)
        .isLessThanOrEqualTo(MEAN_MOVE_BOUND);
    if (!errors) {
      return;
    }
    double formerHistogram =
        pairs.stream().mapToDouble(Pair::formerHistogramError).average().orElseThrow();
    double formerMean = pairs.stream().mapToDouble(Pair::formerMeanError).average().orElseThrow();
    assertThat(
            upperBound(
                pairs.stream().map(p -> p.histogramError() - p.formerHistogramError()).toList()))
        .as("%s: histogram error, new minus former (former %.4f)", cell, formerHistogram)
        .isLessThanOrEqualTo(TOLERANCE * formerHistogram);
    assertThat(upperBound(pairs.stream().map(p -> p.meanError() - p.formerMeanError()).toList()))
        .as("%s: mean error, new minus former (former %.5f)", cell, formerMean)
        .isLessThanOrEqualTo(TOLERANCE * formerMean);
  }

  @Test
  void theErrorIsNoWorseThanTheReferenceSchedulesAndResultsMoveWithinTheBound() throws IOException {
    List<JsonNode> records = sample();
    Domain interval = Domain.classical(-3, 3);
    Domain circle = Domain.circular(-Math.PI, Math.PI);
    Map<String, double[]> inputs = new LinkedHashMap<>();
    inputs.put("userAcceleration.x", values(records, "/userAcceleration/x", interval));
    inputs.put("attitude.roll", values(records, "/attitude/roll", circle));
    inputs.put("two humps", humps(interval, 20_000));
    for (double epsilon : EPSILONS) {
      for (Map.Entry<String, double[]> input : inputs.entrySet()) {
        Domain d = input.getKey().equals("attitude.roll") ? circle : interval;
        Mechanism m =
            MechanismCatalog.of(MechanismSpec.builder().epsilon(epsilon).domain(d).build());
        FieldEstimator e = FieldEstimator.of(m, BINS);
        for (int n : new int[] {1_000, 10_000}) {
          Random draw = new Random(n + (long) (100 * epsilon));
          AesCtrSource bits = AesCtrSource.seeded(7 + n + (long) (1000 * epsilon));
          int windows = 200;
          List<Pair> pairs = new ArrayList<>();
          for (int w = 0; w < windows; w++) {
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
              x[i] = input.getValue()[draw.nextInt(input.getValue().length)];
            }
            pairs.add(pair(m, e, x, bits));
          }
          // The synthetic input checks the bound; the sample's fields the errors as well.
          check(
              input.getKey() + ", eps " + epsilon + ", " + n + " records",
              pairs,
              !input.getKey().equals("two humps"));
        }
      }
    }
  }

  @Test
  void onTheSampleAsAnAggregationWindowsItTheErrorIsNoWorseAndResultsMoveWithinTheBound()
      throws IOException {
    List<JsonNode> records = sample();
    // Ten-second windows of one activity (the sample is one activity, 45 seconds), and windows of
    // 1,000 consecutive records.
    Map<String, List<Integer>> windows = new LinkedHashMap<>();
    for (int i = 0; i < records.size(); i++) {
      JsonNode r = records.get(i);
      windows
          .computeIfAbsent(
              r.get("activity").asText() + " " + r.get("ts").asLong() / 10_000,
              k -> new ArrayList<>())
          .add(i);
      windows.computeIfAbsent("records from " + 1_000 * (i / 1_000), k -> new ArrayList<>()).add(i);
    }
    double pi = Math.PI;
    Object[][] fields = {
      {"/userAcceleration/x", Domain.classical(-3, 3), 1.0},
      {"/userAcceleration/y", Domain.classical(-3, 3), 1.0},
      {"/userAcceleration/z", Domain.classical(-3, 3), 1.0},
      {"/attitude/roll", Domain.circular(-pi, pi), 1.0},
      {"/attitude/pitch", Domain.classical(-pi / 2, pi / 2), 0.5},
      {"/attitude/yaw", Domain.circular(-pi, pi), 1.0}
    };
    for (Object[] f : fields) {
      Domain d = (Domain) f[1];
      Mechanism m =
          MechanismCatalog.of(MechanismSpec.builder().epsilon((Double) f[2]).domain(d).build());
      FieldEstimator e = FieldEstimator.of(m, BINS);
      double[] values = values(records, (String) f[0], d);
      AesCtrSource bits = AesCtrSource.seeded(5);
      List<Pair> pairs = new ArrayList<>();
      // Each window perturbed twenty times over (the perturbation is what differs between draws).
      for (int draw = 0; draw < 20; draw++) {
        for (List<Integer> rows : windows.values()) {
          double[] x = new double[rows.size()];
          for (int i = 0; i < x.length; i++) {
            x[i] = values[rows.get(i)];
          }
          pairs.add(pair(m, e, x, bits));
        }
      }
      check((String) f[0], pairs, true);
    }
  }
}
