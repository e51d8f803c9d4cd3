package io.ogpm.flink.table;

import org.apache.flink.annotation.PublicEvolving;

/**
 * {@code LDP_PERTURB(value, lo, hi, eps [, domain [, mechanism [, objective]]])}: the value
 * perturbed with epsilon-LDP by the DataStream operator's mechanism (the same exact sampler and
 * output grid) on {@code [lo, hi)}, as a DOUBLE. {@code domain} is {@code 'classical'} (default) or
 * {@code 'circular'} (period {@code hi - lo}; values outside it wrap to the same angle), {@code
 * mechanism} any of the command line's ({@code 'ogpm'} by default), {@code objective} {@code 'l1'}
 * (default) or {@code 'l2'}.
 *
 * <p>NULL for a NULL value, NaN or an infinity, a value outside a classical domain, or arguments
 * that are not literals and define no mechanism; each counted in the metric {@code valuesRejected}
 * under its {@code reason}. Literal arguments that define no mechanism ({@code eps <= 0}, {@code lo
 * >= hi}, an unknown name) fail the query when it is planned, with a message naming the argument.
 * Randomness: a secure random stream per subtask. For replay-safe outputs, see {@link
 * LdpPerturbKeyed}.
 *
 * <pre>{@code
 * CREATE FUNCTION LDP_PERTURB AS 'io.ogpm.flink.table.LdpPerturb' USING JAR '.../ogpm-job.jar';
 * SELECT LDP_PERTURB(accel_x, -2.0, 2.0, 1.0) AS accel_x FROM readings;
 * }</pre>
 */
@PublicEvolving
public class LdpPerturb extends SecurePerturbFunction {
  private static final long serialVersionUID = 1L;

  /** Secure randomness (the function {@code CREATE FUNCTION} instantiates). */
  public LdpPerturb() {
    this(null);
  }

  /** Seeded randomness: for this package's reproducible tests only. */
  LdpPerturb(Long seed) {
    super(seed);
  }

  @Override
  CallLayout layout() {
    return CallLayout.LDP_PERTURB;
  }

  public Double eval(Double value, Double lo, Double hi, Double eps) {
    return eval(value, lo, hi, eps, SpecArguments.DEFAULT_DOMAIN);
  }

  public Double eval(Double value, Double lo, Double hi, Double eps, String domain) {
    return eval(value, lo, hi, eps, domain, SpecArguments.DEFAULT_MECHANISM);
  }

  public Double eval(
      Double value, Double lo, Double hi, Double eps, String domain, String mechanism) {
    return eval(value, lo, hi, eps, domain, mechanism, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public Double eval(
      Double value,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      String objective) {
    return perturber.perturb(
        value, perturber.mechanismOf(lo, hi, eps, domain, mechanism, objective));
  }
}
