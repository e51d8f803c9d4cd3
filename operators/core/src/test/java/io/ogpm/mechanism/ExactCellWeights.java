package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.baseline.Truncation;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Optional;

/**
 * The exact output distribution of a two-level integer sampler on its cells, in integers: cell c
 * has probability {@code W_c(z) / (2^53 NB N)} with {@code W_c(z) = T B_c N + (2^53 - T) U_c(z)
 * NB}, {@code B_c} the background positions and {@code U_c(z)} the bump positions of input z in the
 * cell. Computed here from the sampler's integers (T, NB, N, K, the background's first position and
 * the bump's first position for z) by interval overlap, independently of the sampler's own
 * arithmetic. Cells are position intervals: the grid's cells, or for t-pm and t-sw the clamped
 * cells, whose first and last take every position below and above.
 */
final class ExactCellWeights {
  private static final BigInteger TWO_POW_53 = BigInteger.ONE.shiftLeft(53);

  private final String name;
  private final TwoLevelCellSampler s;
  private final boolean circular;
  private final long period;
  private final long[] from;
  private final long[] to;
  private final long[] background;

  private ExactCellWeights(
      String name,
      TwoLevelCellSampler s,
      boolean circular,
      long period,
      long[] from,
      long[] to,
      long[] background) {
    this.name = name;
    this.s = s;
    this.circular = circular;
    this.period = period;
    this.from = from;
    this.to = to;
    this.background = background;
  }

  /** The cells of a spec's output grid, or empty if there are more than maxCells. */
  static Optional<ExactCellWeights> of(MechanismSpec spec, TwoLevelCellSampler s, int maxCells) {
    UnitMechanism unit = MechanismCatalog.unitMechanism(spec);
    OutputGrid grid = OutputGrid.of(spec.gridBits(), unit);
    long count = grid.maxCell() - grid.minCell() + 1;
    if (count > maxCells) {
      return Optional.empty();
    }
    int cells = (int) count;
    long perCell = 1L << s.shift();
    long[] from = new long[cells];
    long[] to = new long[cells];
    long[] background = new long[cells];
    long bgFrom = s.backgroundStart();
    long bgTo = bgFrom + s.backgroundPositions();
    for (int i = 0; i < cells; i++) {
      from[i] = (grid.minCell() + i) * perCell;
      to[i] = from[i] + perCell;
      if (unit instanceof Truncation) {
        from[i] = i == 0 ? Long.MIN_VALUE : from[i];
        to[i] = i == cells - 1 ? Long.MAX_VALUE : to[i];
      }
      background[i] = overlap(from[i], to[i], bgFrom, bgTo);
    }
    long period = unit.circular() ? s.backgroundPositions() : 0;
    return Optional.of(
        new ExactCellWeights(spec.toString(), s, unit.circular(), period, from, to, background));
  }

  int cells() {
    return from.length;
  }

  /** Positions in both [a0, a1) and [b0, b1). */
  static long overlap(long a0, long a1, long b0, long b1) {
    return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  }

  /** U: the bump positions starting at {@code start} that fall in cell i (wrapped on a circle). */
  long bump(int i, long start) {
    long n = s.bumpPositions();
    if (!circular) {
      return overlap(start, start + n, from[i], to[i]);
    }
    long first = Math.floorMod(start, period);
    long inCell = overlap(first, Math.min(first + n, period), from[i], to[i]);
    return first + n > period ? inCell + overlap(0, first + n - period, from[i], to[i]) : inCell;
  }

  BigInteger weight(int i, long bump) {
    BigInteger t = BigInteger.valueOf(s.backgroundThreshold());
    return t.multiply(BigInteger.valueOf(background[i]))
        .multiply(BigInteger.valueOf(s.bumpPositions()))
        .add(
            TWO_POW_53
                .subtract(t)
                .multiply(BigInteger.valueOf(bump))
                .multiply(BigInteger.valueOf(s.backgroundPositions())));
  }

