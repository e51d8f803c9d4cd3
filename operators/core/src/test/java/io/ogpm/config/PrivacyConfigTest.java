package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.OutputGrid;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivacyConfigTest {
  /** The example of the project contract ("Field configuration (YAML)"), verbatim. */
  static final String CONTRACT_EXAMPLE =
      """
      id-field: id                 # optional; a unique record id (replay-safe randomness, dedup)
      user-field: user             # optional; whose privacy budget a record spends
      passthrough: [ts, activity]  # copied unchanged; every other input field is dropped
      fields:
        - name: accel_x            # dotted names address nested JSON objects
          domain: classical        # classical | circular
          min: -2.0
          max: 2.0
          epsilon: 1.0
          mechanism: ogpm          # optional, default ogpm
          objective: l1            # optional, l1 | l2
          out-of-range: reject     # reject (dead letter) | clamp
        - name: roll
          domain: circular
          min: -3.141592653589793
          max: 3.141592653589793
          epsilon: 2.0
      """;

  static final String MINIMAL =
      """
      fields:
        - name: attitude.roll
          min: 0
          max: 1
          epsilon: 0.5
      """;

  @Test
  void contractExampleParsesToItsValues() {
    PrivacyConfig c = PrivacyConfig.parse(CONTRACT_EXAMPLE);

    assertThat(c.idField()).contains("id");
    assertThat(c.userField()).contains("user");
    assertThat(c.passthrough()).containsExactly("ts", "activity");
    assertThat(c.gridBits()).isEqualTo(OutputGrid.DEFAULT_BITS);
    assertThat(c.budget()).isEmpty();
    assertThat(c.fields()).extracting(FieldConfig::name).containsExactly("accel_x", "roll");

    FieldConfig accel = c.fields().get(0);
    assertThat(accel.path()).containsExactly("accel_x");
    assertThat(accel.domain()).isEqualTo(Domain.classical(-2.0, 2.0));
    assertThat(accel.min()).isEqualTo(-2.0);
    assertThat(accel.max()).isEqualTo(2.0);
    assertThat(accel.epsilon()).isEqualTo(1.0);
    assertThat(accel.mechanism()).isEqualTo(MechanismType.OGPM);
    assertThat(accel.objective()).isEqualTo(Objective.L1);
    assertThat(accel.outOfRange()).isEqualTo(OutOfRange.REJECT);

    FieldConfig roll = c.fields().get(1);
    assertThat(roll.domain()).isEqualTo(Domain.circular(-Math.PI, Math.PI));
    assertThat(roll.epsilon()).isEqualTo(2.0);
  }

  @Test
  void omittedKeysTakeTheirDefaults() {
    PrivacyConfig c = PrivacyConfig.parse(MINIMAL);

    assertThat(c.idField()).isEmpty();
    assertThat(c.userField()).isEmpty();
    assertThat(c.passthrough()).isEmpty();
    assertThat(c.gridBits()).isEqualTo(32);
    assertThat(c.budget()).isEmpty();
    FieldConfig f = c.fields().get(0);
    assertThat(f.domain().kind()).isEqualTo(Domain.Kind.CLASSICAL);
    assertThat(f.mechanism()).isEqualTo(MechanismType.OGPM);
    assertThat(f.objective()).isEqualTo(Objective.L1);
    assertThat(f.outOfRange()).isEqualTo(OutOfRange.REJECT);
    assertThat(f.spec().gridBits()).isEqualTo(32);
  }

  @Test
  void emptyValuesAreLikeMissingKeys() {
    PrivacyConfig c =
        PrivacyConfig.parse(
            """
        id-field:
        passthrough:
        fields:
          - {name: a, min: 0, max: 1, epsilon: 1, mechanism: , out-of-range: ~}
        """);
    assertThat(c.idField()).isEmpty();
    assertThat(c.passthrough()).isEmpty();
    assertThat(c.fields().get(0).mechanism()).isEqualTo(MechanismType.OGPM);
    assertThat(c.fields().get(0).outOfRange()).isEqualTo(OutOfRange.REJECT);
  }

  @Test
  void dottedNamesSplitIntoPaths() {
    FieldConfig f = PrivacyConfig.parse(MINIMAL).fields().get(0);
    assertThat(f.name()).isEqualTo("attitude.roll");
    assertThat(f.path()).containsExactly("attitude", "roll");
  }

  @Test
  void everyKeyIsRead() {
    PrivacyConfig c =
        PrivacyConfig.parse(
            """
        user-field: device.owner
        grid-bits: 20
        budget: {epsilon: 10, period: 12h}
        fields:
          - {name: t, min: -40, max: 85, epsilon: 3, mechanism: staircase, objective: l2,
             out-of-range: clamp}
          - {name: h, domain: circular, min: 0, max: 360, epsilon: 1.5, mechanism: purkayastha}
        """);
    assertThat(c.gridBits()).isEqualTo(20);
    assertThat(c.budget()).contains(BudgetConfig.of(10, Duration.ofHours(12)));
    assertThat(
            PrivacyConfig.parse(
                    """
        user-field: u
        budget: {epsilon: 10, period: 12h, clock: log-append-time, max-lag: 3d}
        fields: [{name: t, min: 0, max: 1, epsilon: 1}]
        """)
                .budget())
        .contains(
            BudgetConfig.of(
                10, Duration.ofHours(12), BudgetClock.LOG_APPEND_TIME, Duration.ofDays(3)));
    assertThat(
            PrivacyConfig.parse(
                    """
        user-field: u
        budget: {epsilon: 10, period: 12h, clock: ingestion-time}
        fields: [{name: t, min: 0, max: 1, epsilon: 1}]
        """)
                .budget())
        .contains(BudgetConfig.of(10, Duration.ofHours(12), BudgetClock.INGESTION_TIME, null));
    FieldConfig t = c.field("t").orElseThrow();
    assertThat(t.mechanism()).isEqualTo(MechanismType.STAIRCASE);
    assertThat(t.objective()).isEqualTo(Objective.L2);
    assertThat(t.outOfRange()).isEqualTo(OutOfRange.CLAMP);
    assertThat(t.spec().gridBits()).isEqualTo(20);
    assertThat(c.field("h").orElseThrow().mechanism()).isEqualTo(MechanismType.PURKAYASTHA);
    assertThat(t.spec().optimizeAt()).isEmpty();
    assertThat(t.exceedances()).isEmpty();
    FieldConfig hot =
        PrivacyConfig.parse(
                "fields: [{name: t, min: -40, max: 85, epsilon: 1, exceedances: [-40, 30, 85]}]")
            .field("t")
            .orElseThrow();
    assertThat(hot.exceedances()).containsExactly(-40, 30, 85);
    assertThat(hot.toString()).endsWith(", exceedances [-40.0, 30.0, 85.0]");
    hot.exceedances()[0] = 0;
    assertThat(hot.exceedances()[0]).as("a copy").isEqualTo(-40);
    assertThat(
            PrivacyConfig.parse(
                    "fields: [{name: t, mechanism: auto, min: 0, max: 1, epsilon: 1,"
                        + " exceedances: [0.5]}]")
                .field("t")
                .orElseThrow()
                .exceedances())
        .as("kept when auto chooses the mechanism")
        .containsExactly(0.5);
    FieldConfig at =
        PrivacyConfig.parse("fields: [{name: a, min: -1, max: 3, epsilon: 1, optimize-at: 0.25}]")
            .field("a")
            .orElseThrow();
    assertThat(at.spec())
        .isEqualTo(
            MechanismSpec.builder()
                .domain(Domain.classical(-1, 3))
                .epsilon(1)
                .optimizeAt(0.25)
                .build());
  }

  @Test
  void epsilonPerRecordIsTheSumOfTheFieldEpsilons() {
    assertThat(PrivacyConfig.parse(CONTRACT_EXAMPLE).epsilonPerRecord()).isEqualTo(3.0);
    assertThat(PrivacyConfig.parse(MINIMAL).epsilonPerRecord()).isEqualTo(0.5);
  }

  @Test
  void aBudgetOfExactlyTheRecordCostIsAcceptedDespiteRounding() {
    PrivacyConfig c =
        PrivacyConfig.parse(
            """
        user-field: u
        budget: {epsilon: 0.3, period: 1d}
        fields:
          - {name: a, min: 0, max: 1, epsilon: 0.1}
          - {name: b, min: 0, max: 1, epsilon: 0.2}
        """);
    assertThat(c.epsilonPerRecord()).isGreaterThan(0.3); // 0.30000000000000004
    assertThat(c.budget()).map(BudgetConfig::epsilon).contains(0.3);
  }

  @Test
  void specIsTheHandBuiltSpec() {
    PrivacyConfig c = PrivacyConfig.parse(CONTRACT_EXAMPLE);
    MechanismSpec roll =
        MechanismSpec.builder()
            .type(MechanismType.OGPM)
            .domain(Domain.circular(-3.141592653589793, 3.141592653589793))
            .epsilon(2.0)
            .objective(Objective.L1)
            .gridBits(OutputGrid.DEFAULT_BITS)
            .build();
    assertThat(c.field("roll").orElseThrow().spec()).isEqualTo(roll);
    assertThat(c.field("accel_x").orElseThrow().spec())
        .isEqualTo(roll.toBuilder().domain(Domain.classical(-2, 2)).epsilon(1.0).build());
  }

  @Test
  void specCarriesTheTopLevelGridBits() {
    PrivacyConfig c = PrivacyConfig.parse("grid-bits: 12\n" + MINIMAL);
    assertThat(c.fields().get(0).spec())
        .isEqualTo(
            MechanismSpec.builder()
                .domain(Domain.classical(0, 1))
                .epsilon(0.5)
                .gridBits(12)
                .build());
  }

  @Test
  void fieldLookupByName() {
    PrivacyConfig c = PrivacyConfig.parse(CONTRACT_EXAMPLE);
    assertThat(c.field("roll")).map(FieldConfig::epsilon).contains(2.0);
    assertThat(c.field("ts")).isEmpty();
    assertThat(c.field("rol")).isEmpty();
  }

  @Test
  void javaSerializationRoundTripGivesAnEqualConfig() throws Exception {
    PrivacyConfig c =
        PrivacyConfig.parse(
            "budget: {epsilon: 5, period: P1D}\n"
                + CONTRACT_EXAMPLE.replace(
                    "epsilon: 2.0", "epsilon: 2.0\n    exceedances: [0, 1]"));

    PrivacyConfig copy = roundTrip(c);

    assertThat(copy).isNotSameAs(c).isEqualTo(c).hasSameHashCodeAs(c);
    assertThat(copy.fields().get(1).spec()).isEqualTo(c.fields().get(1).spec());
    assertThat(copy.budget()).isEqualTo(c.budget());
    assertThat(copy.fields().get(1).exceedances()).containsExactly(0, 1);
    assertThat(copy.toString()).isEqualTo(c.toString());
  }

  @Test
  void equalityDependsOnEveryPart() {
    PrivacyConfig c = PrivacyConfig.parse(CONTRACT_EXAMPLE);
    assertThat(PrivacyConfig.parse(CONTRACT_EXAMPLE)).isEqualTo(c).hasSameHashCodeAs(c);
    List<String> variants =
        List.of(
            CONTRACT_EXAMPLE.replace("id-field: id", "id-field: rid"),
            CONTRACT_EXAMPLE.replace("user-field: user", ""),
            CONTRACT_EXAMPLE.replace("[ts, activity]", "[activity, ts]"),
            CONTRACT_EXAMPLE.replace("epsilon: 2.0", "epsilon: 2.5"),
            CONTRACT_EXAMPLE.replace("out-of-range: reject", "out-of-range: clamp"),
            CONTRACT_EXAMPLE.replace("max: 2.0", "max: 2.5"),
            "grid-bits: 31\n" + CONTRACT_EXAMPLE,
            CONTRACT_EXAMPLE.replace("epsilon: 2.0", "epsilon: 2.0\n    exceedances: [0]"),
            "budget: {epsilon: 5, period: 1d}\n" + CONTRACT_EXAMPLE);
    for (String v : variants) {
      assertThat(PrivacyConfig.parse(v)).as(v).isNotEqualTo(c);
    }
  }

  @Test
  void listsAreImmutable() {
    PrivacyConfig c = PrivacyConfig.parse(CONTRACT_EXAMPLE);
    assertThatThrownBy(() -> c.fields().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> c.passthrough().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> c.fields().get(0).path().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void loadsAFile(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("privacy.yaml"), CONTRACT_EXAMPLE);
    assertThat(PrivacyConfig.load(file)).isEqualTo(PrivacyConfig.parse(CONTRACT_EXAMPLE));
  }

  @Test
  void aMissingFileIsAConfigError(@TempDir Path dir) {
    Path file = dir.resolve("nope.yaml");
    assertThatThrownBy(() -> PrivacyConfig.load(file))
        .isInstanceOf(ConfigException.class)
        .hasMessage("config file " + file + " does not exist");
  }

  @Test
  void builtInCodeLikeParsed() {
    MechanismSpec spec =
        MechanismSpec.builder().domain(Domain.classical(0, 1)).epsilon(0.5).build();
    PrivacyConfig built =
        PrivacyConfig.of(
            null,
            null,
            null,
            List.of(FieldConfig.of("attitude.roll", spec, OutOfRange.REJECT)),
            OutputGrid.DEFAULT_BITS,
            null);
    assertThat(built).isEqualTo(PrivacyConfig.parse(MINIMAL));
  }

  @Test
  void fieldsInCodeMustUseTheConfigGridBits() {
    MechanismSpec spec = MechanismSpec.builder().epsilon(1).gridBits(16).build();
    List<FieldConfig> fields = List.of(FieldConfig.of("x", spec, OutOfRange.CLAMP));
    assertThatThrownBy(() -> PrivacyConfig.of(null, null, List.of(), fields, 32, null))
        .isInstanceOf(ConfigException.class)
        .hasMessage("field 'x': grid-bits 16 differs from the configuration's 32");
  }

  @Test
  void fieldInCodeNeedsAName() {
    MechanismSpec spec = MechanismSpec.builder().epsilon(1).build();
    assertThatThrownBy(() -> FieldConfig.of(null, spec, OutOfRange.REJECT))
        .isInstanceOf(ConfigException.class)
        .hasMessage("field: name is required");
    assertThatThrownBy(() -> FieldConfig.of("a.", spec, OutOfRange.REJECT))
        .hasMessage(
            "field: name must be a dotted name with non-empty parts (like attitude.roll),"
                + " got 'a.'");
    assertThatThrownBy(() -> FieldConfig.of("a", null, OutOfRange.REJECT))
        .hasMessage("field 'a': spec must not be null");
  }

  @SuppressWarnings("unchecked")
  static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (T) in.readObject();
    }
  }
}
