package io.ogpm.mechanism;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.random.RandomBits;
import java.util.OptionalDouble;

/**
 * A mechanism on a real domain [lo, hi): a {@link UnitMechanism} carried by the affine map {@code x
 * = lo + (hi - lo) z} (Theorem "Transformation invariants": same epsilon, same error ordering),
 * with its outputs snapped to an {@link OutputGrid}.
 *
 * <p>{@link #perturb(double, double)} is the production path: validated input, one uniform draw,
 * one snapped output, no allocation. Instances are immutable and thread-safe; the uniform draws
 * come from the caller (see {@code io.ogpm.mechanism.random}).
 */
@PublicEvolving
public final class Mechanism {
  private final MechanismSpec spec;
  private final UnitMechanism unit;
  private final OutputGrid grid;
  private final double lo;
  private final double hi;
  private final double width;
  private final double invWidth;
  private final double cellWidth;
  private final CellSampler sampler;
  private final double minValue;
  private final double maxValue;
  private final double realizedEpsilon;

  private Mechanism(MechanismSpec spec, UnitMechanism unit) {
    this.spec = spec;
    this.unit = unit;
    this.grid = OutputGrid.of(spec.gridBits(), unit);
    this.lo = spec.domain().lo();
    this.hi = spec.domain().hi();
    this.width = spec.domain().width();
    this.invWidth = 1 / width;
    this.cellWidth = Math.scalb(width, -spec.gridBits());
    checkGridRepresentable();
    this.sampler = CellSampler.of(unit, grid);
    OptionalDouble certified = sampler.certifiedEpsilon();
    if (certified.isEmpty() || !(certified.getAsDouble() <= unit.epsilon())) {
      throw new IllegalStateException(
          spec + ": the sampler certifies no epsilon at most " + unit.epsilon());
    }
    this.realizedEpsilon = certified.getAsDouble();
    this.minValue = lo + width * unit.outputLo();
    this.maxValue = Math.nextDown(lo + width * unit.outputHi());
  }

  /**
   * The mechanism of a spec carried by its unit mechanism. The catalog of unit mechanisms lives
   * apart ({@code io.ogpm.mechanism.catalog.MechanismCatalog}), so that this package does not
   * depend on the baselines, which depend on it.
   */
  public static Mechanism of(MechanismSpec spec, UnitMechanism unit) {
    Checks.notNull("spec", spec);
    Checks.notNull("unit", unit);
    return new Mechanism(spec, unit);
  }

  /**
   * Every reported value must be a distinct double inside the output domain: that needs the cell
   * width to be well above the spacing of doubles at the domain's magnitude.
   */
  private void checkGridRepresentable() {
    double outLo = lo + width * unit.outputLo();
    double outHi = lo + width * unit.outputHi();
    double magnitude = Math.max(Math.abs(outLo), Math.abs(outHi));
    if (Double.isInfinite(magnitude)) {
      // Unbounded outputs (staircase): far-out cells share values, which is post-processing too.
      magnitude = Math.max(Math.abs(lo), Math.abs(hi));
    }
    if (cellWidth < 4 * Math.ulp(magnitude)) {
      throw new IllegalArgumentException(
          "grid-bits "
              + spec.gridBits()
              + " gives cells of "
              + cellWidth
              + ", finer than double precision near "
              + magnitude
              + "; use fewer grid bits");
    }
  }

  public MechanismSpec spec() {
    return spec;
  }

  public UnitMechanism unit() {
    return unit;
  }

  public Domain domain() {
    return spec.domain();
  }

  public double epsilon() {
    return unit.epsilon();
  }

  /** Lower end of the output domain. */
  public double outputLo() {
    return lo + width * unit.outputLo();
  }

  /** Upper (open) end of the output domain. */
  public double outputHi() {
    return lo + width * unit.outputHi();
  }

  /** Width of a grid cell: {@code (hi - lo) * 2^-gridBits}. */
  public double cellWidth() {
    return cellWidth;
  }

  /**
   * The perturbed output for input x: a grid cell drawn by the mechanism's {@link CellSampler}
   * (exact integer sampling for every shipped mechanism), reported as the cell's value.
   *
   * @throws IllegalArgumentException if x is outside [lo, hi] or NaN (the message does not repeat
   *     the value: inputs are sensitive)
   */
  public double perturb(double x, RandomBits bits) {
    return valueOfCell(sampler.sampleCell(toUnit(x), bits));
  }

