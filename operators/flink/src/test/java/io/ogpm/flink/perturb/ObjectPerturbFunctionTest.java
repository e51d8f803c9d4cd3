package io.ogpm.flink.perturb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.Readings;
import io.ogpm.flink.Readings.Attitude;
import io.ogpm.flink.Readings.Reading;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The perturb operator of the user's own records (POJOs and Rows) in Flink's test harness: what it
 * releases (perturbed and passthrough fields only, every other field empty, nested records
 * included), what it dead-letters (the JSON path's reasons and messages, no value), what it counts.
 */
class ObjectPerturbFunctionTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final TypeInformation<Reading> READING = TypeInformation.of(Reading.class);

  /** Digits of the raw values that must never appear in a dead letter. */
  static final String MARKER = "7345612";

  static final class Run<O> {
    final List<O> out = new ArrayList<>();
    final List<DeadLetterRecord> dead = new ArrayList<>();
    final List<Long> deadTimes = new ArrayList<>();
    final CapturedMetrics metrics = new CapturedMetrics();
  }

  @SafeVarargs
  static <T, O> Run<O> run(ObjectPerturbFunction<T, O> function, T... records) throws Exception {
    return run(function, null, records);
  }

  /**
   * Runs records through the operator; {@code output} serializes its output (null: the harness
   * infers one).
   */
  @SafeVarargs
  static <T, O> Run<O> run(
      ObjectPerturbFunction<T, O> function, TypeInformation<O> output, T... records)
      throws Exception {
    Run<O> run = new Run<>();
    try (var h =
        new OneInputStreamOperatorTestHarness<>(
            new ProcessOperator<>(function), run.metrics.environment)) {
      if (output != null) {
        h.setup(output.createSerializer(new ExecutionConfig().getSerializerConfig()));
      }
      h.open();
      for (int i = 0; i < records.length; i++) {
        h.processElement(records[i], 10_000 + i);
      }
      run.out.addAll(h.extractOutputValues());
      var side = h.getSideOutput(DeadLetters.TAG);
      if (side != null) {
        for (StreamRecord<DeadLetterRecord> d : side) {
          run.dead.add(d.getValue());
          run.deadTimes.add(d.getValue().getTimestamp());
        }
      }
    }
    run.metrics.environment.close();
    return run;
  }

  static ObjectPerturbFunction<Reading, Reading> pojos(KeySource key) {
    return ObjectPerturbFunction.released(Readings.CONFIG, key, READING);
  }

  @Test
  void aPojoOutHoldsThePerturbedAndPassthroughFieldsOnly() throws Exception {
    Reading in = Readings.reading(1, 0.5, 1.0);
    Run<Reading> run = run(pojos(KeySource.none()), in);
    assertThat(run.out).hasSize(1);
    Reading out = run.out.get(0);
    assertThat(out).isNotSameAs(in);
    assertThat(out.accel).isBetween(-2.0, 2.0).isNotEqualTo(0.5);
    assertThat(out.attitude).isNotSameAs(in.attitude);
    assertThat(out.attitude.roll).isBetween(-Math.PI, Math.PI).isNotEqualTo(1.0);
    // Passthrough: copied.
    assertThat(out.id).isEqualTo("r1");
    assertThat(out.ts).isEqualTo(1_700_000_000_001L);
    assertThat(out.activity).isEqualTo("run");
    assertThat(out.attitude.pitch).isEqualTo(1.25);
    // Everything else empty, whatever the constructor sets: the user, private and primitive fields
    // too.
    assertThat(out.user).isNull();
    assertThat(out.name).isNull();
    assertThat(out.steps).isZero();
    assertThat(out.getLocation()).isNull();
    assertThat(out.attitude.yaw).isZero();
    assertThat(out.attitude.note).isNull();
    // The input is left as it was.
    assertThat(in.accel).isEqualTo(0.5);
    assertThat(in.name).isEqualTo("Name of user-1");
  }

  @Test
  void clampedValuesStayInTheDomainAndMissingPassthroughObjectsStayEmpty() throws Exception {
    Reading wrapped = Readings.reading(2, -1.0, 7.0);
    wrapped.attitude.pitch = null;
    Reading out = run(pojos(KeySource.none()), wrapped).out.get(0);
    assertThat(out.attitude.roll).isBetween(-Math.PI, Math.PI);
    assertThat(out.attitude.pitch).isNull();
  }

  /**
   * Refused records: the same reasons, fields and messages as JSON records, the record's timestamp,
   * no source, no value; each counted under its reason; released records counted with their cost.
   */
  @Test
  void refusedPojosAreDeadLetteredWithTheirReasonAndNoValue() throws Exception {
    Reading outOfRange = Readings.reading(1, 2.7345612, 1.0);
    Reading notFinite = Readings.reading(2, Double.NaN, 1.0);
    Reading noAttitude = Readings.reading(3, 0.5, 1.0);
    noAttitude.attitude = null;
    Reading noRoll = Readings.reading(4, 0.5, null);
    Reading infiniteRoll = Readings.reading(5, 0.5, Double.NEGATIVE_INFINITY);
    Reading noId = Readings.reading(6, 0.5, 1.0);
    noId.id = null;
    Reading noUser = Readings.reading(7, 0.5, 1.0);
    noUser.user = null;
    Reading good = Readings.reading(8, 0.5, 1.0);
    Run<Reading> run =
        run(
            pojos(KeySource.none()),
            outOfRange,
            notFinite,
            noAttitude,
            noRoll,
            infiniteRoll,
            noId,
            noUser,
            good);
    assertThat(run.out).hasSize(1);
    String[][] expected = {
      {"out-of-range", "accel", "the field is outside [-2.0, 2.0]"},
      {"not-a-number", "accel", "the field is not a finite number"},
      {"missing-field", "attitude.roll", "the field is missing or null"},
      {"missing-field", "attitude.roll", "the field is missing or null"},
      {"not-a-number", "attitude.roll", "the field is not a finite number"},
      {"missing-field", "id", "the id field is missing, null or not a string or integer"},
      {"missing-field", "user", "the user field is missing, null or not a string or integer"},
    };
    assertThat(run.dead).hasSize(expected.length);
    for (int i = 0; i < expected.length; i++) {
      DeadLetterRecord d = run.dead.get(i);
      String text = new String(d.getValue(), StandardCharsets.UTF_8);
      JsonNode json = JSON.readTree(text);
      assertThat(d.getReason()).isEqualTo(expected[i][0]);
      assertThat(json.get("reason").asText()).isEqualTo(expected[i][0]);
      assertThat(json.get("field").asText()).isEqualTo(expected[i][1]);
      assertThat(json.get("message").asText()).isEqualTo(expected[i][2]);
      assertThat(json.get("source").size()).isZero();
      assertThat(text).doesNotContain(MARKER, "Name of", "51.5", "r" + (i + 1), "user-");
      assertThat(d.getTimestamp()).isEqualTo(10_000 + i);
    }
    assertThat(run.metrics.count("reason", "out-of-range", "recordsDeadLettered")).isEqualTo(1);
    assertThat(run.metrics.count("reason", "not-a-number", "recordsDeadLettered")).isEqualTo(2);
    assertThat(run.metrics.count("reason", "missing-field", "recordsDeadLettered")).isEqualTo(4);
    assertThat(((Counter) run.metrics.operator.get("recordsPerturbed")).getCount()).isEqualTo(1);
    assertThat(((Gauge<?>) run.metrics.operator.get("epsilonSpent")).getValue()).isEqualTo(2.0);
  }

  /**
   * Before a budget: (user, epsilon spent, record) triples, and the budget operator counts what it
   * releases.
   */
  @Test
  void beforeABudgetEachRecordTravelsWithItsUser() throws Exception {
    PrivacyConfig config =
        PrivacyConfig.parse(
            Readings.YAML + "budget: {epsilon: 4, period: 1d, clock: ingestion-time}\n");
    Run<Tuple3<String, Double, Reading>> run =
        run(
            ObjectPerturbFunction.forBudget(config, KeySource.none(), READING),
            Readings.reading(1, 0.5, 1.0),
            Readings.reading(2, 0.5, 1.0));
    assertThat(run.out).extracting(t -> t.f0).containsExactly("user-1", "user-2");
    assertThat(run.out)
        .extracting(t -> t.f1)
        .containsExactly(config.epsilonPerRecord(), config.epsilonPerRecord());
    assertThat(run.out).extracting(t -> t.f2.user).containsOnlyNulls();
    assertThat(run.out).extracting(t -> t.f2.id).containsExactly("r1", "r2");
    assertThat(run.metrics.operator.get("recordsPerturbed")).isNull();
    assertThat(run.metrics.operator.get("epsilonSpent")).isNull();
  }

  /**
   * With field sampling (1 of the 2 fields), a record carries NaN for the field it did not report,
   * and travels to the budget with what it spent: the reported field's epsilon, never the sum.
   */
  @Test
  void withFieldSamplingYourRecordsHoldNaNForUnreportedFieldsAndChargeWhatTheySpent()
      throws Exception {
    PrivacyConfig config =
        PrivacyConfig.parse(
            Readings.YAML
                + "sampling: {fields-per-record: 1}\nbudget: {epsilon: 400, period: 1d, clock: ingestion-time}\n");
    Reading[] in = new Reading[200];
    for (int i = 0; i < in.length; i++) {
      in[i] = Readings.reading(i, 0.5, 1.0);
    }
    Run<Tuple3<String, Double, Reading>> run =
        run(ObjectPerturbFunction.forBudget(config, KeySource.none(), READING), in);
    assertThat(run.out).hasSize(in.length);
    int accel = 0;
    for (Tuple3<String, Double, Reading> t : run.out) {
      boolean reportedAccel = !Double.isNaN(t.f2.accel);
      boolean reportedRoll = !Double.isNaN(t.f2.attitude.roll);
      assertThat(reportedAccel).as("exactly one field").isNotEqualTo(reportedRoll);
      // Both fields are configured at 1: the one reported is at 2 (less the scale's margin).
      assertThat(t.f1)
          .isEqualTo(config.epsilonPerRecord())
          .isLessThanOrEqualTo(2.0)
          .isGreaterThan(1.999);
      accel += reportedAccel ? 1 : 0;
    }
    // Each field half the time: 100 of 200, within 4 standard deviations (sd = sqrt(200 / 4) =
    // 7.1).
    assertThat(accel).isBetween(100 - 29, 100 + 29);
  }

  /**
   * Keyed randomness: a replayed record gets the same output, by any subtask; another id does not.
   */
  @Test
  void keyedRandomnessReplaysPojosExactly(@TempDir Path dir) throws Exception {
    Path key =
        Files.write(
            dir.resolve("key"),
            "object perturb test key, 32 B...".getBytes(StandardCharsets.US_ASCII));
    Reading first = run(pojos(KeySource.file(key)), Readings.reading(1, 0.5, 1.0)).out.get(0);
    Reading replay = run(pojos(KeySource.file(key)), Readings.reading(1, 0.5, 1.0)).out.get(0);
    Reading other = Readings.reading(1, 0.5, 1.0);
    other.id = "r1b";
    Reading otherOut = run(pojos(KeySource.file(key)), other).out.get(0);
    assertThat(replay.accel).isEqualTo(first.accel);
    assertThat(replay.attitude.roll).isEqualTo(first.attitude.roll);
    assertThat(otherOut.accel).isNotEqualTo(first.accel);
  }

  static ObjectPerturbFunction<Row, Row> rows() {
    return ObjectPerturbFunction.released(Readings.CONFIG, KeySource.none(), Readings.ROW);
  }

  @Test
  void aRowOutHoldsThePerturbedAndPassthroughFieldsOnlyWithTheRowsKind() throws Exception {
    Row in = Readings.row(3, 0.5, 1.0);
    in.setKind(RowKind.UPDATE_AFTER);
    Row out = run(rows(), Readings.ROW, in).out.get(0);
    assertThat(out.getKind()).isEqualTo(RowKind.UPDATE_AFTER);
    assertThat(out.getArity()).isEqualTo(7);
    assertThat(out.getField(0)).isEqualTo(3L);
    assertThat(out.getField(1)).isNull();
    assertThat(out.getField(2)).isEqualTo(1_700_000_000_003L);
    assertThat(out.getField(3)).isEqualTo("run");
    assertThat((Double) out.getField(4)).isBetween(-2.0, 2.0).isNotEqualTo(0.5);
    assertThat(out.getField(6)).isNull();
    Row attitude = (Row) out.getField(5);
    assertThat((Double) attitude.getField(0)).isBetween(-Math.PI, Math.PI).isNotEqualTo(1.0);
    assertThat(attitude.getField(1)).isEqualTo(3.25);
    assertThat(attitude.getField(2)).isNull();
    assertThat(out.getFieldNames(false)).as("positions in, positions out").isNull();
  }

  /** A Row in name-based mode: read by name, and the output has the names it holds, no others. */
  @Test
  void aNamedRowGivesANamedRowOfTheConfiguredNames() throws Exception {
    Row in = Row.withNames();
    in.setField("id", 4L);
    in.setField("user", "user-1");
    in.setField("ts", 5L);
    in.setField("accel", 0.5);
    in.setField("name", "Name 4");
    Row attitude = Row.withNames();
    attitude.setField("roll", 1.0);
    attitude.setField("yaw", 0.75);
    in.setField("attitude", attitude);
    Row out = run(rows(), Readings.ROW, in).out.get(0);
    assertThat(out.getFieldNames(false))
        .containsExactlyInAnyOrder("id", "ts", "activity", "accel", "attitude");
    assertThat(out.getField("activity")).isNull();
    assertThat((Double) out.getField("accel")).isBetween(-2.0, 2.0);
    Row a = (Row) out.getField("attitude");
    assertThat(a.getFieldNames(false)).containsExactlyInAnyOrder("roll", "pitch");
    assertThat(a.getField("pitch")).isNull();
  }

  @Test
  void refusedRowsAreDeadLettered() throws Exception {
    Row noAttitude = Readings.row(1, 0.5, 1.0);
    noAttitude.setField(5, null);
    Row noAccel = Readings.row(2, null, 1.0);
    Run<Row> run = run(rows(), Readings.ROW, noAttitude, noAccel, Readings.row(3, 0.5, 1.0));
    assertThat(run.out).hasSize(1);
    assertThat(run.dead)
        .extracting(d -> JSON.readTree(d.getValue()).get("field").asText())
        .containsExactly("attitude.roll", "accel");
    assertThat(Set.copyOf(run.dead.stream().map(DeadLetterRecord::getReason).toList()))
        .containsExactly("missing-field");
  }

  /**
   * Integer ids are ids like strings; a long id and the same digits as a string are different keyed
   * ids.
   */
  @Test
  void integerIdsAreTypedIdentifiers() {
    assertThat(RecordShape.identifier(5L))
        .isEqualTo(io.ogpm.mechanism.random.Identifier.integer(5));
    assertThat(RecordShape.identifier(5)).isEqualTo(io.ogpm.mechanism.random.Identifier.integer(5));
    assertThat(RecordShape.identifier((short) 5))
        .isEqualTo(io.ogpm.mechanism.random.Identifier.integer(5));
    assertThat(RecordShape.identifier(new java.math.BigInteger("18446744073709551621")))
        .isEqualTo(
            io.ogpm.mechanism.random.Identifier.integer(
                new java.math.BigInteger("18446744073709551621")));
    assertThat(RecordShape.identifier("5"))
        .isEqualTo(io.ogpm.mechanism.random.Identifier.string("5"))
        .isNotEqualTo(RecordShape.identifier(5L));
    assertThat(RecordShape.identifier(null)).isNull();
    assertThat(RecordShape.identifier(new Attitude())).isNull();
  }
}
