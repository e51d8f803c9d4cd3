package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The fingerprint changes exactly with what an estimator relies on. */
class ConfigFingerprintTest {
  static final String FIELDS =
      """
      fields:
        - name: x
          min: -2
          max: 2
          epsilon: 1
        - name: roll
          domain: circular
          min: -3.141592653589793
          max: 3.141592653589793
          epsilon: 2
      """;

  static ConfigFingerprint of(String yaml) {
    return ConfigFingerprint.of(PrivacyConfig.parse(yaml));
  }

  @Test
  void sameFieldsSameFingerprintWhateverElseChanges() {
    ConfigFingerprint base = of(FIELDS);
    assertThat(base.value()).matches("v1:[0-9a-f]{16}");
    assertThat(of("id-field: id\nuser-field: u\npassthrough: [ts]\n" + FIELDS)).isEqualTo(base);
    assertThat(
            of(
                FIELDS.replace("  - name: x\n    min: -2\n    max: 2\n    epsilon: 1\n", "")
                    + "  - name: x\n    min: -2\n    max: 2\n    epsilon: 1\n"))
        .as("field order")
        .isEqualTo(base);
    assertThat(of(FIELDS.replace("epsilon: 1\n", "epsilon: 1\n    out-of-range: clamp\n")))
        .isEqualTo(base);
    assertThat(of(FIELDS.replace("epsilon: 1\n", "epsilon: 1\n    exceedances: [0, 1.5]\n")))
        .as("exceedances")
        .isEqualTo(base);
    assertThat(ConfigFingerprint.parse(base.value())).isEqualTo(base);
  }

  @Test
  void anyChangeToAMechanismChangesIt() {
    ConfigFingerprint base = of(FIELDS);
    assertThat(of(FIELDS.replace("epsilon: 1\n", "epsilon: 1.0000000001\n"))).isNotEqualTo(base);
    assertThat(of(FIELDS.replace("min: -2", "min: -2.5"))).isNotEqualTo(base);
    assertThat(of(FIELDS.replace("name: x", "name: y"))).isNotEqualTo(base);
    assertThat(of(FIELDS.replace("epsilon: 1\n", "epsilon: 1\n    mechanism: pm\n")))
        .isNotEqualTo(base);
    assertThat(of(FIELDS.replace("epsilon: 1\n", "epsilon: 1\n    objective: l2\n")))
        .isNotEqualTo(base);
    assertThat(of("grid-bits: 30\n" + FIELDS)).isNotEqualTo(base);
    ConfigFingerprint atZero =
        of(FIELDS.replace("epsilon: 1\n", "epsilon: 1\n    optimize-at: 0\n"));
    assertThat(atZero).isNotEqualTo(base);
    assertThat(of(FIELDS.replace("epsilon: 1\n", "epsilon: 1\n    optimize-at: 0.5\n")))
        .isNotEqualTo(atZero)
        .isNotEqualTo(base);
    assertThat(of(FIELDS.replace("    domain: circular\n", ""))).isNotEqualTo(base);
  }

  @Test
  void onlyWellFormedTextParses() {
    assertThat(ConfigFingerprint.parse(null)).isNull();
    assertThat(ConfigFingerprint.parse("v1:0123456789abcdeF")).isNull();
    assertThat(ConfigFingerprint.parse("v2:0123456789abcdef")).isNull();
    assertThat(ConfigFingerprint.parse("v1:0123456789abcdef")).isNotNull();
  }
}
