package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.polar.PolarShares;
import io.ogpm.mechanism.polar.PolarSplit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A polar item becomes its radius and angle fields, with eps split by {@link PolarSplit}. */
class PolarFieldsTest {
  static final String PAIR =
      """
      id-field: id
      fields:
        - domain: polar
          radius: {name: target.distance, max: 1}
          angle: {name: target.bearing, min: 0, max: 360}
          epsilon: 7.283185307179586
          objective: l2
          out-of-range: clamp
        - {name: speed, min: 0, max: 40, epsilon: 1}
      """;

  /** Each part may have its own exceedances, as an ordinary field may. */
  @Test
  void eachPartTakesItsOwnExceedances() {
    PrivacyConfig config =
        PrivacyConfig.parse(
            PAIR.replace("min: 0, max: 360}", "min: 0, max: 360, exceedances: [90, 270]}"));
    assertThat(config.fields().get(0).exceedances()).isEmpty();
    assertThat(config.fields().get(1).exceedances()).containsExactly(90, 270);
  }

  @Test
  void becomesTwoFieldsWithTheBestSplit() {
    PrivacyConfig config = PrivacyConfig.parse(PAIR);
    List<FieldConfig> fields = config.fields();
    assertThat(fields)
        .extracting(FieldConfig::name)
        .containsExactly("target.distance", "target.bearing", "speed");
    FieldConfig radius = fields.get(0);
    FieldConfig angle = fields.get(1);
    PolarSplit.Point best =
        PolarSplit.of(7.283185307179586, 1, ErrorMetric.L2, Objective.L2).optimum();
    // docs/mechanisms.md, "The polar split": 1.53 and 5.75 with the square-error optimal
    // mechanisms.
    assertThat(radius.epsilon()).isEqualTo(best.epsRadius()).isBetween(1.525, 1.535);
    assertThat(radius.spec())
        .isEqualTo(
            MechanismSpec.builder()
                .domain(Domain.classical(0, 1))
                .epsilon(best.epsRadius())
                .objective(Objective.L2)
                .build());
    assertThat(angle.spec())
        .isEqualTo(
            MechanismSpec.builder()
                .domain(Domain.circular(0, 360))
                .epsilon(angle.epsilon())
                .objective(Objective.L2)
                .build());
    assertThat(angle.epsilon()).isBetween(5.745, 5.755);
    assertThat(radius.epsilon() + angle.epsilon()).isLessThanOrEqualTo(7.283185307179586);
    assertThat(angle.epsilon())
        .isGreaterThanOrEqualTo(Math.nextDown(7.283185307179586 - radius.epsilon()));
    assertThat(radius.outOfRange()).isEqualTo(OutOfRange.CLAMP);
    assertThat(angle.outOfRange()).isEqualTo(OutOfRange.CLAMP);
    assertThat(config.epsilonPerRecord()).isLessThanOrEqualTo(7.283185307179586 + 1);
  }

  /** The shares never add up to more than eps in doubles, whatever the rounding of eps - eps1. */
  @ParameterizedTest
  @CsvSource({"3.3, 3", "7.283185307179586, 1", "12.1, 0.5", "9.99, 3.7", "6, 2"})
  void theSharesNeverExceedTheBudget(double epsilon, double radiusMax) {
    PrivacyConfig config =
        PrivacyConfig.parse(
            "fields: [{domain: polar, radius: {name: r, max: "
                + radiusMax
                + "}, angle: {name: a, min: -180, max: 180}, epsilon: "
                + epsilon
                + "}]");
    double radius = config.fields().get(0).epsilon();
    double angle = config.fields().get(1).epsilon();
    assertThat(radius + angle).isLessThanOrEqualTo(epsilon);
    assertThat(config.epsilonPerRecord()).isLessThanOrEqualTo(epsilon);
    assertThat(radius).isPositive();
    assertThat(angle).isPositive().isGreaterThan(epsilon - radius - 1e-12);
    assertThat(config.fields().get(0).objective()).isEqualTo(Objective.L1);
    assertThat(config.fields().get(0).outOfRange()).isEqualTo(OutOfRange.REJECT);
  }

  @Test
  void theRemainderIsRoundedDownWhereTheSumWouldRoundUp() {
    assertThat(2.057 + (7.874 - 2.057)).isGreaterThan(7.874);
    assertThat(PolarShares.remainder(7.874, 2.057)).isEqualTo(Math.nextDown(7.874 - 2.057));
    assertThat(2.057 + PolarShares.remainder(7.874, 2.057)).isLessThanOrEqualTo(7.874);
    assertThat(PolarShares.remainder(1.0, 0.25)).isEqualTo(0.75);
  }

