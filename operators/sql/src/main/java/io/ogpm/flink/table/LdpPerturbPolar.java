package io.ogpm.flink.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.types.Row;

/**
 * {@code LDP_PERTURB_POLAR(radius, angle, radius_max, eps [, objective [, angle_min, angle_max]])}:
 * a (radius, angle) pair perturbed with eps-LDP as one, {@code ROW<radius DOUBLE, angle DOUBLE>}:
 * the radius by the classical {@code ogpm} on {@code [0, radius_max)}, the angle by the circular
 * {@code ogpm} on the circle {@code [angle_min, angle_max)} (default {@code [0, 2 pi)}, radians;
 * values outside wrap to the same angle), with eps split as the configuration's polar item with the
 * same numbers splits it ({@link io.ogpm.mechanism.polar.PolarShares}: the least total worst-case
 * error under the objective's loss, the shares adding up to at most eps). {@code objective} is
 * {@code 'l1'} (default) or {@code 'l2'}. The samplers, output grid and secure random stream are
 * {@link LdpPerturb}'s; the radius is drawn first.
 *
 * <p>NULL when either coordinate is NULL, NaN or an infinity, when the radius lies outside {@code
 * [0, radius_max]}, or when arguments that are not literals define no pair (NULL, eps &lt;= 0, a
 * best split that gives a coordinate nothing...); each bad coordinate counted in {@code
 * valuesRejected} under its {@code reason}, and nothing of the pair released. Literal arguments
 * that define no pair fail the query when it is planned, naming the argument.
 *
 * <pre>{@code
 * CREATE FUNCTION LDP_PERTURB_POLAR AS 'io.ogpm.flink.table.LdpPerturbPolar' USING JAR '.../ogpm-job.jar';
 * SELECT LDP_PERTURB_POLAR(distance, bearing, 50.0, 9.99, 'l1', 0.0, 360.0) AS target FROM readings;
 * }</pre>
 */
@PublicEvolving
@FunctionHint(output = @DataTypeHint("ROW<radius DOUBLE, angle DOUBLE>"))
public class LdpPerturbPolar extends SecurePerturbFunction {
  private static final long serialVersionUID = 1L;

  /** Secure randomness (the function {@code CREATE FUNCTION} instantiates). */
  public LdpPerturbPolar() {
    this(null);
  }

  /** Seeded randomness: for this package's reproducible tests only. */
  LdpPerturbPolar(Long seed) {
    super(seed);
  }

  @Override
  CallLayout layout() {
    return CallLayout.LDP_PERTURB_POLAR;
  }

  public Row eval(Double radius, Double angle, Double radiusMax, Double eps) {
    return eval(radius, angle, radiusMax, eps, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public Row eval(Double radius, Double angle, Double radiusMax, Double eps, String objective) {
    return eval(
        radius,
        angle,
        radiusMax,
        eps,
        objective,
        PolarArguments.DEFAULT_ANGLE_MIN,
        PolarArguments.DEFAULT_ANGLE_MAX);
  }

  public Row eval(
      Double radius,
      Double angle,
      Double radiusMax,
      Double eps,
      String objective,
      Double angleMin,
      Double angleMax) {
    double[] y =
        perturber.perturbPolar(
            radius,
            angle,
            perturber.polarMechanismsOf(radiusMax, eps, objective, angleMin, angleMax));
    return y == null ? null : Row.of(y[0], y[1]);
  }
}