  /**
   * The raw inverse-cdf draw for a uniform u, not snapped. For analysis and for the privacy
   * auditor's negative control only: its low-order bits depend on the input (docs/mechanisms.md,
   * "Floating point").
   */
  public double perturbUnsnapped(double x, double u) {
    return lo + width * unit.inverseCdf(toUnit(x), u);
  }

  /**
   * The value reported for cell k: {@code lo + (k + 1/2) * cellWidth}, kept inside the output
   * domain (which moves only the partial end cells of an enlarged domain).
   */
  public double valueOfCell(long k) {
    double v = lo + (k + 0.5) * cellWidth;
    return Math.min(Math.max(v, minValue), maxValue);
  }

  /**
   * The epsilon the sampled grid outputs are certified to satisfy: a double r, never above {@link
   * #epsilon()}, with {@code e^r} at least the exact worst ratio of the sampler's cell
   * probabilities, established in exact arithmetic when the sampler was built ({@link
   * CellSampler#certifiedEpsilon()}). For the integer samplers of ogpm, ogpm-u, pm, pm-c, sw and
   * sw-c (and t-pm, t-sw, which clamp their cells: post-processing) it is at most eps by the
   * rounding of their integers (and for hm, the larger of its two parts'); for the exact
   * geometric-noise samplers it is eps itself for staircase, t-laplace and purkayastha (their worst
   * ratio is exactly e^eps) and {@code eps (1 - 2^-bits)}, rounded up, for b-laplace.
   */
  public double realizedEpsilon() {
    return realizedEpsilon;
  }

  /** The output distribution for input x in real units (piecewise mechanisms only). */
  public PiecewiseDistribution distribution(double x) {
    if (!(unit instanceof PiecewiseUnitMechanism piecewise)) {
      throw new UnsupportedOperationException(
          "mechanism " + spec.type().id() + " has no piecewise-uniform output distribution");
    }
    return piecewise.distribution(toUnit(x)).affine(lo, width);
  }

  /** Whether {@link #distribution(double)} is available. */
  public boolean isPiecewise() {
    return unit instanceof PiecewiseUnitMechanism;
  }

  /**
   * Whether a window's distribution can be reconstructed from the outputs: piecewise, with a
   * density that is not all atoms ({@link PiecewiseUnitMechanism#resolvesDistributions()}). The
   * histogram, its band and the tail statistics need it; the mean does not.
   */
  public boolean resolvesDistributions() {
    return unit instanceof PiecewiseUnitMechanism piecewise && piecewise.resolvesDistributions();
  }

  /** {@code E[dist(M(x), x)^k]}, exact: the unit error times {@code width^k}. */
  public double expectedError(double x, ErrorMetric metric, Distance distance) {
    return scale(metric) * unit.expectedError(toUnit(x), metric, distance);
  }

  /** The largest expected error over the domain. */
  public double worstCaseError(ErrorMetric metric, Distance distance) {
    return scale(metric) * unit.worstCaseError(metric, distance);
  }

  /** {@code E[M(x)]}. */
  public double outputMean(double x) {
    return lo + width * unit.outputMean(toUnit(x));
  }

  /** {@code Var[M(x)]}. */
  public double outputVariance(double x) {
    return width * width * unit.outputVariance(toUnit(x));
  }

  /** The largest output variance over the domain: the noise bound behind confidence intervals. */
  public double maxOutputVariance() {
    return width * width * unit.maxOutputVariance();
  }

  /**
   * {@code E[cos(2 pi k (M(x) - x) / (hi - lo))]}: the k-th trigonometric moment of the noise on
   * the circle of period {@code hi - lo}.
   */
  public double noiseCosineMoment(double x, int k) {
    return unit.noiseCosineMoment(toUnit(x), k);
  }

  /** Whether the noise is the same at every input on the circle (circular OGPM, Purkayastha). */
  public boolean isRotationInvariant() {
    return unit.circular();
  }

  private double scale(ErrorMetric metric) {
    return metric == ErrorMetric.L1 ? width : width * width;
  }

  /** x in [lo, hi] to z in [0, 1] (a circle's hi is its lo). */
  private double toUnit(double x) {
    if (!(x >= lo && x <= hi)) {
      throw new IllegalArgumentException("input outside the domain [" + lo + ", " + hi + "]");
    }
    double z = Math.min((x - lo) * invWidth, 1.0);
    return unit.circular() && z == 1 ? 0 : z;
  }

  @Override
  public String toString() {
    return "Mechanism" + spec;
  }
}
