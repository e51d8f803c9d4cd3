package io.ogpm.flink.budget;

import io.ogpm.budget.BudgetPeriods;
import org.apache.flink.annotation.Internal;

/**
 * A user's spending in each budget period still kept, as the budget keeps it in state: one {@code
 * long[]} per user holding, by ascending period, pairs {@code (period,
 * doubleToRawLongBits(spent))}.
 *
 * <p>Why one array rather than a map from period to epsilon: a record then costs one read and one
 * write of one value. A map state costs an entry per period, boxed keys and values and a hash map
 * per user on the heap, and in RocksDB a key per period and a prefix scan to visit them. The array
 * is short, at most {@code ceil(maxLag / len) + 3} periods ({@link BudgetPeriods}), usually one, so
 * a linear search is the fastest lookup. Its serializer is Flink's own for {@code long[]}.
 *
 * <p>Invariant: an array given to state is never changed afterwards (the heap backend keeps the
 * reference it was given, and a snapshot may still be writing it); every change returns a new
 * array. {@code null} stands for no spending, as state that was never written or was cleared reads.
 */
@Internal
final class PeriodSpending {
  private PeriodSpending() {}

  /** The epsilon spent in {@code period}; 0 when the period has no spending. */
  static double spent(long[] spending, long period) {
    int i = indexOf(spending, period);
    return i < 0 ? 0 : Double.longBitsToDouble(spending[i + 1]);
  }

  /** Whether {@code period} has spending. */
  static boolean has(long[] spending, long period) {
    return indexOf(spending, period) >= 0;
  }

  private static int indexOf(long[] spending, long period) {
    if (spending != null) {
      for (int i = 0; i < spending.length; i += 2) {
        if (spending[i] == period) {
          return i;
        }
      }
    }
    return -1;
  }

  /**
   * A copy of {@code spending} (null: none) in which {@code period}'s spending is {@code spent}.
   */
  static long[] with(long[] spending, long period, double spent) {
    long bits = Double.doubleToRawLongBits(spent);
    if (spending == null) {
      return new long[] {period, bits};
    }
    int i = 0;
    while (i < spending.length && spending[i] < period) {
      i += 2;
    }
    if (i < spending.length && spending[i] == period) {
      long[] copy = spending.clone();
      copy[i + 1] = bits;
      return copy;
    }
    long[] grown = new long[spending.length + 2];
    System.arraycopy(spending, 0, grown, 0, i);
    grown[i] = period;
    grown[i + 1] = bits;
    System.arraycopy(spending, i, grown, i + 2, spending.length - i);
    return grown;
  }

  /**
   * {@code spending} without the periods whose spending is forgotten at {@code time} ({@link
   * BudgetPeriods#forgetAt} {@code <= time}): the same array when none is, null when all are.
   */
  static long[] keptAt(long[] spending, BudgetPeriods periods, long time) {
    int kept = 0;
    for (int i = 0; i < spending.length; i += 2) {
      if (periods.forgetAt(spending[i]) > time) {
        kept += 2;
      }
    }
    if (kept == spending.length) {
      return spending;
    }
    if (kept == 0) {
      return null;
    }
    long[] out = new long[kept];
    int j = 0;
    for (int i = 0; i < spending.length; i += 2) {
      if (periods.forgetAt(spending[i]) > time) {
        out[j++] = spending[i];
        out[j++] = spending[i + 1];
      }
    }
    return out;
  }
}
