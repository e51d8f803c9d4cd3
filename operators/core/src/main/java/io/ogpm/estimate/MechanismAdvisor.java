package io.ogpm.estimate;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Chooses a field's mechanism for what its outputs are used for ({@code mechanism: auto}): the
 * candidate with the smallest worst regret, minimax over the inputs a window may hold.
 *
 * <p>Every mechanism of the catalog that supports the field's domain and builds at its epsilon is a
 * candidate. Per question, a candidate's loss for an input mix P is:
 *
 * <ul>
 *   <li>{@link OptimizeFor#VALUES}: the worst-case expected error of one output in the objective's
 *       metric ({@link Mechanism#worstCaseError}), the same for every P;
 *   <li>{@link OptimizeFor#MEANS}: the width of the 95 % interval for the window's mean that n
 *       outputs are expected to give ({@link PlannedMeanInterval}), n the planned records per
 *       window, including what the mechanism leaves unidentified;
 *   <li>{@link OptimizeFor#DISTRIBUTIONS}: the expected squared error of the outputs' inversion
 *       into input bins ({@link PlannedDistributionError}); infinite for a mechanism whose outputs
 *       carry no distribution.
 * </ul>
 *
 * The regret of a candidate for P is its loss over the smallest loss of any candidate for the same
 * P, and its worst regret the largest over the searched mixes: every point mass on a grid of
 * {@value #GRID} equal steps over the domain (ends included), every half-and-half mix of two grid
 * points, and the uniform mix (for distributions, the same over the {@link
 * PlannedDistributionError#BINS} bins). Point masses and pairs are where the worst cases lie: a
 * width is largest for inputs at an end band's edge or split between the ends, which are in the
 * set, and a test checks that random mixes of three arbitrary points never regret more than {@link
 * #SEARCH_TOLERANCE} more (a studentised width depends on the mix's variance as well as its mean,
 * so a mix of three can exceed its pairs by a hair). {@link OptimizeFor#AGGREGATION} takes the
 * worse of the means' and the distributions' regrets. Ties go to the catalog's order (ogpm first).
 * On a circle only the values are weighed.
 */
@Internal
public final class MechanismAdvisor {
  /** Steps of the input grid searched for the means' worst case. */
  public static final int GRID = 64;

  /** The estimator's bins whose interval the means' widths are those of. */
  public static final int BINS = 50;

  /**
   * How much more than the searched worst a mix outside the search may regret: a relative 0.1 %.
   */
  public static final double SEARCH_TOLERANCE = 1e-3;

  /** Relative tolerance under which two worst regrets count as equal. */
  private static final double TIE = 1e-9;

  /** One candidate's numbers. */
  public record Row(
      MechanismType type,
      double valueError,
      double meanWidthWorst,
      double meanWidthUniform,
      double meanWidthEnds,
      double meanWidthMiddle,
      double distributionError,
      double valueRegret,
      double meanRegret,
      double distributionRegret) {
    /** The worst regret for a question. */
    public double regret(OptimizeFor question) {
      return switch (question) {
        case VALUES -> valueRegret;
        case MEANS -> meanRegret;
        case DISTRIBUTIONS -> distributionRegret;
        case AGGREGATION -> Math.max(meanRegret, distributionRegret);
      };
    }
  }

  /** The choice, the question and window size it was made for, every candidate's row, and why. */
  public record Advice(
      MechanismSpec spec, OptimizeFor question, long records, List<Row> rows, String reason) {
    public MechanismType choice() {
      return spec.type();
    }
  }

  private MechanismAdvisor() {}

  /**
   * The advice for a field whose spec gives the domain, epsilon, objective and output grid (its
   * type is ignored), for windows of {@code records} outputs.
   *
   * @throws IllegalArgumentException if records is below 1 or no candidate builds
   */
  public static Advice advise(MechanismSpec field, OptimizeFor question, long records) {
    if (records < 1) {
      throw new IllegalArgumentException("records per window must be at least 1, got " + records);
    }
    // The type is ignored: one key for every spec that differs only in it.
    Key key =
        new Key(
            field.toBuilder().type(MechanismType.autoPlaceholder(field.epsilon())).build(),
            question,
            records);
    return CACHE.get(key, k -> advise(field, question, records, List.of(MechanismType.values())));
  }

  private record Key(MechanismSpec field, OptimizeFor question, long records) {}

  /**
   * Advice already computed: a configuration's fields often share a domain and epsilon, and a
   * process loads the same configuration more than once (the perturbation, the aggregation, a
   * restart). Pure function of the key; the most recent {@value #CACHED} are kept.
   */
  private static final int CACHED = 256;

  private static final RecentResults<Key, Advice> CACHE = new RecentResults<>(CACHED);

  /**
   * The specs {@code auto} chooses among for a field: the field with each catalog type that
   * supports its domain and whose unit mechanism builds with its settings, in catalog order.
   */
  public static List<MechanismSpec> candidates(MechanismSpec field) {
    return candidates(field, List.of(MechanismType.values()));
  }

  private static List<MechanismSpec> candidates(MechanismSpec field, List<MechanismType> types) {
    List<MechanismSpec> candidates = new ArrayList<>();
    boolean circular = field.domain().isCircular();
    for (MechanismType type : types) {
      if (circular ? !type.supportsCircular() : !type.supportsClassical()) {
        continue;
      }
      try {
        MechanismSpec spec = field.toBuilder().type(type).build();
        MechanismCatalog.unitMechanism(spec);
        candidates.add(spec);
      } catch (IllegalArgumentException e) {
        // not available with this field's settings: not a candidate
      }
    }
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("no mechanism builds for " + field);
    }
    return candidates;
  }

  /** The advice among the given types (in their order, which breaks ties); not cached. */
  static Advice advise(
      MechanismSpec field, OptimizeFor question, long records, List<MechanismType> types) {
    List<Mechanism> candidates = new ArrayList<>();
    for (MechanismSpec spec : candidates(field, types)) {
      candidates.add(MechanismCatalog.of(spec));
    }
    boolean circular = field.domain().isCircular();
    OptimizeFor asked = circular ? OptimizeFor.VALUES : question;
    int c = candidates.size();
    double[] valueError = new double[c];
    Distance distance = circular ? Distance.CIRCULAR : Distance.LINEAR;
    for (int i = 0; i < c; i++) {
      valueError[i] = candidates.get(i).worstCaseError(field.objective().metric(), distance);
    }
    double[] valueRegret = regrets(new double[][] {valueError});
    double[][] means = circular ? null : meanWidths(candidates, records);
    double[][] distributions = circular ? null : distributionErrors(candidates);
    double[] meanRegret = means == null ? filled(c, Double.NaN) : regrets(means);
    double[] distributionRegret =
        distributions == null ? filled(c, Double.NaN) : regrets(distributions);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < c; i++) {
      rows.add(
          new Row(
              candidates.get(i).spec().type(),
              valueError[i],
              means == null ? Double.NaN : column(means, i, Double.NEGATIVE_INFINITY),
              means == null ? Double.NaN : means[UNIFORM][i],
              means == null ? Double.NaN : means[ENDS][i],
              means == null ? Double.NaN : means[MIDDLE][i],
              distributions == null ? Double.NaN : distributions[0][i],
              valueRegret[i],
              meanRegret[i],
              distributionRegret[i]));
    }
    int best = 0;
    for (int i = 1; i < c; i++) {
      if (rows.get(i).regret(asked) < rows.get(best).regret(asked) * (1 - TIE)) {
        best = i;
      }
    }
    return new Advice(
        candidates.get(best).spec(), asked, records, List.copyOf(rows), reason(rows, best, asked));
  }

  // The first mixes of the means' search, reported in the rows.
  private static final int UNIFORM = 0;
  private static final int ENDS = 1;
  private static final int MIDDLE = 2;

  /**
   * {@code widths[mix][candidate]}: the uniform mix, half at each end, a point mass in the middle,
   * then every point mass and pair of the grid.
   */
  private static double[][] meanWidths(List<Mechanism> candidates, long records) {
    double lo = candidates.get(0).domain().lo();
    double w = candidates.get(0).domain().width();
    double[] points = new double[GRID + 1];
    for (int i = 0; i <= GRID; i++) {
      points[i] = i == GRID ? lo + w : lo + w * i / GRID;
    }
    List<double[]> mixes = new ArrayList<>();
    mixes.add(filled(GRID + 1, 1.0 / (GRID + 1)));
    mixes.add(pair(0, GRID));
    mixes.add(pair(GRID / 2, GRID / 2));
    for (int i = 0; i <= GRID; i++) {
      for (int j = i; j <= GRID; j++) {
        mixes.add(pair(i, j));
      }
    }
    double[][] widths = new double[mixes.size()][candidates.size()];
    for (int c = 0; c < candidates.size(); c++) {
      PlannedMeanInterval planner = PlannedMeanInterval.of(candidates.get(c), BINS, points);
      for (int m = 0; m < mixes.size(); m++) {
        widths[m][c] =
            planner == null ? Double.POSITIVE_INFINITY : planner.width(records, mixes.get(m));
      }
    }
    return widths;
  }

  /** {@code errors[mix][candidate]}: the uniform mix, then every bin and pair of bins. */
  private static double[][] distributionErrors(List<Mechanism> candidates) {
    int k = PlannedDistributionError.BINS;
    List<double[]> mixes = new ArrayList<>();
    mixes.add(filled(k, 1.0 / k));
    for (int i = 0; i < k; i++) {
      for (int j = i; j < k; j++) {
        double[] shares = new double[k];
        shares[i] += 0.5;
        shares[j] += 0.5;
        mixes.add(shares);
      }
    }
    double[][] errors = new double[mixes.size()][candidates.size()];
    for (int c = 0; c < candidates.size(); c++) {
      PlannedDistributionError planner = PlannedDistributionError.of(candidates.get(c));
      for (int m = 0; m < mixes.size(); m++) {
        errors[m][c] = planner == null ? Double.POSITIVE_INFINITY : planner.error(mixes.get(m));
      }
    }
    return errors;
  }

  /** Half the weight at grid point i and half at j (all at i when they are equal). */
  private static double[] pair(int i, int j) {
    double[] weights = new double[GRID + 1];
    weights[i] += 0.5;
    weights[j] += 0.5;
    return weights;
  }

  /**
   * Each candidate's worst regret over the mixes: its loss over the smallest loss for the same mix,
   * at its largest. A mix no candidate has a finite loss for is skipped.
   */
  static double[] regrets(double[][] losses) {
    int c = losses[0].length;
    double[] worst = new double[c];
    for (double[] mix : losses) {
      double best = Double.POSITIVE_INFINITY;
      for (double loss : mix) {
        best = Math.min(best, loss);
      }
      if (!Double.isFinite(best)) {
        continue;
      }
      for (int i = 0; i < c; i++) {
        double ratio = best == 0 ? (mix[i] == 0 ? 1 : Double.POSITIVE_INFINITY) : mix[i] / best;
        worst[i] = Math.max(worst[i], ratio);
      }
    }
    return worst;
  }

  private static double column(double[][] rows, int i, double start) {
    double max = start;
    for (double[] row : rows) {
      max = Math.max(max, row[i]);
    }
    return max;
  }

  private static double[] filled(int n, double value) {
    double[] a = new double[n];
    java.util.Arrays.fill(a, value);
    return a;
  }

  /** One line: the choice, its worst regret, and the runner-up's. */
  private static String reason(List<Row> rows, int best, OptimizeFor question) {
    Row chosen = rows.get(best);
    Row next = null;
    for (int i = 0; i < rows.size(); i++) {
      if (i != best && (next == null || rows.get(i).regret(question) < next.regret(question))) {
        next = rows.get(i);
      }
    }
    String what =
        switch (question) {
          case VALUES -> "the smallest worst-case error of one value";
          case MEANS -> "the narrowest window-mean interval at its worst";
          case DISTRIBUTIONS -> "the smallest distribution error at its worst";
          case AGGREGATION -> "the smallest worst regret over window means and distributions";
        };
    return String.format(
        Locale.ROOT,
        "%s: %s (%.3g times the best candidate's for the least favourable inputs%s)",
        chosen.type().id(),
        what,
        chosen.regret(question),
        next == null
            ? ""
            : String.format(
                Locale.ROOT, "; next %s, %.3g", next.type().id(), next.regret(question)));
  }
}
