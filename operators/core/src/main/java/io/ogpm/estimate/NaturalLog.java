package io.ogpm.estimate;

/**
 * The natural logarithm for the deviance of every EMS step ({@link Reconstruction#deviance}), one
 * per output bin. {@code Math.log} is a call into the JVM's log routine, which the loop around it
 * cannot overlap; this one is plain Java that the compiler inlines, and it gives the same result on
 * every JVM and processor, which {@code Math.log} (any result within one ulp, platform-specific)
 * does not promise.
 *
 * <p>Tang's table method (P. T. P. Tang, "Table-driven implementation of the logarithm function in
 * IEEE floating-point arithmetic", ACM TOMS 16(4), 1990): for {@code x = 2^e m}, F the nearest of
 * {@code 1 + k/128} (k = 0 ... 127) to m, m in [1, 2) or, when it rounds up to 2, in [1 - 2^-9, 1)
 * with F = 1 (the next exponent),
 *
 * <pre>
 *   ln x = e ln 2 + ln F + ln(1 + r),   r = (m - F) / F,   |r| <= 2^-8,
 * </pre>
 *
 * with {@code ln F} from a table computed once by {@code StrictMath.log} (fdlibm: within one ulp,
 * the same everywhere) and {@code ln(1 + r)} by its Taylor series to r^7, whose remainder is below
 * {@code r^8 / 8 <= 2^-67}. {@code m - F} is exact (they differ by at most 2^-8, less than either),
 * {@code e ln 2} is split into fdlibm's {@code ln2_hi}, exact times any exponent, and {@code
 * ln2_lo}. The error is at most a few units in the last place of the larger of the parts, so at
 * most {@value #ABSOLUTE_ERROR} absolute plus 2 ulp of the result, and 2 ulp alone within 2^-9 of
 * 1, where only the series is left ({@code NaturalLogTest}, against {@code StrictMath.log}); the
 * deviance needs absolute accuracy (its terms cancel), far coarser than that. Zero, negative,
 * subnormal, infinite and NaN arguments go to {@code StrictMath.log}.
 */
final class NaturalLog {
  /**
   * Bound on the absolute error beyond 2 ulp of the result: the table's ln F within half an ulp,
   * which is many ulp of the result where e ln 2 and ln F cancel (x in [0.5, 1)).
   */
  static final double ABSOLUTE_ERROR = 0x1p-53;

  private static final int TABLE_BITS = 7;
  private static final int SHIFT = 52 - TABLE_BITS;

  /**
   * fdlibm's split of ln 2: the high part has 32 significant bits, so e LN2_HI is exact for any e.
   */
  private static final double LN2_HI = 6.93147180369123816490e-01;

  private static final double LN2_LO = 1.90821492927058770002e-10;

  /** {@code ln(1 + k/128)} and {@code 1 / (1 + k/128)}, k = 0 ... 127. */
  private static final double[] LN_F = new double[1 << TABLE_BITS];

  private static final double[] INVERSE_F = new double[1 << TABLE_BITS];

  static {
    for (int k = 0; k < LN_F.length; k++) {
      double f = 1 + k / (double) (1 << TABLE_BITS);
      LN_F[k] = StrictMath.log(f);
      INVERSE_F[k] = 1 / f;
    }
  }

  private NaturalLog() {}

  static double of(double x) {
    long bits = Double.doubleToRawLongBits(x);
    int biased = (int) (bits >>> 52);
    // Sign bit set (biased >= 2048), zero or subnormal (0), infinite or NaN (2047).
    if (biased == 0 || biased >= 0x7FF) {
      return StrictMath.log(x);
    }
    // Rounding the fraction to 7 bits carries into the exponent for m just below 2: then F = 1
    // with the next exponent, and m (just below 1) keeps full relative accuracy around x = 1.
    long rounded = bits + (1L << (SHIFT - 1));
    int e = (int) (rounded >>> 52) - 1023;
    int k = (int) (rounded >>> SHIFT) & ((1 << TABLE_BITS) - 1);
    double m = Double.longBitsToDouble(bits - ((long) e << 52));
    double r = (m - (1 + k * (1.0 / (1 << TABLE_BITS)))) * INVERSE_F[k];
    double p =
        r - r * r * (0.5 - r * (1.0 / 3 - r * (0.25 - r * (0.2 - r * (1.0 / 6 - r * (1.0 / 7))))));
    return (e * LN2_HI + LN_F[k]) + (p + e * LN2_LO);
  }
}
