package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.estimate.MechanismAdvisor;
import io.ogpm.estimate.OptimizeFor;
import io.ogpm.mechanism.MechanismType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code mechanism: auto} in a configuration: resolved per field, at its epsilon per report. */
@Tag("slow") // the whole catalog weighed per field: run by surefire, left out of mutation testing
class AutoMechanismTest {
  static final String FIELDS =
      "fields:\n"
          + "  - {name: a, min: 0, max: 1, epsilon: 1}\n"
          + "  - {name: b, min: 0, max: 1, epsilon: 1, optimize-for: means}\n"
          + "  - {name: c, min: 0, max: 1, epsilon: 1, mechanism: sw}\n"
          + "  - {name: d, min: 0, max: 1, epsilon: 1, optimize-for: values, objective: l2}\n";

  @Test
  void eachAutoFieldGetsTheAdvisorsChoiceForItsQuestionAndAConfiguredOneKeepsItsOwn() {
    PrivacyConfig config =
        PrivacyConfig.parse("mechanism: auto\nrecords-per-window: 20000\n" + FIELDS);
    FieldConfig a = config.field("a").orElseThrow();
    FieldConfig b = config.field("b").orElseThrow();
    FieldConfig c = config.field("c").orElseThrow();
    FieldConfig d = config.field("d").orElseThrow();
    assertThat(a.mechanism())
        .isEqualTo(MechanismAdvisor.advise(a.spec(), OptimizeFor.AGGREGATION, 20_000).choice());
    assertThat(a.choice().orElseThrow().optimizeFor()).isEqualTo(OptimizeFor.AGGREGATION);
    assertThat(a.choice().orElseThrow().recordsPerWindow()).isEqualTo(20_000);
    assertThat(a.choice().orElseThrow().reason()).startsWith(a.mechanism().id() + ": ");
    assertThat(b.mechanism()).isEqualTo(MechanismType.HM);
    assertThat(c.mechanism()).isEqualTo(MechanismType.SW);
    assertThat(c.choice()).isEmpty();
    assertThat(d.mechanism()).isEqualTo(MechanismType.OGPM);
  }

  @Test
  void withoutAutoNothingChanges() {
    PrivacyConfig config = PrivacyConfig.parse("fields: [{name: a, min: 0, max: 1, epsilon: 1}]");
    assertThat(config.fields().get(0).mechanism()).isEqualTo(MechanismType.OGPM);
    assertThat(config.fields().get(0).choice()).isEmpty();
  }

  @Test
  void withFieldSamplingTheChoiceIsMadeAtTheEpsilonPerReportForTheFieldsOwnReports() {
    PrivacyConfig config =
        PrivacyConfig.parse(
            "mechanism: auto\nrecords-per-window: 1000\nsampling: {fields-per-record: 1}\n"
                + FIELDS);
    FieldSampling sampling = config.sampling().orElseThrow();
    for (FieldConfig f : config.fields()) {
      assertThat(f.epsilon()).isEqualTo(1 * sampling.scale());
      f.choice()
          .ifPresent(
              choice -> {
                assertThat(choice.recordsPerWindow()).isEqualTo(250);
                assertThat(f.mechanism())
                    .isEqualTo(
                        MechanismAdvisor.advise(f.spec(), choice.optimizeFor(), 250).choice());
              });
    }
  }

  @Test
  void theFingerprintIsThatOfTheChosenMechanism() {
    PrivacyConfig auto =
        PrivacyConfig.parse(
            "fields: [{name: b, min: 0, max: 1, epsilon: 1, mechanism: auto,"
                + " optimize-for: means}]");
    PrivacyConfig explicit =
        PrivacyConfig.parse("fields: [{name: b, min: 0, max: 1, epsilon: 1, mechanism: hm}]");
    PrivacyConfig other =
        PrivacyConfig.parse("fields: [{name: b, min: 0, max: 1, epsilon: 1, mechanism: pm}]");
    assertThat(ConfigFingerprint.of(auto)).isEqualTo(ConfigFingerprint.of(explicit));
    assertThat(ConfigFingerprint.of(auto)).isNotEqualTo(ConfigFingerprint.of(other));
  }
}