  /**
   * For the given inputs: every input's weights sum to {@code 2^53 NB N}, agree with the sampler's
   * {@code cellProbabilities} (not for clamped cells), and the exact worst ratio over cells and
   * inputs, {@code max_c W_c(max U) / W_c(min U)}, is at most {@code 1 + X = (T N + (2^53 - T) NB)
   * / (T N)}; it equals it when some input's bump covers a whole inside cell that another's misses.
   *
   * @return whether the ratio 1 + X is reached
   */
  boolean checkInputs(double[] inputs) {
    int cells = cells();
    long[] most = new long[cells];
    long[] least = new long[cells];
    Arrays.fill(least, Long.MAX_VALUE);
    boolean clamped = from[0] == Long.MIN_VALUE;
    for (double z : inputs) {
      long start = s.bumpStart(z);
      long backgroundTotal = 0;
      long bumpTotal = 0;
      double[] reference = clamped ? null : s.cellProbabilities(z);
      double scale = Math.scalb(1.0, -53) / s.backgroundPositions() / s.bumpPositions();
      for (int i = 0; i < cells; i++) {
        long u = bump(i, start);
        assertThat(u)
            .as("%s: bump within background in cell %s", name, i)
            .isLessThanOrEqualTo(background[i]);
        most[i] = Math.max(most[i], u);
        least[i] = Math.min(least[i], u);
        backgroundTotal += background[i];
        bumpTotal += u;
        if (reference != null) {
          double p = weight(i, u).doubleValue() * scale;
          assertThat(reference[i])
              .as("%s z=%s cell %s", name, z, i)
              .isCloseTo(p, org.assertj.core.data.Offset.offset(1e-12));
        }
      }
      assertThat(backgroundTotal)
          .as("%s: every background position in a cell", name)
          .isEqualTo(s.backgroundPositions());
      assertThat(bumpTotal)
          .as("%s z=%s: every bump position in a cell", name, z)
          .isEqualTo(s.bumpPositions());
    }
    BigInteger inside =
        BigInteger.valueOf(s.backgroundThreshold()).multiply(BigInteger.valueOf(s.bumpPositions()));
    BigInteger outside =
        TWO_POW_53
            .subtract(BigInteger.valueOf(s.backgroundThreshold()))
            .multiply(BigInteger.valueOf(s.backgroundPositions()));
    BigInteger worstNum = BigInteger.ONE;
    BigInteger worstDen = BigInteger.ONE;
    boolean reached = false;
    for (int i = 0; i < cells; i++) {
      if (background[i] == 0) {
        assertThat(most[i]).as("%s: cell %s never drawn", name, i).isZero();
        continue;
      }
      BigInteger num = weight(i, most[i]);
      BigInteger den = weight(i, least[i]);
      if (num.multiply(worstDen).compareTo(worstNum.multiply(den)) > 0) {
        worstNum = num;
        worstDen = den;
      }
      reached |= background[i] == 1L << s.shift() && most[i] == background[i] && least[i] == 0;
    }
    // worst <= (inside + outside) / inside
    assertThat(worstNum.multiply(inside))
        .as("%s: worst cell ratio %s / %s at most 1 + X", name, worstNum, worstDen)
        .isLessThanOrEqualTo(worstDen.multiply(inside.add(outside)));
    if (reached && s.backgroundThreshold() < 1L << 53) {
      assertThat(worstNum.multiply(inside))
          .as("%s: 1 + X reached", name)
          .isEqualTo(worstDen.multiply(inside.add(outside)));
    }
    return reached;
  }

  /**
   * For every input at once. On a bounded domain the bump's first position is monotone in the input
   * (a floor of rounded monotone operations, then clamped), so it lies between its values at 0 and
   * 1, and {@code U_c} is at most the largest overlap of a bump starting there; on a circle any
   * start is allowed. {@code max U_c <= B_c} then bounds every cell's ratio by {@code 1 + X} (the
   * class comment of {@link TwoLevelCellSampler}).
   */
  void checkEveryInput() {
    long n = s.bumpPositions();
    long lowest = s.bumpStart(0);
    long highest = s.bumpStart(1);
    for (int i = 0; i < cells(); i++) {
      long most;
      if (circular) {
        most = Math.min(n, to[i] - from[i]);
        assertThat(n).as("%s: bump at most once around", name).isLessThanOrEqualTo(period);
      } else {
        // The overlap rises, stays flat from min(from, to - n) to max(from, to - n), then falls.
        long plateau = Math.min(from[i], to[i] - n);
        most = bumpAt(i, Math.min(Math.max(plateau, lowest), highest));
      }
      assertThat(most)
          .as("%s: most bump positions in cell %s over all inputs", name, i)
          .isLessThanOrEqualTo(background[i]);
    }
  }

  private long bumpAt(int i, long start) {
    return overlap(start, start + s.bumpPositions(), from[i], to[i]);
  }
}
