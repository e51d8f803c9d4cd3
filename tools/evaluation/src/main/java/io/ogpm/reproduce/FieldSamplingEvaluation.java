package io.ogpm.reproduce;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.estimate.Histograms;
import io.ogpm.estimate.Interval;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.PerturbationPlan;
import io.ogpm.record.RecordValues;
import io.ogpm.record.Source;
import io.ogpm.report.Series;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Field sampling against splitting on real data: MotionSense subjects 4 to 24 (not the sample's 1
 * to 3), the six fields of the sample configuration with their shares of the record's epsilon (1,
 * 1, 1, 1, 0.5 and 1 of 5.5), record epsilons 1, 2, 5.5 and 10. Each record goes through the
 * perturbation plan of the operator ({@link PerturbationPlan}: the same checks, choice of fields
 * and mechanisms), each field is estimated over the records that reported it as the aggregation
 * does ({@link FieldEstimator}, method em, 50 bins), and compared with the truth of all records:
 * what an analyst wants to know.
 *
 * <p>Per field: the histogram's L1 error {@code sum_i |f_i - f^_i|} and the width of the mean's 95
 * % interval (a circular field's arc; the whole circle when its interval is), each averaged over
 * the repetitions with its standard error. A ratio's 95 % interval is by the delta method.
 */
public final class FieldSamplingEvaluation {
  static final int BINS = 50;
  static final double[] RECORD_EPSILONS = {1, 2, 5.5, 10};

  /** The record epsilon of the target: the sample configuration's. */
  static final double TARGET_EPSILON = 5.5;

  /** Fields-per-record of each method; 0 is auto, -1 splitting (every field reported). */
  static final int[] METHODS = {-1, 1, 2, 3, 0};

  static final String[] FIELD_LINES = {
    "{name: userAcceleration.x, min: -3.0, max: 3.0, out-of-range: clamp, epsilon: %s}",
    "{name: userAcceleration.y, min: -3.0, max: 3.0, out-of-range: clamp, epsilon: %s}",
    "{name: userAcceleration.z, min: -3.0, max: 3.0, out-of-range: clamp, epsilon: %s}",
    "{name: attitude.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: %s}",
    "{name: attitude.pitch, min: -1.5707963267948966, max: 1.5707963267948966, out-of-range: clamp, epsilon: %s}",
    "{name: attitude.yaw, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: %s}",
  };
  static final String[] COLUMNS = {
    "userAcceleration.x",
    "userAcceleration.y",
    "userAcceleration.z",
    "attitude.roll",
    "attitude.pitch",
    "attitude.yaw"
  };

  /** Each field's share of the record's epsilon, as in the sample configuration (sums to 5.5). */
  static final double[] SHARES = {1, 1, 1, 1, 0.5, 1};

  /** Mean and standard error of a quantity over repetitions. */
  public record Estimate(double mean, double standardError) {
    static Estimate of(double sum, double sumOfSquares, int n) {
      double mean = sum / n;
      double variance = n > 1 ? Math.max(0, (sumOfSquares - n * mean * mean) / (n - 1)) : 0;
      return new Estimate(mean, Math.sqrt(variance / n));
    }

    /**
     * {@code this / other} with a 95 % interval by the delta method (independent repetitions):
     * {@code r (1 +- z sqrt((s_a/a)^2 + (s_b/b)^2))}.
     */
    Interval ratio(Estimate other) {
      double r = mean / other.mean;
      double rel =
          Math.sqrt(
              Math.pow(standardError / mean, 2) + Math.pow(other.standardError / other.mean, 2));
      return new Interval(r, r * (1 - Interval.Z95 * rel), r * (1 + Interval.Z95 * rel));
    }
  }

  /** One method at one record epsilon: per field, histogram error and interval width. */
  public record Cell(int fieldsPerRecord, Estimate[] histogram, Estimate[] width) {}

  private final int repetitions;
  private final int rows;
  private final double[] epsilons;

  /** [epsilon][method]. */
  private final Cell[][] cells;

  private FieldSamplingEvaluation(int repetitions, int rows, double[] epsilons, Cell[][] cells) {
    this.repetitions = repetitions;
    this.epsilons = epsilons;
    this.rows = rows;
    this.cells = cells;
  }

  /** Runs every method at every record epsilon, {@code repetitions} times each (seeded). */
  public static FieldSamplingEvaluation compute(int repetitions) {
    return compute(repetitions, RECORD_EPSILONS);
  }

  static FieldSamplingEvaluation compute(int repetitions, double[] epsilons) {
    double[][] data = MotionSense.columns(4, 24, COLUMNS);
    Cell[][] cells = new Cell[epsilons.length][METHODS.length];
    IntStream.range(0, epsilons.length * METHODS.length)
        .parallel()
        .forEach(
            task -> {
              int e = task / METHODS.length;
              int m = task % METHODS.length;
              cells[e][m] =
                  run(config(epsilons[e], METHODS[m]), data, repetitions, 7919L * task + 1);
            });
    return new FieldSamplingEvaluation(repetitions, data[0].length, epsilons.clone(), cells);
  }

  /** The sample configuration's six fields at a record epsilon, sampled or not. */
  static PrivacyConfig config(double recordEpsilon, int method) {
    StringBuilder yaml = new StringBuilder("fields:\n");
    for (int i = 0; i < FIELD_LINES.length; i++) {
      yaml.append("  - ")
          .append(
              String.format(
                  Locale.ROOT,
                  FIELD_LINES[i],
                  Double.toString(SHARES[i] * recordEpsilon / TARGET_EPSILON)))
          .append('\n');
    }
    if (method >= 0) {
      yaml.append("sampling: {fields-per-record: ")
          .append(method == 0 ? "auto" : Integer.toString(method))
          .append("}\n");
    }
    return PrivacyConfig.parse(yaml.toString());
  }

  private static Cell run(PrivacyConfig config, double[][] data, int repetitions, long seed) {
    List<FieldConfig> fields = config.fields();
    int d = fields.size();
    int n = data[0].length;
    FieldEstimator[] estimators = new FieldEstimator[d];
    double[][] truth = new double[d][BINS];
    double[][] inputs = new double[d][n];
    for (int f = 0; f < d; f++) {
      FieldConfig field = fields.get(f);
      estimators[f] = FieldEstimator.of(MechanismCatalog.of(field.spec()), BINS);
      FieldBinning binning = FieldBinning.ofDomain(field.domain(), BINS);
      for (int i = 0; i < n; i++) {
        // The values the mechanism gets: clamped into the domain where the field clamps.
        double x =
            field.domain().contains(data[f][i])
                ? data[f][i]
                : field.domain().nearestInput(data[f][i]);
        inputs[f][i] = x;
        truth[f][binning.inputBin(x)] += 1.0 / n;
      }
    }
    double[][] sums = new double[4][d];
    PerturbationPlan plan = PerturbationPlan.compile(config, RandomnessMode.seeded(seed));
    RecordValues values = plan.newValues();
    for (int r = 0; r < repetitions; r++) {
      FieldAccumulator[] acc = new FieldAccumulator[d];
      for (int f = 0; f < d; f++) {
        acc[f] = estimators[f].newAccumulator();
      }
      for (int i = 0; i < n; i++) {
        values.clear();
        for (int f = 0; f < d; f++) {
          values.number(f, data[f][i]);
        }
        if (plan.perturb(values, Source.line(i)) != null) {
          // Never silently wrong: every row of the data is a valid record of this configuration.
          throw new IllegalStateException("row " + i + " refused by " + config.fields());
        }
        for (int f = 0; f < d; f++) {
          if (values.reported(f)) {
            acc[f].add(values.output(f), estimators[f].binning());
          }
        }
      }
      for (int f = 0; f < d; f++) {
        FieldEstimate e = estimators[f].estimate(acc[f], true);
        double l1 = Histograms.l1(e.reconstructedHistogram(), truth[f]);
        double width = width(e, fields.get(f).domain());
        sums[0][f] += l1;
        sums[1][f] += l1 * l1;
        sums[2][f] += width;
        sums[3][f] += width * width;
      }
    }
    Estimate[] histogram = new Estimate[d];
    Estimate[] width = new Estimate[d];
    for (int f = 0; f < d; f++) {
      histogram[f] = Estimate.of(sums[0][f], sums[1][f], repetitions);
      width[f] = Estimate.of(sums[2][f], sums[3][f], repetitions);
    }
    int k =
        config
            .sampling()
            .filter(FieldSampling::samples)
            .map(FieldSampling::fieldsPerRecord)
            .orElse(d);
    return new Cell(k, histogram, width);
  }

  /**
   * The width of the mean's 95 % interval: a circular field's arc, the whole circle when unknown.
   */
  static double width(FieldEstimate e, Domain domain) {
    Interval i = domain.isCircular() ? e.circular().direction() : e.linear().mean();
    if (Double.isNaN(i.lower()) || Double.isNaN(i.upper())) {
      return domain.width();
    }
    double w = i.upper() - i.lower();
    return domain.isCircular() && w < 0 ? w + domain.width() : w;
  }

  static String methodName(int method) {
    return method < 0 ? "splitting" : method == 0 ? "auto" : "K = " + method;
  }

  /**
   * Two figures: the fields' mean histogram error, and their interval widths relative to splitting.
   */
  public List<Figure> figures() {
    List<Series> histogram = new ArrayList<>();
    List<Series> width = new ArrayList<>();
    for (int m = 0; m < METHODS.length; m++) {
      double[] h = new double[cells.length];
      double[] w = new double[cells.length];
      for (int e = 0; e < cells.length; e++) {
        Cell c = cells[e][m];
        double logRatio = 0;
        for (int f = 0; f < COLUMNS.length; f++) {
          h[e] += c.histogram()[f].mean() / COLUMNS.length;
          logRatio +=
              Math.log(c.width()[f].mean() / cells[e][0].width()[f].mean()) / COLUMNS.length;
        }
        w[e] = Math.exp(logRatio);
      }
      Series.Style style = METHODS[m] == 0 ? Series.Style.SOLID_LINE : Series.Style.DASHED_LINE;
      histogram.add(
          Series.of(
              methodName(METHODS[m]),
              epsilons,
              h,
              METHODS[m] < 0 ? Series.Style.SOLID_LINE : style));
      width.add(
          Series.of(
              methodName(METHODS[m]),
              epsilons,
              w,
              METHODS[m] < 0 ? Series.Style.SOLID_LINE : style));
    }
    return List.of(
        Figure.of(
            "field-sampling-histogram",
            "MotionSense subjects 4-24, six fields: histogram error (" + repetitions + " runs)",
            "record epsilon",
            "sum of |f - f^| over 50 bins, mean of the fields",
            histogram),
        Figure.of(
            "field-sampling-interval",
            "MotionSense subjects 4-24, six fields: mean interval width (" + repetitions + " runs)",
            "record epsilon",
            "width relative to splitting, geometric mean of the fields",
            width));
  }

  /** The tables and the target, for summary.md and docs/field-sampling.md. */
  public String markdown() {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Subjects 4-24 (%,d rows), six fields, k = %d bins, method em, %d runs per"
                + " point; mean +- standard error.%n",
            rows,
            BINS,
            repetitions));
    md.append("\n### Which K auto picks\n\n| record epsilon | K |\n| ---: | ---: |\n");
    for (int e = 0; e < cells.length; e++) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d |%n",
              trim(epsilons[e]),
              cells[e][METHODS.length - 1].fieldsPerRecord()));
    }
    table(md, "Histogram L1 error", true);
    table(md, "Width of the mean's 95 % interval (field units)", false);
    md.append("\n### Target at record epsilon ")
        .append(trim(TARGET_EPSILON))
        .append(
            ": auto at least 1.5 times lower histogram error and narrower intervals for every field (by the")
        .append(" lower ends of the ratios' 95 % intervals)\n\n")
        .append(
            "| field | histogram: splitting / auto (95 % interval) | interval width: splitting / auto | holds |\n")
        .append("| --- | ---: | ---: | --- |\n");
    Interval[] histograms = targetRatios(true);
    Interval[] widths = targetRatios(false);
    for (int f = 0; f < COLUMNS.length; f++) {
      Interval h = histograms[f];
      Interval w = widths[f];
      boolean holds = targetHolds(h, w);
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %s |%n",
              COLUMNS[f],
              h.estimate(),
              h.lower(),
              h.upper(),
              w.estimate(),
              w.lower(),
              w.upper(),
              holds ? "yes" : "**no**"));
    }
    return md.toString();
  }

  /**
   * The target, significantly: splitting's histogram error over auto's at least 1.5 and auto's
   * interval narrower, both by the lower end of the ratio's 95 % interval.
   */
  static boolean targetHolds(Interval histogram, Interval width) {
    return histogram.lower() >= 1.5 && width.lower() > 1;
  }

  /**
   * Splitting's histogram error (or interval width) over auto's, field by field at the target
   * epsilon.
   */
  public Interval[] targetRatios(boolean histogram) {
    int e = indexOf(TARGET_EPSILON);
    Interval[] out = new Interval[COLUMNS.length];
    Cell split = cells[e][0];
    Cell auto = cells[e][METHODS.length - 1];
    for (int f = 0; f < COLUMNS.length; f++) {
      out[f] =
          histogram
              ? split.histogram()[f].ratio(auto.histogram()[f])
              : split.width()[f].ratio(auto.width()[f]);
    }
    return out;
  }

  private void table(StringBuilder md, String title, boolean histogram) {
    md.append("\n### ").append(title).append("\n\n| record epsilon | field |");
    for (int method : METHODS) {
      md.append(' ').append(methodName(method)).append(" |");
    }
    md.append("\n| ---: | --- |").append(" ---: |".repeat(METHODS.length)).append('\n');
    for (int e = 0; e < cells.length; e++) {
      for (int f = 0; f < COLUMNS.length; f++) {
        md.append("| ").append(trim(epsilons[e])).append(" | ").append(COLUMNS[f]).append(" |");
        for (int m = 0; m < METHODS.length; m++) {
          Estimate x = histogram ? cells[e][m].histogram()[f] : cells[e][m].width()[f];
          md.append(String.format(Locale.ROOT, " %.4f +- %.4f |", x.mean(), x.standardError()));
        }
        md.append('\n');
      }
    }
  }

  private int indexOf(double recordEpsilon) {
    for (int e = 0; e < cells.length; e++) {
      if (Double.compare(epsilons[e], recordEpsilon) == 0) {
        return e;
      }
    }
    throw new IllegalStateException("record epsilon " + recordEpsilon + " not evaluated");
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
