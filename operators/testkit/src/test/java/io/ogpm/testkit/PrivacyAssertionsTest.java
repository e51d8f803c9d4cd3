package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.kafka.PerturbedRecordSerializer;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The privacy contract's assertions on records written by the library's own perturber (what a job
 * writes to Kafka), then on the same records broken one way at a time: each break is caught, named
 * by its rule and coordinates, and never shows the value.
 */
class PrivacyAssertionsTest {
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      user-field: user
      passthrough: [id, meta.site]
      fields:
        - name: accel_x
          min: -2.0
          max: 2.0
          epsilon: 2.0
        - name: attitude.roll
          domain: circular
          min: -3.141592653589793
          max: 3.141592653589793
          epsilon: 1.0
      """);
  static final String[] GOOD = {
    "{\"id\":\"r1\",\"user\":\"alice\",\"accel_x\":0.731,\"attitude\":{\"roll\":-3.0,\"pitch\":0.25},"
        + "\"meta\":{\"site\":\"lab\",\"owner\":\"Alice Liddell\"}}",
    "{\"id\":2,\"user\":\"bob\",\"accel_x\":-1.25,\"attitude\":{\"roll\":1.5}}",
    "{\"id\":\"r3\",\"user\":\"carol\",\"accel_x\":2.0,\"attitude\":{\"roll\":0.0},\"name\":\"SECRET-NAME\"}",
  };
  static final String[] BAD = {
    "{\"id\":\"b1\",\"user\":\"dave\",\"accel_x\":7.654321,\"attitude\":{\"roll\":0.1}}", // out of
    // range
    "{\"id\":\"b2\",\"user\":\"erin\",\"accel_x\":\"LEAKY-STRING\",\"attitude\":{\"roll\":0.1}}", // not a number
    "{not json at all: 31337.5",
  };

  List<KafkaRecord> inputs;
  List<KafkaRecord> perturbed;
  List<KafkaRecord> dead;

  /** Inputs at raw-0@0.., the perturber's outputs as a job's sinks write them. */
  @BeforeEach
  void perturb() {
    RecordPerturber perturber = new RecordPerturber(CONFIG, RandomnessMode.seeded(7));
    inputs = new ArrayList<>();
    perturbed = new ArrayList<>();
    dead = new ArrayList<>();
    List<String> all = new ArrayList<>(List.of(GOOD));
    all.addAll(List.of(BAD));
    for (int i = 0; i < all.size(); i++) {
      byte[] value = all.get(i).getBytes(StandardCharsets.UTF_8);
      inputs.add(record("raw", i, null, value, Map.of()));
      Outcome o = perturber.perturb(value, Source.kafka("raw", 0, i));
      if (o instanceof Outcome.Perturbed p) {
        perturbed.add(
            record(
                "perturbed",
                perturbed.size(),
                p.key(),
                p.value(),
                Map.of(
                    PerturbedRecordSerializer.EPSILON_HEADER, Double.toString(p.epsilon()),
                    ConfigFingerprint.HEADER, ConfigFingerprint.of(CONFIG).value())));
      } else {
        dead.add(
            record(
                "dead",
                dead.size(),
                null,
                ((Outcome.Rejected) o)
                    .deadLetter()
                    .toJson()
                    .toString()
                    .getBytes(StandardCharsets.UTF_8),
                Map.of("ogpm-reason", ((Outcome.Rejected) o).deadLetter().reason().code())));
      }
    }
  }

  static KafkaRecord record(
      String topic, long offset, byte[] key, byte[] value, Map<String, String> headers) {
    return new KafkaRecord(topic, 0, offset, 1_767_225_600_000L, key, value, headers);
  }

  static KafkaRecord withValue(KafkaRecord r, UnaryOperator<String> change) {
    return new KafkaRecord(
        r.topic(),
        r.partition(),
        r.offset(),
        r.timestamp(),
        r.key(),
        change.apply(r.valueAsString()).getBytes(StandardCharsets.UTF_8),
        r.headers());
  }

  @Test
  void theLibrarysOwnOutputKeepsTheContract() {
    assertThat(perturbed).hasSize(3);
    assertThat(dead).hasSize(3);
    assertThatCode(() -> PrivacyAssertions.assertPrivacyContract(CONFIG, inputs, perturbed, dead))
        .doesNotThrowAnyException();
  }

  @Test
  void aLostInputIsNamedByItsCoordinates() {
    perturbed.remove(1);
    assertThatThrownBy(
            () -> PrivacyAssertions.assertEveryInputAccountedFor(CONFIG, inputs, perturbed, dead))
        .hasMessageContaining("every input accounted for: 2 violations")
        .hasMessageContaining("6 inputs but 2 perturbed + 3 dead-lettered = 5")
        .hasMessageContaining("input raw-0@1 neither perturbed nor dead-lettered");
  }

  @Test
  void anInputPerturbedTwiceIsCaught() {
    perturbed.add(perturbed.get(0));
    assertThatThrownBy(
            () -> PrivacyAssertions.assertEveryInputAccountedFor(CONFIG, inputs, perturbed, dead))
        .hasMessageContaining("6 inputs but 4 perturbed + 3 dead-lettered = 7")
        .hasMessageContaining(
            "perturbed record perturbed-0@0 has the id of no input left to perturb");
  }

  @Test
  void anInputBothPerturbedAndDeadLetteredIsCaught() {
    dead.add(withValue(dead.get(0), v -> v.replace("\"offset\":3", "\"offset\":0")));
    assertThatThrownBy(
            () -> PrivacyAssertions.assertEveryInputAccountedFor(CONFIG, inputs, perturbed, dead))
        .hasMessageContaining("6 inputs but 3 perturbed + 4 dead-lettered = 7")
        .hasMessageContaining(
            "perturbed record perturbed-0@0 has the id of no input left to perturb");
  }

  @Test
  void anInputDeadLetteredTwiceIsCaught() {
    dead.add(dead.get(1));
    assertThatThrownBy(
            () -> PrivacyAssertions.assertEveryInputAccountedFor(CONFIG, inputs, perturbed, dead))
        .hasMessageContaining("input raw-0@4 is dead-lettered more than once");
  }

  @Test
  void aDeadLetteredInputMayNotHaveBeenPerturbedAsWell() {
    // Consistent: r1 dead-lettered instead of perturbed (a job may reject what another accepts).
    dead.add(withValue(dead.get(0), v -> v.replace("\"offset\":3", "\"offset\":0")));
    perturbed.remove(0);
    assertThatCode(
            () -> PrivacyAssertions.assertEveryInputAccountedFor(CONFIG, inputs, perturbed, dead))
        .doesNotThrowAnyException();
  }

  @Test
  void aDeadLetterWithoutOrWithForeignCoordinatesIsCaught() {
    dead.set(
        0, withValue(dead.get(0), v -> v.replace("\"topic\":\"raw\"", "\"topic\":\"elsewhere\"")));
    dead.set(1, withValue(dead.get(1), v -> v.replaceAll(",\"source\":\\{[^}]*}", "")));
    assertThatThrownBy(
            () -> PrivacyAssertions.assertEveryInputAccountedFor(CONFIG, inputs, perturbed, dead))
        .hasMessageContaining("dead letter dead-0@0 names elsewhere-0@3, which is no input")
        .hasMessageContaining("dead letter dead-0@1 names no source topic, partition and offset")
        .hasMessageContaining("input raw-0@3 neither perturbed nor dead-lettered")
        .hasMessageContaining("input raw-0@4 neither perturbed nor dead-lettered");
    dead.set(2, withValue(dead.get(2), v -> v.replace("\"offset\":5", "\"offset\":3")));
    assertThatThrownBy(
            () -> PrivacyAssertions.assertEveryInputAccountedFor(CONFIG, inputs, perturbed, dead))
        .hasMessageContaining("input raw-0@5 has no readable id but is not dead-lettered");
  }

  @Test
  void anUndeclaredFieldAKeyOrAHeaderIsCaughtWithoutItsValue() {
    perturbed.set(0, withValue(perturbed.get(0), v -> v.replace("{", "{\"user\":\"alice\",")));
    perturbed.set(
        1, withValue(perturbed.get(1), v -> v.replace("\"roll\"", "\"pitch\":0.25,\"roll\"")));
    KafkaRecord r = perturbed.get(2);
    perturbed.set(
        2,
        new KafkaRecord(
            r.topic(),
            0,
            r.offset(),
            r.timestamp(),
            "carol".getBytes(StandardCharsets.UTF_8),
            r.value(),
            Map.of("owner", "carol")));
    assertThatThrownBy(() -> PrivacyAssertions.assertNoUndeclaredField(CONFIG, perturbed))
        .hasMessageContaining("perturbed record perturbed-0@0 has the undeclared field 'user'")
        .hasMessageContaining(
            "perturbed record perturbed-0@1 has the undeclared field 'attitude.pitch'")
        .hasMessageContaining(
            "perturbed record perturbed-0@2 has a key that is not its passed-through id")
        .hasMessageContaining("perturbed record perturbed-0@2 has the undeclared header 'owner'")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("alice", "0.25", "carol"));
  }

  @Test
  void aPassthroughObjectMayHoldAnythingButAPerturbedFieldMustBeANumber() {
    perturbed.set(
        0,
        withValue(perturbed.get(0), v -> v.replace("\"site\":\"lab\"", "\"site\":{\"room\":4}")));
    assertThatCode(() -> PrivacyAssertions.assertNoUndeclaredField(CONFIG, perturbed))
        .doesNotThrowAnyException();
    perturbed.set(
        1,
        withValue(
            perturbed.get(1), v -> v.replaceAll("\"accel_x\":[-0-9.E]+", "\"accel_x\":\"x\"")));
    perturbed.set(
        2,
        withValue(perturbed.get(2), v -> v.replaceAll("\"attitude\":\\{[^}]*}", "\"attitude\":7")));
    assertThatThrownBy(() -> PrivacyAssertions.assertNoUndeclaredField(CONFIG, perturbed))
        .hasMessageContaining("perturbed-0@1: field 'accel_x' is not a number")
        .hasMessageContaining(
            "perturbed-0@2: 'attitude' holds a value where only configured fields may be nested");
    perturbed.set(2, withValue(perturbed.get(2), v -> "[1,2]"));
    assertThatThrownBy(() -> PrivacyAssertions.assertNoUndeclaredField(CONFIG, perturbed))
        .hasMessageContaining("perturbed record perturbed-0@2 is not a JSON object");
  }

  @Test
  void aRawNumberOrStringInADeadLetterIsCaught() {
    dead.set(
        0,
        withValue(
            dead.get(0),
            v -> v.replace("the field is outside", "the field is 7.6543210, outside")));
    dead.set(
        1, withValue(dead.get(1), v -> v.replace("not a number", "not a number: LEAKY-STRING")));
    dead.set(
        2, withValue(dead.get(2), v -> v.replace("not valid JSON", "not valid JSON near 31337.5")));
    assertThatThrownBy(
            () -> PrivacyAssertions.assertDeadLettersCarryNoRawValue(CONFIG, inputs, dead))
        .hasMessageContaining("dead letters carry no raw value: 3 violations")
        .hasMessageContaining("dead letter dead-0@0 carries a number of an input")
        .hasMessageContaining("dead letter dead-0@1 carries a string of an input (1 word)")
        .hasMessageContaining("dead letter dead-0@2 carries a number of an input")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("7.654321", "LEAKY", "31337"));
  }

  @Test
  void anotherInputsValueOrAValueInAKeyOrHeaderLeaksToo() {
    KafkaRecord d = dead.get(0);
    dead.set(
        0,
        new KafkaRecord(
            d.topic(),
            0,
            d.offset(),
            d.timestamp(),
            "Alice Liddell".getBytes(StandardCharsets.UTF_8),
            d.value(),
            d.headers()));
    dead.set(
        1,
        withValue(
            dead.get(1), v -> v.replace("\"reason\"", "\"owner\":\"SECRET-NAME\",\"reason\"")));
    assertThatThrownBy(
            () -> PrivacyAssertions.assertDeadLettersCarryNoRawValue(CONFIG, inputs, dead))
        .hasMessageContaining("dead letter dead-0@0 carries a string of an input (2 words)")
        .hasMessageContaining("dead letter dead-0@1 carries a string of an input (1 word)");
  }

  @Test
  void whatADeadLetterSaysWithoutReadingAValueIsNoLeak() {
    // Inputs whose values are words and numbers of the messages and of the configuration: a
    // string "number", the domain end 2.0, the position 1 of a parse error, the field's name.
    List<String> lines =
        List.of(
            "{\"id\":\"w1\",\"user\":\"u\",\"accel_x\":\"number\",\"attitude\":{\"roll\":1}}",
            "{\"id\":\"w2\",\"user\":\"u\",\"accel_x\":2.5,\"attitude\":{\"roll\":2.0},\"note\":\"accel_x\"}",
            "{\"id\":1,\"user\":\"u\" \"accel_x\":1}");
    RecordPerturber perturber = new RecordPerturber(CONFIG, RandomnessMode.seeded(1));
    List<KafkaRecord> in = new ArrayList<>();
    List<KafkaRecord> letters = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      byte[] value = lines.get(i).getBytes(StandardCharsets.UTF_8);
      in.add(record("raw", i, null, value, Map.of()));
      Outcome.Rejected r = (Outcome.Rejected) perturber.perturb(value, Source.kafka("raw", 0, i));
      letters.add(
          record(
              "dead",
              i,
              null,
              r.deadLetter().toJson().toString().getBytes(StandardCharsets.UTF_8),
              Map.of()));
    }
    assertThat(letters.get(2).valueAsString()).contains("line 1, column");
    assertThatCode(() -> PrivacyAssertions.assertDeadLettersCarryNoRawValue(CONFIG, in, letters))
        .doesNotThrowAnyException();
  }

  @Test
  void aValueOffTheGridOrOutsideTheOutputDomainIsCaught() {
    Mechanism accel = MechanismCatalog.of(CONFIG.fields().get(0).spec());
    perturbed.set(
        0,
        withValue(
            perturbed.get(0), v -> v.replaceAll("\"accel_x\":[-0-9.E]+", "\"accel_x\":0.731")));
    perturbed.set(
        1,
        withValue(
            perturbed.get(1),
            v ->
                v.replaceAll(
                    "\"accel_x\":[-0-9.E]+",
                    "\"accel_x\":" + Math.nextUp(accel.valueOfCell(12345)))));
    perturbed.set(
        2,
        withValue(
            perturbed.get(2),
            v -> v.replaceAll("\"accel_x\":[-0-9.E]+", "\"accel_x\":" + (accel.outputHi() + 1))));
    assertThatThrownBy(() -> PrivacyAssertions.assertPerturbedValuesOnGrid(CONFIG, perturbed))
        .hasMessageContaining("perturbed values on the grid: 3 violations")
        .hasMessageContaining(
            "perturbed-0@0: field 'accel_x' is not the value of any cell of its output grid (32 bits)")
        .hasMessageContaining("perturbed-0@1: field 'accel_x' is not the value of any cell")
        .hasMessageContaining("perturbed-0@2: field 'accel_x' lies outside the output domain");
  }

  @Test
  void everyCellValueIsOnTheGridAndItsNeighboursAreNot() {
    for (var field : CONFIG.fields()) {
      Mechanism m = MechanismCatalog.of(field.spec());
      long last = (long) Math.ceil((m.outputHi() - m.domain().lo()) / m.cellWidth()) - 1;
      long first = (long) Math.floor((m.outputLo() - m.domain().lo()) / m.cellWidth());
      for (long k : new long[] {first, first + 1, 0, 1, 1L << 31, last - 1, last}) {
        double y = m.valueOfCell(k);
        assertThat(PrivacyAssertions.onGrid(m, y)).as("%s cell %d", field.name(), k).isTrue();
        if (y > m.outputLo()) {
          assertThat(PrivacyAssertions.onGrid(m, Math.nextDown(y)))
              .as("below cell %d", k)
              .isFalse();
        }
        if (Math.nextUp(y) < m.outputHi()) {
          assertThat(PrivacyAssertions.onGrid(m, Math.nextUp(y))).as("above cell %d", k).isFalse();
        }
      }
    }
  }

  @Test
  void aMissingPerturbedFieldIsCaught() {
    perturbed.set(
        0, withValue(perturbed.get(0), v -> v.replaceAll("\"attitude\":\\{[^}]*},?", "")));
    assertThatThrownBy(() -> PrivacyAssertions.assertPerturbedValuesOnGrid(CONFIG, perturbed))
        .hasMessageContaining("perturbed-0@0: field 'attitude.roll' is missing or not a number");
  }

  /** With field sampling a record reports K of its fields: the others are absent, not missing. */
  @Test
  void aSampledRecordReportsExactlyKFields() {
    PrivacyConfig sampled =
        PrivacyConfig.parse(
            """
            id-field: id
            sampling: {fields-per-record: 1}
            fields:
              - {name: a, min: 0, max: 1, epsilon: 1}
              - {name: b, min: 0, max: 1, epsilon: 1}
            """);
    RecordPerturber perturber = new RecordPerturber(sampled, RandomnessMode.seeded(3));
    List<KafkaRecord> out = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Outcome o =
          perturber.perturb(
              ("{\"id\":" + i + ",\"a\":0.25,\"b\":0.75}").getBytes(StandardCharsets.UTF_8),
              Source.kafka("raw", 0, i));
      out.add(record("perturbed", i, null, ((Outcome.Perturbed) o).value(), Map.of()));
    }
    PrivacyAssertions.assertPerturbedValuesOnGrid(sampled, out);
    out.set(3, withValue(out.get(3), v -> v.replaceAll("\"[ab]\":[-0-9.E]+,?", "")));
    assertThatThrownBy(() -> PrivacyAssertions.assertPerturbedValuesOnGrid(sampled, out))
        .hasMessageContaining(
            "perturbed-0@3 reports 0 of its units, not the 1 field sampling reports");
  }

  @Test
  void manyViolationsAreCountedAndTheFirstShown() {
    List<KafkaRecord> many = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      many.add(
          record("perturbed", i, null, "{\"x\":1}".getBytes(StandardCharsets.UTF_8), Map.of()));
    }
    assertThatThrownBy(() -> PrivacyAssertions.assertNoUndeclaredField(CONFIG, many))
        .hasMessageStartingWith("no undeclared field: 25 violations")
        .hasMessageContaining("perturbed-0@19 has the undeclared field 'x'")
        .hasMessageEndingWith("... and 5 more")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("perturbed-0@20 "));
  }

  /**
   * Hostile input (truncated JSON, wrong types, huge numbers and strings, deep nesting, invalid
   * UTF-8...) through the perturber keeps the contract, and the assertions find no false leak in
   * its dead letters; a dead letter that quotes a hostile value is caught.
   */
  @Test
  void hostileInputThroughThePerturberKeepsTheContract() {
    PrivacyConfig config = PrivacyConfig.parse(io.ogpm.record.HostileInputs.CONFIG_REJECT);
    RecordPerturber perturber = new RecordPerturber(config, RandomnessMode.seeded(3));
    List<KafkaRecord> in = new ArrayList<>();
    List<KafkaRecord> out = new ArrayList<>();
    List<KafkaRecord> letters = new ArrayList<>();
    List<byte[]> hostile = io.ogpm.record.HostileInputs.generate(13, 3_000);
    for (int i = 0; i < hostile.size(); i++) {
      in.add(record("raw", i, null, hostile.get(i), Map.of()));
      Outcome o = perturber.perturb(hostile.get(i), Source.kafka("raw", 0, i));
      if (o instanceof Outcome.Perturbed p) {
        out.add(record("out", out.size(), p.key(), p.value(), Map.of()));
      } else {
        letters.add(
            record(
                "dead",
                letters.size(),
                null,
                ((Outcome.Rejected) o)
                    .deadLetter()
                    .toJson()
                    .toString()
                    .getBytes(StandardCharsets.UTF_8),
                Map.of()));
      }
    }
    assertThat(out).isNotEmpty();
    assertThat(letters).isNotEmpty();
    assertThatCode(() -> PrivacyAssertions.assertPrivacyContract(config, in, out, letters))
        .doesNotThrowAnyException();
    letters.set(
        0,
        withValue(
            letters.get(0),
            v ->
                v.replace(
                    "\"message\":\"",
                    "\"message\":\"near " + io.ogpm.record.HostileInputs.MARKER + " ")));
    assertThatThrownBy(
            () -> PrivacyAssertions.assertDeadLettersCarryNoRawValue(config, in, letters))
        .hasMessageContaining("dead letter dead-0@0 carries");
  }
}
