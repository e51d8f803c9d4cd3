package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.estimate.OptimizeFor;
import io.ogpm.mechanism.MechanismType;
import org.junit.jupiter.api.Test;

/**
 * How a configuration reads and resolves {@code mechanism: auto}, on circular fields, where only
 * single values are weighed (fast enough for mutation testing; {@link AutoMechanismTest} has the
 * intervals').
 */
class AutoMechanismRulesTest {
  static final String TWO =
      "fields:\n"
          + "  - {name: a, domain: circular, min: 0, max: 360, epsilon: 1}\n"
          + "  - {name: b, domain: circular, min: 0, max: 360, epsilon: 2, mechanism: pm}\n";

  @Test
  void theConfigurationWideDefaultAppliesToFieldsThatNameNoMechanism() {
    PrivacyConfig config =
        PrivacyConfig.parse("mechanism: auto\noptimize-for: means\nrecords-per-window: 40\n" + TWO);
    FieldConfig a = config.field("a").orElseThrow();
    FieldConfig b = config.field("b").orElseThrow();
    assertThat(a.mechanism()).isEqualTo(MechanismType.OGPM);
    MechanismChoice choice = a.choice().orElseThrow();
    // on a circle only values are weighed, whatever was asked
    assertThat(choice.optimizeFor()).isEqualTo(OptimizeFor.VALUES);
    assertThat(choice.recordsPerWindow()).isEqualTo(40);
    assertThat(choice.reason()).startsWith("ogpm: the smallest worst-case error of one value (");
    assertThat(a.toString()).contains(", auto for values at 40 records per window: ogpm: ");
    assertThat(b.mechanism()).isEqualTo(MechanismType.PM);
    assertThat(b.choice()).isEmpty();
  }

  @Test
  void aFieldMayAskForAutoAloneAndTheDefaultsApply() {
    PrivacyConfig config =
        PrivacyConfig.parse(
            "fields: [{name: a, domain: circular, min: 0, max: 360, epsilon: 1, mechanism: auto}]");
    MechanismChoice choice = config.fields().get(0).choice().orElseThrow();
    assertThat(choice.recordsPerWindow()).isEqualTo(MechanismChoice.DEFAULT_RECORDS_PER_WINDOW);
    assertThat(PrivacyConfig.parse(TWO).field("a").orElseThrow().choice()).isEmpty();
  }

  @Test
  void aSampledFieldPlansForItsShareOfTheRecordsAtItsEpsilonPerReport() {
    PrivacyConfig config =
        PrivacyConfig.parse(
            "mechanism: auto\nrecords-per-window: 1001\nsampling: {fields-per-record: 1}\n" + TWO);
    FieldConfig a = config.field("a").orElseThrow();
    // 1 of 2 fields per record: ceil(1001 / 2) reports, at the epsilon per report sampling gives
    assertThat(a.choice().orElseThrow().recordsPerWindow()).isEqualTo(501);
    assertThat(a.epsilon()).isEqualTo(config.sampling().orElseThrow().scale());
    assertThat(a.epsilon()).isGreaterThan(1);
  }

  @Test
  void choicesAreValueObjects() {
    MechanismChoice c = MechanismChoice.of(OptimizeFor.MEANS, 5, "r");
    assertThat(c).isEqualTo(MechanismChoice.of(OptimizeFor.MEANS, 5, "r"));
    assertThat(c).isNotEqualTo(MechanismChoice.of(OptimizeFor.MEANS, 6, "r"));
    assertThat(c).isNotEqualTo(MechanismChoice.of(OptimizeFor.VALUES, 5, "r"));
    assertThat(c).isNotEqualTo(MechanismChoice.of(OptimizeFor.MEANS, 5, null));
    assertThat(c.hashCode()).isEqualTo(MechanismChoice.of(OptimizeFor.MEANS, 5, "r").hashCode());
    assertThat(MechanismChoice.of(OptimizeFor.MEANS, 5, null).toString())
        .isEqualTo("auto for means at 5 records per window");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> MechanismChoice.of(OptimizeFor.MEANS, 0, null))
        .hasMessage("records-per-window must be a whole number of at least 1, got 0");
  }
}
