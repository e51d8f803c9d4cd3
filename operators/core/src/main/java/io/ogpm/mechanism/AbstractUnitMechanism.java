package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * What every shipped unit mechanism holds: its epsilon, and the classical domain with outputs in
 * the inputs' own interval [0, 1) unless it says otherwise. That interval is the output domain of
 * every mechanism that clamps, truncates or compresses its outputs into the input domain; a
 * mechanism with an enlarged or unbounded output domain overrides {@link #outputLo()} and {@link
 * #outputHi()}, one on the circle {@link #circular()}.
 */
@Internal
public abstract class AbstractUnitMechanism implements UnitMechanism {
  private final double epsilon;

  /** The mechanism at {@code epsilon}, which the subclass's factory has validated. */
  protected AbstractUnitMechanism(double epsilon) {
    this.epsilon = epsilon;
  }

  @Override
  public final double epsilon() {
    return epsilon;
  }

  @Override
  public boolean circular() {
    return false;
  }

  @Override
  public double outputLo() {
    return 0;
  }

  @Override
  public double outputHi() {
    return 1;
  }

  /** An output clamped into [0, 1): where a clamping or truncating mechanism reports it. */
  protected static double clampToUnit(double y) {
    return Math.min(Math.max(y, 0), Math.nextDown(1.0));
  }
}
