package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.MechanismType;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Field sampling ({@code sampling: {fields-per-record: K}}): each record reports K of its
 * configuration's d reporting units, chosen uniformly at random and independently of the values,
 * instead of all of them at a d-th of the budget each. A unit is a field, or a polar pair (its
 * radius and angle are reported together). Wang et al., "Collecting and Analyzing Multidimensional
 * Data with Local Differential Privacy" (ICDE 2019), show that reporting a few fields at a larger
 * epsilon estimates every field better than splitting once the split epsilon is small.
 *
 * <p><b>Epsilon.</b> A record's configured epsilon E is the sum of its fields' (sequential
 * composition). A reported unit u is perturbed at {@code scale * e_u}, its configured epsilon times
 * one {@link #scale()}: {@code scale = E / (the sum of the K largest e_u)}, lowered by a relative
 * {@value #SCALE_MARGIN} so that no sum of K scaled epsilons, added in any order in doubles,
 * exceeds E. So a record spends at most E whichever units are chosen, exactly E when the K largest
 * are (always, when every unit has the same epsilon: each reported unit then has E / K), and the
 * budget charges what it spends. Relative weights are kept: a unit configured at twice another's
 * epsilon is reported at twice its epsilon.
 *
 * <p><b>{@code auto}.</b> A field reported by a share K / d of the records, each at {@code scale(K)
 * * e_f}, estimates the mean of all the window's inputs with variance, per record, {@code (d / K)
 * V_f(scale(K) e_f) + (d / K - 1) P}: {@code V_f} the variance of one report's unbiased estimate of
 * its input, the noise, and P the variance of the inputs themselves, what a mean over the records
 * that report the field misses of the mean over all of them (Wang et al.'s analysis, their section
 * on sampling); both in units of the domain ({@link ReportVariance}). P is not known before the
 * data, and the best K depends on it: sensor readings spread over a small part of their range (P
 * near 0) want few fields at a large epsilon, inputs spread evenly over the domain (P = 1/12) want
 * more. So {@code auto} takes the K whose summed variance is nearest the best K's, as a ratio, at
 * its worst over every P from 0 to 1/12 (minimax regret; the worst is at an end, {@link
 * #worstRatios}); the ratios by K are kept for the start-up line ({@link #describe}). Only K's that
 * report no field above its mechanism's largest epsilon ({@link MechanismType#maxEpsilon}) compete.
 *
 * <p>Immutable and serializable.
 */
@PublicEvolving
public final class FieldSampling implements Serializable {
  private static final long serialVersionUID = 1L;

  /** How much the scale is lowered below {@code E / (sum of the K largest e_u)}, relatively. */
  static final double SCALE_MARGIN = 0x1p-40;

  private final int fieldsPerRecord;
  private final boolean auto;
  private final int[] unitOf;
  private final int units;
  private final double scale;

  /** {@code auto}: the expected error per record by K (index K - 1); else null. */
  private final double[] errors;

  private FieldSampling(
      int fieldsPerRecord, boolean auto, int[] unitOf, int units, double scale, double[] errors) {
    this.fieldsPerRecord = fieldsPerRecord;
    this.auto = auto;
    this.unitOf = unitOf;
    this.units = units;
    this.scale = scale;
    this.errors = errors;
  }

  /**
   * What a configuration asks for: {@code fields-per-record: K} (a whole number) or {@code auto}
   * (null), checked against the configuration's units when it is resolved.
   */
  public record Request(Integer fieldsPerRecord) implements Serializable {
    /** {@code fields-per-record: auto}. */
    public static final Request AUTO = new Request(null);

    /** {@code fields-per-record: K}. */
    public static Request of(int fieldsPerRecord) {
      return new Request(fieldsPerRecord);
    }

    boolean isAuto() {
      return fieldsPerRecord == null;
    }
  }

  /**
   * Resolves a request against the configured fields: their epsilons and, per field, its unit
   * ({@code unitOf}, units numbered from 0 in configuration order; a polar pair's two fields share
   * one).
   *
   * @throws ConfigException naming {@code sampling: fields-per-record} and the value if K is not
   *     from 1 to the number of units
   */
  static FieldSampling resolve(Request request, List<FieldConfig> fields, int[] unitOf) {
    int units = Arrays.stream(unitOf).max().orElse(-1) + 1;
    double[] unitEpsilon = new double[units];
    double total = 0;
    for (int i = 0; i < fields.size(); i++) {
      unitEpsilon[unitOf[i]] += fields.get(i).epsilon();
      total += fields.get(i).epsilon();
    }
    if (request.isAuto()) {
      // Only K's whose reports stay within their mechanisms' largest epsilons compete: the fewest
      // is kMin.
      int kMin = units;
      while (kMin > 1 && beyondMaximum(fields, scale(unitEpsilon, total, kMin - 1)) == null) {
        kMin--;
      }
      // The summed variance of the fields' means is affine in the inputs' spread P: noise + left P.
      double[] noise = new double[units - kMin + 1];
      double[] left = new double[noise.length];
      for (int k = kMin; k <= units; k++) {
        double s = scale(unitEpsilon, total, k);
        double share = (double) units / k;
        for (FieldConfig f : fields) {
          noise[k - kMin] += share * ReportVariance.of(f, s * f.epsilon());
          left[k - kMin] += share - 1;
        }
      }
      double[] worst = worstRatios(noise, left, ReportVariance.ofInputs());
      double[] errors = new double[units];
      Arrays.fill(errors, Double.NaN);
      System.arraycopy(worst, 0, errors, kMin - 1, worst.length);
      int best = units;
      for (int k = units - 1; k >= kMin; k--) {
        if (errors[k - 1] <= errors[best - 1]) {
          best = k;
        }
      }
      return new FieldSampling(
          best, true, unitOf.clone(), units, scale(unitEpsilon, total, best), errors);
    }
    int k = request.fieldsPerRecord();
    if (k < 1 || k > units) {
      throw new ConfigException(
          "sampling: fields-per-record must be a whole number from 1 to "
              + units
              + " (the configuration's fields, a polar pair counting as one) or auto, got "
              + k);
    }
    double s = scale(unitEpsilon, total, k);
    FieldConfig beyond = beyondMaximum(fields, s);
    if (beyond != null) {
      throw new ConfigException(
          "sampling: fields-per-record "
              + k
              + " would report field "
              + ConfigException.quote(beyond.name())
              + " at epsilon "
              + beyond.epsilon() * s
              + ", above the "
              + maxReported(beyond)
              + " its mechanism is offered at;"
              + " report more fields per record or configure smaller epsilons");
    }
    return new FieldSampling(k, false, unitOf.clone(), units, s, null);
  }

  /** The first field whose report at its epsilon times the scale is above its maximum, or null. */
  private static FieldConfig beyondMaximum(List<FieldConfig> fields, double scale) {
    for (FieldConfig f : fields) {
      if (f.epsilon() * scale > maxReported(f)) {
        return f;
      }
    }
    return null;
  }

  /**
   * The largest epsilon a field may be reported at: its mechanism's; for {@code mechanism: auto},
   * the largest of the mechanisms it may choose on its domain (the choice at each epsilon takes
   * only those offered there).
   */
  private static double maxReported(FieldConfig f) {
    if (f.choice().isEmpty()) {
      return f.spec().type().maxEpsilon();
    }
    boolean circular = f.domain().isCircular();
    double most = 0;
    for (MechanismType type : MechanismType.values()) {
      if (circular ? type.supportsCircular() : type.supportsClassical()) {
        most = Math.max(most, type.maxEpsilon());
      }
    }
    return most;
  }

  /**
   * For each K, the most its variance {@code noise[k] + left[k] P} exceeds the least over all K, as
   * a ratio, over every spread P of the inputs from 0 to {@code most}. The least is a concave
   * piecewise-affine function of P, and on each of its pieces a K's ratio to it is a ratio of
   * affine functions, so monotone. It cannot rise on one piece and fall on the next: that would
   * need {@code b1/b0 < c1/c0 < a1/a0} for the earlier piece's line b, K's line c and the later
   * piece's line a, while concavity gives {@code a1/a0 < b1/b0} (a flatter line above at 0). So the
   * worst ratio is at P = 0 or P = most, exactly.
   */
  static double[] worstRatios(double[] noise, double[] left, double most) {
    int n = noise.length;
    double[] worst = new double[n];
    for (double p : new double[] {0, most}) {
      double least = Double.POSITIVE_INFINITY;
      for (int k = 0; k < n; k++) {
        least = Math.min(least, noise[k] + left[k] * p);
      }
      for (int k = 0; k < n; k++) {
        worst[k] = Math.max(worst[k], (noise[k] + left[k] * p) / least);
      }
    }
    return worst;
  }

  /**
   * {@code E / (the sum of the K largest unit epsilons)}, lowered by the margin; 1 when every unit
   * is reported.
   */
  private static double scale(double[] unitEpsilon, double total, int k) {
    if (k == unitEpsilon.length) {
      return 1;
    }
    double[] sorted = unitEpsilon.clone();
    Arrays.sort(sorted);
    double largest = 0;
    for (int i = sorted.length - k; i < sorted.length; i++) {
      largest += sorted[i];
    }
    return total / largest * (1 - SCALE_MARGIN);
  }

  /** K: how many units each record reports. */
  public int fieldsPerRecord() {
    return fieldsPerRecord;
  }

  /** Whether K was chosen by {@code auto}. */
  public boolean isAuto() {
    return auto;
  }

  /** d: the configuration's reporting units (fields, a polar pair counting as one). */
  public int units() {
    return units;
  }

  /** The unit of the field at this index of the configuration's fields. */
  public int unitOf(int field) {
    return unitOf[field];
  }

  /** Whether a record reports fewer units than it has: K below d. */
  public boolean samples() {
    return fieldsPerRecord < units;
  }

  /**
   * How many reports of one field arrive among this many records: K of the units' records report
   * it, so ceil(records * K / d), at least 1 (all of them when nothing is sampled).
   */
  public long reportsAmong(long records) {
    if (!samples()) {
      return records;
    }
    return Math.max(1, (long) Math.ceil((double) records * fieldsPerRecord / units));
  }

  /** What a reported field's epsilon is multiplied by (1 when every unit is reported). */
  public double scale() {
    return scale;
  }

  /**
   * A sampled epsilon (or scale) as people read it: to seven significant digits. It is a hair below
   * a round figure ({@link #SCALE_MARGIN}), which this shows as the round figure: rounding
   * overstates the spend, never understates it.
   */
  public static String rounded(double epsilon) {
    return new java.math.BigDecimal(epsilon)
        .round(new java.math.MathContext(7))
        .stripTrailingZeros()
        .toPlainString();
  }

  /** One line for start-up: K, how it was chosen, and the epsilon of a report. */
  public String describe() {
    String line =
        String.format(
            Locale.ROOT,
            "sampling: each record reports %d of its %d fields%s, each at %s times"
                + " its configured epsilon",
            fieldsPerRecord,
            units,
            units == unitOf.length ? "" : " (a polar pair counting as one)",
            rounded(scale));
    if (!auto) {
      return line;
    }
    StringBuilder b =
        new StringBuilder(line)
            .append(
                " (auto: the K whose fields' means are nearest the best K's"
                    + " whatever the spread of the inputs; by K, their variance at most times the best's:");
    for (int k = 1; k <= units; k++) {
      // A K that would report a field above its mechanism's largest epsilon is not offered.
      b.append(
          String.format(
              Locale.ROOT, Double.isNaN(errors[k - 1]) ? " %d -" : " %d x%.3g", k, errors[k - 1]));
    }
    return b.append(')').toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldSampling s
        && s.fieldsPerRecord == fieldsPerRecord
        && s.auto == auto
        && Arrays.equals(s.unitOf, unitOf)
        && Double.compare(s.scale, scale) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(fieldsPerRecord, auto, Arrays.hashCode(unitOf), scale);
  }

  @Override
  public String toString() {
    return "sampling{fields-per-record="
        + (auto ? "auto:" : "")
        + fieldsPerRecord
        + " of "
        + units
        + ", scale="
        + scale
        + "}";
  }
}
