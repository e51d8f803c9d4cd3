package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * The fixed grid that every output is snapped to (docs/mechanisms.md, "Floating point"). The unit
 * line is cut into cells of width {@code 2^-bits}, anchored at 0 (the domain's lower end), and an
 * output is reported as the midpoint of its cell. The reported values are a function of the cell
 * index alone, so the set of possible outputs does not depend on the input: the low-order bits of a
 * double computed as {@code l + u (r - l)} cannot leak the piece boundaries (the piecewise analogue
 * of Mironov's attack on the floating-point Laplace mechanism). Snapping is post-processing, so
 * eps-LDP is kept; cell midpoints keep the mean of a uniform piece, so OGPM-U stays unbiased up to
 * the two cells where a piece boundary falls.
 *
 * <p>The used cells are those that meet the output domain. On an enlarged output domain whose ends
 * are not on the grid, the value of a partial end cell is its midpoint clamped into the domain (a
 * fixed function of the cell). On a circle, cell indices wrap.
 */
@Internal
public final class OutputGrid {
  /** The default resolution: 2^-32 of the domain width. */
  public static final int DEFAULT_BITS = 32;

  /** Finest resolution accepted. */
  public static final int MAX_BITS = 52;

  private final int bits;
  private final double cells;
  private final long cellMask;
  private final boolean circular;
  private final long minCell;
  private final long maxCell;

  private OutputGrid(int bits, boolean circular, long minCell, long maxCell) {
    this.bits = bits;
    this.cells = Math.scalb(1.0, bits);
    this.cellMask = (1L << bits) - 1;
    this.circular = circular;
    this.minCell = minCell;
    this.maxCell = maxCell;
  }

  /**
   * A grid of {@code 2^bits} cells per unit over the output domain [outputLo, outputHi) of a unit
   * mechanism.
   */
  public static OutputGrid of(int bits, UnitMechanism mechanism) {
    if (bits < 1 || bits > MAX_BITS) {
      throw new IllegalArgumentException("grid-bits must be in [1, " + MAX_BITS + "], got " + bits);
    }
    double cells = Math.scalb(1.0, bits);
    if (mechanism.circular()) {
      return new OutputGrid(bits, true, 0, (1L << bits) - 1);
    }
    long min = (long) Math.floor(mechanism.outputLo() * cells);
    long max = (long) Math.ceil(mechanism.outputHi() * cells) - 1;
    if (max < min) {
      throw new IllegalArgumentException(
          "grid-bits " + bits + " leaves no cell in the output domain");
    }
    return new OutputGrid(bits, false, min, max);
  }

  public int bits() {
    return bits;
  }

  /** The cell of a unit-coordinate output y. */
  public long cell(double y) {
    long k = (long) Math.floor(y * cells);
    if (circular) {
      return k & cellMask;
    }
    return Math.min(Math.max(k, minCell), maxCell);
  }

  /** Whether cell indices wrap around a circle. */
  public boolean circular() {
    return circular;
  }

  /** Lowest used cell index. */
  public long minCell() {
    return minCell;
  }

  /** Highest used cell index. */
  public long maxCell() {
    return maxCell;
  }

  /** The midpoint of cell k in unit coordinates. */
  public double unitValue(long k) {
    return (k + 0.5) / cells;
  }
}
