package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
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
 * <p><b>{@code auto}.</b> K minimises the summed worst-case variance, per record, of the fields'
 * estimates of the mean of all the window's inputs: a field reported by a share K / d of the
 * records, each at {@code scale(K) * e_f}, has {@code (d / K) V_f(scale(K) e_f) + (d / K - 1) P_f},
 * with {@code V_f} the variance of one report's unbiased estimate of its input and {@code P_f} that
 * of inputs spread evenly over the domain, both in units of the domain ({@link ReportVariance}):
 * the first is the noise of the reports, the second what a mean over the records that report the
 * field misses of the mean over all of them (Wang et al.'s analysis, their section on sampling).
 * A larger K spends less epsilon per report but leaves fewer records out. The variances by K are
 * kept for the start-up line ({@link #describe}).
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

  private FieldSampling(int fieldsPerRecord, boolean auto, int[] unitOf, int units, double scale, double[] errors) {
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
      double[] errors = new double[units];
      for (int k = 1; k <= units; k++) {
        double s = scale(unitEpsilon, total, k);
        for (FieldConfig f : fields) {
          double share = (double) units / k;
          errors[k - 1] += share * ReportVariance.of(f.spec(), s * f.epsilon())
              + (share - 1) * ReportVariance.ofInputs();
        }
      }
      int best = 1;
      for (int k = 2; k <= units; k++) {
        if (errors[k - 1] < errors[best - 1]) {
          best = k;
        }
      }
      return new FieldSampling(best, true, unitOf.clone(), units, scale(unitEpsilon, total, best), errors);
    }
    int k = request.fieldsPerRecord();
    if (k < 1 || k > units) {
      throw new ConfigException("sampling: fields-per-record must be a whole number from 1 to " + units
          + " (the configuration's fields, a polar pair counting as one) or auto, got " + k);
    }
    return new FieldSampling(k, false, unitOf.clone(), units, scale(unitEpsilon, total, k), null);
  }

  /** {@code E / (the sum of the K largest unit epsilons)}, lowered by the margin; 1 when every unit is reported. */
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

  /** What a reported field's epsilon is multiplied by (1 when every unit is reported). */
  public double scale() {
    return scale;
  }

  /** One line for start-up: K, how it was chosen, and the epsilon of a report. */
  public String describe() {
    // Six significant digits: the scale is a hair below E / (sum of the K largest) (SCALE_MARGIN),
    // which people read as that ratio; rounding to it overstates the spend, never understates it.
    String shown = new java.math.BigDecimal(scale).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
    String line = String.format(Locale.ROOT, "sampling: each record reports %d of its %d fields%s, each at %s times"
        + " its configured epsilon", fieldsPerRecord, units, units == unitOf.length ? "" : " (a polar pair counting as one)",
        shown);
    if (!auto) {
      return line;
    }
    StringBuilder b = new StringBuilder(line).append(" (auto: the least expected error of the fields' means"
        + " for inputs spread over their domains; by K:");
    for (int k = 1; k <= units; k++) {
      b.append(String.format(Locale.ROOT, " %d %.4g", k, errors[k - 1]));
    }
    return b.append(')').toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldSampling s && s.fieldsPerRecord == fieldsPerRecord && s.auto == auto
        && Arrays.equals(s.unitOf, unitOf) && Double.compare(s.scale, scale) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(fieldsPerRecord, auto, Arrays.hashCode(unitOf), scale);
  }

  @Override
  public String toString() {
    return "sampling{fields-per-record=" + (auto ? "auto:" : "") + fieldsPerRecord + " of " + units + ", scale="
        + scale + "}";
  }
}