  @Test
  void aRadiusDomainMayStartAboveZeroAndOnlyItsWidthMatters() {
    PrivacyConfig shifted =
        PrivacyConfig.parse(
            "fields: [{domain: polar, radius: {name: r, min: 5, max: 8}, angle: {name: a, min: 0, max: 6.28}, epsilon: 4}]");
    PrivacyConfig fromZero =
        PrivacyConfig.parse(
            "fields: [{domain: polar, radius: {name: r, max: 3}, angle: {name: a, min: 0, max: 6.28}, epsilon: 4}]");
    assertThat(shifted.fields().get(0).domain()).isEqualTo(Domain.classical(5, 8));
    assertThat(fromZero.fields().get(0).domain()).isEqualTo(Domain.classical(0, 3));
    assertThat(shifted.fields().get(0).epsilon()).isEqualTo(fromZero.fields().get(0).epsilon());
  }

  @Test
  void badPolarItemsAreNamed() {
    String angle = "angle: {name: a, min: 0, max: 360}";
    String radius = "radius: {name: r, max: 1}";
    bad(
        "fields: [{domain: polar, " + angle + ", epsilon: 3}]",
        "field #1 (polar): radius is required");
    bad(
        "fields: [{domain: polar, " + radius + ", epsilon: 3}]",
        "field #1 (polar): angle is required");
    bad(
        "fields: [{domain: polar, " + radius + ", " + angle + "}]",
        "field #1 (polar): epsilon is required");
    bad(
        "fields: [{domain: polar, name: x, " + radius + ", " + angle + ", epsilon: 3}]",
        "unknown key 'name' in field #1 (polar) (known keys: domain, radius, angle, epsilon, objective, out-of-range)");
    bad(
        "fields: [{domain: polar, radius: {name: r, max: 1, epsilon: 2}, "
            + angle
            + ", epsilon: 3}]",
        "unknown key 'epsilon' in field #1 (polar): radius (known keys: name, min, max,"
            + " exceedances)");
    bad(
        "fields: [{domain: polar, radius: {max: 1}, " + angle + ", epsilon: 3}]",
        "field #1 (polar): radius: name is required");
    bad(
        "fields: [{domain: polar, radius: {name: r}, " + angle + ", epsilon: 3}]",
        "field #1 (polar): radius: max is required");
    bad(
        "fields: [{domain: polar, " + radius + ", angle: {name: a, max: 360}, epsilon: 3}]",
        "field #1 (polar): angle: min is required");
    bad(
        "fields: [{domain: polar, radius: 5, " + angle + ", epsilon: 3}]",
        "field #1 (polar): radius must be a mapping, got 5");
    bad(
        "fields: [{domain: polar, radius: {name: r, min: 2, max: 1}, " + angle + ", epsilon: 3}]",
        "field #1 (polar): radius: min must be < radius: max, got radius: min=2.0 and radius: max=1.0");
    bad(
        "fields: [{domain: polar, " + radius + ", angle: {name: a, min: 0, max: 0}, epsilon: 3}]",
        "field #1 (polar): angle: min must be < angle: max, got angle: min=0.0 and angle: max=0.0");
    bad(
        "fields: [{domain: polar, " + radius + ", " + angle + ", epsilon: -3}]",
        "field #1 (polar): epsilon must be > 0, got -3.0");
    bad(
        "fields: [{domain: polar, " + radius + ", " + angle + ", epsilon: 3, objective: l3}]",
        "field #1 (polar): objective must be l1 or l2, got 'l3'");
    // eps = 2 on [0, 1): the angle's error dominates, the best split gives the radius nothing.
    bad(
        "fields: [{domain: polar, " + radius + ", " + angle + ", epsilon: 2, objective: l2}]",
        "field #1 (polar): the least total error at epsilon 2.0 gives the radius no share of it"
            + " (see ogpm polar-split); raise epsilon or configure two fields");
    bad(
        "fields: [{domain: polar, radius: {name: r, max: 1000}, " + angle + ", epsilon: 2}]",
        "field #1 (polar): the least total error at epsilon 2.0 gives the angle no share of it"
            + " (see ogpm polar-split); raise epsilon or configure two fields");
    bad(
        "fields: [{domain: polar, radius: {name: r, max: 1}, angle: {name: r, min: 0, max: 1}, epsilon: 9}]",
        "field 'r': duplicate name");
  }

  private static void bad(String yaml, String message) {
    assertThatThrownBy(() -> PrivacyConfig.parse(yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }
}
