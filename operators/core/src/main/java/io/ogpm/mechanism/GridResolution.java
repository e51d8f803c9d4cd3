package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import java.util.Arrays;

/**
 * Whether an output grid resolves its mechanism: no cell may hold more than {@link #MOST_PER_CELL}
 * of an output's probability. Snapping is post-processing, so a coarse grid costs no privacy; but
 * every estimate reads the snapped outputs, and the certified bounds on them widen by what a cell
 * can move across a bin edge (the largest density times half a cell). Where one cell holds much of
 * an output's probability (a narrow central piece at large epsilon on a grid of few bits), the
 * bands and intervals are wide whatever the data: valid, and useless. A configuration that would do
 * that is refused at load, naming the least grid bits that resolve the mechanism.
 *
 * <p>The narrowest interval that holds {@code MOST_PER_CELL} of an output's probability is found
 * from a stratified sample of 4,096 outputs at each of 17 inputs. Atoms (clamping at the ends, a
 * mixture's point outputs) are left out: each snaps to one fixed value, whose bin the estimators
 * know exactly.
 */
@Internal
public final class GridResolution {
  /** The largest share of one output's probability a cell may hold: 1/256. */
  public static final double MOST_PER_CELL = 0x1p-8;

  private GridResolution() {}

  /**
   * The least grid bits that resolve {@code mechanism} at its epsilon and domain.
   *
   * @return at least 1
   */
  public static int leastBits(Mechanism mechanism) {
    double narrowest = narrowest(mechanism.unit());
    // A cell of 2^-bits of the domain (unit coordinates) must be no wider than the narrowest span.
    return Math.max(1, (int) Math.ceil(-Math.log(narrowest) / Math.log(2) - 1e-9));
  }

  /**
   * Refuses a mechanism whose grid does not resolve it.
   *
   * @throws IllegalArgumentException naming the grid bits, the mechanism and the least bits that
   *     resolve it
   */
  public static void check(Mechanism mechanism) {
    int least = leastBits(mechanism);
    int bits = mechanism.spec().gridBits();
    if (bits < least) {
      throw new IllegalArgumentException(
          "grid-bits "
              + bits
              + " is too coarse for "
              + mechanism.spec().type().id()
              + " at epsilon "
              + mechanism.epsilon()
              + ": a cell could hold more than 1/256 of an output's probability, which blurs"
              + " every estimate; use grid-bits >= "
              + least);
    }
  }

  /** The width of the narrowest interval holding MOST_PER_CELL of an output's probability. */
  static double narrowest(UnitMechanism unit) {
    double least = Double.POSITIVE_INFINITY;
    // A stratified sample: the outputs at u = (k + 1/2) / N, sorted. Samplers map u to outputs
    // piece by piece, not monotonically; sorted, the points are the distribution's quantiles at
    // 1/N apart (up to a point per piece), so `span` consecutive gaps hold MOST_PER_CELL. Points
    // that repeat are atoms, left out.
    int points = 4096;
    int span = (int) Math.round(points * MOST_PER_CELL);
    double[] outputs = new double[points];
    double[] continuous = new double[points];
    for (int i = 0; i <= 16; i++) {
      if (unit.circular() && i == 16) {
        break; // the same input as 0
      }
      double z = i / 16.0;
      for (int k = 0; k < points; k++) {
        outputs[k] = unit.inverseCdf(z, (k + 0.5) / points);
      }
      Arrays.sort(outputs);
      int kept = 0;
      for (int k = 0; k < points; k++) {
        boolean repeats =
            (k > 0 && outputs[k - 1] == outputs[k])
                || (k + 1 < points && outputs[k + 1] == outputs[k]);
        if (!repeats) {
          continuous[kept++] = outputs[k];
        }
      }
      for (int k = 0; k < kept; k++) {
        double b;
        if (k + span < kept) {
          b = continuous[k + span];
        } else if (unit.circular() && kept > span) {
          b = continuous[k + span - kept] + 1; // around the circle
        } else {
          break;
        }
        least = Math.min(least, b - continuous[k]);
      }
    }
    return least;
  }
}
