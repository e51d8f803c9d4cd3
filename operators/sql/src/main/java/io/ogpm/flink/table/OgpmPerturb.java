package io.ogpm.flink.table;

import org.apache.flink.annotation.PublicEvolving;

/**
 * {@code OGPM_PERTURB(value, lo, hi, eps [, domain])}: the paper's optimal piecewise mechanism
 * (Theorem 3 on an interval, Theorem 4 on a circle, the closed form p = e^(eps/2), objective l1):
 * {@code LDP_PERTURB(value, lo, hi, eps, domain, 'ogpm', 'l1')}, with the same NULL and error rules
 * ({@link LdpPerturb}).
 */
@PublicEvolving
public class OgpmPerturb extends SecurePerturbFunction {
  private static final long serialVersionUID = 1L;

  /** Secure randomness (the function {@code CREATE FUNCTION} instantiates). */
  public OgpmPerturb() {
    this(null);
  }

  /** Seeded randomness: for this package's reproducible tests only. */
  OgpmPerturb(Long seed) {
    super(seed);
  }

  @Override
  CallLayout layout() {
    return CallLayout.OGPM_PERTURB;
  }

  public Double eval(Double value, Double lo, Double hi, Double eps) {
    return eval(value, lo, hi, eps, SpecArguments.DEFAULT_DOMAIN);
  }

  public Double eval(Double value, Double lo, Double hi, Double eps, String domain) {
    return perturber.perturb(
        value,
        perturber.mechanismOf(
            lo, hi, eps, domain, SpecArguments.DEFAULT_MECHANISM, SpecArguments.DEFAULT_OBJECTIVE));
  }
}
