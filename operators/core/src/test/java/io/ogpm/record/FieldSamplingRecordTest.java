package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Field sampling on the record path: each record reports K of its units, the others left out of its
 * output; it spends the reported fields' epsilons and never more than configured; the units are
 * chosen uniformly and independently of the values (in keyed mode from the id and user alone, so a
 * replay reports the same fields with the same values); and a record is refused or not whichever
 * fields would be chosen.
 */
class FieldSamplingRecordTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String FIELDS =
      """
      id-field: id
      user-field: user
      passthrough: [id]
      fields:
        - {name: a.x, min: 0, max: 1, epsilon: 1}
        - {name: a.y, min: 0, max: 1, epsilon: 1}
        - {name: b, min: 0, max: 1, epsilon: 0.5}
        - domain: polar
          radius: {name: p.r, max: 1}
          angle: {name: p.theta, min: 0, max: 360}
          epsilon: 7.283185307179586
      """;
  static final PrivacyConfig TWO =
      PrivacyConfig.parse(FIELDS + "sampling: {fields-per-record: 2}\n");

  /** The units, by the names of their fields in the output. */
  static final List<List<String>> UNITS =
      List.of(List.of("a.x"), List.of("a.y"), List.of("b"), List.of("p.r", "p.theta"));

  static byte[] record(int id, double x) {
    return ("{\"id\":\"r"
            + id
            + "\",\"user\":\"u"
            + id % 7
            + "\",\"a\":{\"x\":"
            + x
            + ",\"y\":0.5},\"b\":0.25,"
            + "\"p\":{\"r\":0.5,\"theta\":90}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Which units a perturbed output reports: every field of a unit or none, never a part of a pair.
   */
  static List<Integer> reportedUnits(byte[] output) throws Exception {
    JsonNode o = JSON.readTree(output);
    List<Integer> units = new ArrayList<>();
    for (int u = 0; u < UNITS.size(); u++) {
      int present = 0;
      for (String name : UNITS.get(u)) {
        JsonNode v = o;
        for (String key : name.split("\\.")) {
          v = v.path(key);
        }
        present += v.isNumber() ? 1 : 0;
      }
      assertThat(present)
          .as("unit %s of %s", UNITS.get(u), new String(output, StandardCharsets.UTF_8))
          .isIn(0, UNITS.get(u).size());
      if (present > 0) {
        units.add(u);
      }
    }
    return units;
  }

  @Test
  void eachRecordReportsKUnitsAndSpendsTheirEpsilons() throws Exception {
    PrivacyConfig plain = PrivacyConfig.parse(FIELDS);
    RecordPerturber p = new RecordPerturber(TWO, RandomnessMode.seeded(3));
    for (int i = 0; i < 500; i++) {
      Outcome.Perturbed out = (Outcome.Perturbed) p.perturb(record(i, 0.75), Source.line(i));
      List<Integer> units = reportedUnits(out.value());
      assertThat(units).hasSize(2);
      double spent = 0;
      for (int f = 0; f < TWO.fields().size(); f++) {
        int unit = TWO.sampling().orElseThrow().unitOf(f);
        if (units.contains(unit)) {
          spent += TWO.fields().get(f).epsilon();
        }
      }
      assertThat(out.epsilon()).isEqualTo(spent).isLessThanOrEqualTo(plain.epsilonPerRecord());
      // Nothing but the reported fields and the passthrough id: the unreported objects are left out
      // too.
      JsonNode o = JSON.readTree(out.value());
      assertThat(o.has("a")).isEqualTo(units.contains(0) || units.contains(1));
      assertThat(o.has("p")).isEqualTo(units.contains(3));
      assertThat(o.has("user")).isFalse();
    }
  }

  /**
   * Each of the 6 pairs of units about equally often: Pearson's chi-square over 6,000 records below
   * its 1e-6 quantile with 5 degrees of freedom (35.9); a plan choosing the same first unit twice
   * as often gives far more.
   */
  @Test
  void theUnitsAreChosenUniformly() throws Exception {
    RecordPerturber p = new RecordPerturber(TWO, RandomnessMode.seeded(5));
    Map<List<Integer>, Integer> pairs = new HashMap<>();
    int n = 6_000;
    for (int i = 0; i < n; i++) {
      Outcome.Perturbed out = (Outcome.Perturbed) p.perturb(record(i, 0.75), Source.line(i));
      pairs.merge(reportedUnits(out.value()), 1, Integer::sum);
    }
    assertThat(pairs).hasSize(6);
    double expected = n / 6.0;
    double chi2 = 0;
    for (int count : pairs.values()) {
      chi2 += (count - expected) * (count - expected) / expected;
    }
    assertThat(chi2).isLessThan(35.9);
  }

  /**
   * Keyed: a replay reports the same fields with the same values; another value of the same id and
   * user, the same fields.
   */
  @Test
  void keyedChoicesDependOnTheIdAndUserAlone() throws Exception {
    byte[] key = "field sampling test key, 32 B...".getBytes(StandardCharsets.US_ASCII);
    RecordPerturber first = new RecordPerturber(TWO, RandomnessMode.keyed(key));
    RecordPerturber second = new RecordPerturber(TWO, RandomnessMode.keyed(key));
    Map<List<Integer>, Integer> pairs = new HashMap<>();
    for (int i = 0; i < 600; i++) {
      byte[] a = ((Outcome.Perturbed) first.perturb(record(i, 0.75), Source.line(i))).value();
      byte[] replay = ((Outcome.Perturbed) second.perturb(record(i, 0.75), Source.line(i))).value();
      byte[] otherValue =
          ((Outcome.Perturbed) second.perturb(record(i, 0.125), Source.line(i))).value();
      assertThat(replay).isEqualTo(a);
      assertThat(reportedUnits(otherValue)).isEqualTo(reportedUnits(a));
      pairs.merge(reportedUnits(a), 1, Integer::sum);
    }
    // Ids choose different pairs: all six come up.
    assertThat(pairs).hasSize(6);
  }

  /** A missing or out-of-range field is refused whether or not it would have been reported. */
  @Test
  void whatIsRefusedDoesNotDependOnTheDraw() {
    RecordPerturber p = new RecordPerturber(TWO, RandomnessMode.seeded(7));
    for (int i = 0; i < 200; i++) {
      String missing =
          "{\"id\":\"r"
              + i
              + "\",\"user\":\"u\",\"a\":{\"x\":0.5,\"y\":0.5},\"p\":{\"r\":0.5,\"theta\":90}}";
      Outcome o = p.perturb(missing.getBytes(StandardCharsets.UTF_8), Source.line(i));
      assertThat(o).isInstanceOf(Outcome.Rejected.class);
      assertThat(((Outcome.Rejected) o).deadLetter().reason()).isEqualTo(ReasonCode.MISSING_FIELD);
      String outside =
          "{\"id\":\"r"
              + i
              + "\",\"user\":\"u\",\"a\":{\"x\":0.5,\"y\":0.5},\"b\":2,\"p\":{\"r\":0.5,\"theta\":90}}";
      o = p.perturb(outside.getBytes(StandardCharsets.UTF_8), Source.line(i));
      assertThat(((Outcome.Rejected) o).deadLetter().reason()).isEqualTo(ReasonCode.OUT_OF_RANGE);
    }
  }
}
