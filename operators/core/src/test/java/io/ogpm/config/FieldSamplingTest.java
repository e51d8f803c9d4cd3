package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code sampling: {fields-per-record: K}}: K and the epsilon of a report, never more spent than
 * configured whichever units are chosen, {@code auto}'s choice from the errors it states, polar
 * pairs as one unit, the fingerprint, and one-line errors naming the value.
 */
class FieldSamplingTest {
  /** Six fields as the sample's: five at 1 and one at 0.5, 5.5 in all. */
  static final String SIX =
      """
      fields:
        - {name: a.x, min: -3, max: 3, epsilon: 1}
        - {name: a.y, min: -3, max: 3, epsilon: 1}
        - {name: a.z, min: -3, max: 3, epsilon: 1}
        - {name: roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 1}
        - {name: pitch, min: -1.5707963267948966, max: 1.5707963267948966, epsilon: 0.5}
        - {name: yaw, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 1}
      """;

  static PrivacyConfig sampled(String fields, String k) {
    return PrivacyConfig.parse(fields + "sampling: {fields-per-record: " + k + "}\n");
  }

  @Test
  void eachReportedFieldTakesTheBudgetOfTheFieldsLeftOut() {
    PrivacyConfig c = sampled(SIX, "2");
    FieldSampling s = c.sampling().orElseThrow();
    assertThat(s.fieldsPerRecord()).isEqualTo(2);
    assertThat(s.units()).isEqualTo(6);
    assertThat(s.isAuto()).isFalse();
    // The two largest units have 1 each: a report of either is at 5.5 / 2 (less the margin).
    assertThat(s.scale())
        .isCloseTo(2.75, org.assertj.core.data.Offset.offset(1e-9))
        .isLessThan(2.75);
    assertThat(c.fields().get(0).epsilon()).isEqualTo(1 * s.scale());
    assertThat(c.fields().get(4).epsilon()).isEqualTo(0.5 * s.scale());
    assertThat(c.epsilonPerRecord())
        .isLessThanOrEqualTo(5.5)
        .isCloseTo(5.5, org.assertj.core.data.Offset.offset(1e-9));
  }

  /**
   * Every choice of K units, summed in configuration order as the record path sums them, is at most
   * the configured epsilon.
   */
  @ParameterizedTest
  @CsvSource({"1", "2", "3", "4", "5"})
  void noChoiceSpendsMoreThanConfigured(int k) {
    String odd =
        """
        fields:
          - {name: f1, min: 0, max: 1, epsilon: 0.1}
          - {name: f2, min: 0, max: 1, epsilon: 0.7}
          - {name: f3, min: 0, max: 1, epsilon: 0.3}
          - {name: f4, min: 0, max: 1, epsilon: 1.1}
          - {name: f5, min: 0, max: 1, epsilon: 0.2}
          - {name: f6, min: 0, max: 1, epsilon: 0.9}
        """;
    PrivacyConfig plain = PrivacyConfig.parse(odd);
    PrivacyConfig c = sampled(odd, Integer.toString(k));
    double configured = plain.epsilonPerRecord();
    double most = 0;
    for (List<Integer> choice : choices(6, k)) {
      double spent = 0;
      for (int i = 0; i < 6; i++) {
        if (choice.contains(i)) {
          spent += c.fields().get(i).epsilon();
        }
      }
      assertThat(spent).as("k %s choice %s", k, choice).isLessThanOrEqualTo(configured);
      most = Math.max(most, spent);
    }
    // The costliest choice spends what the configuration does, less the margin; so does
    // epsilonPerRecord.
    assertThat(most).isGreaterThan(configured * (1 - 1e-9));
    assertThat(c.epsilonPerRecord())
        .isLessThanOrEqualTo(configured)
        .isGreaterThan(configured * (1 - 1e-9));
    // Relative weights are kept.
    assertThat(c.fields().get(3).epsilon() / c.fields().get(0).epsilon())
        .isCloseTo(11, org.assertj.core.data.Offset.offset(1e-9));
  }

  private static List<List<Integer>> choices(int d, int k) {
    List<List<Integer>> out = new ArrayList<>();
    for (int mask = 0; mask < 1 << d; mask++) {
      if (Integer.bitCount(mask) == k) {
        List<Integer> c = new ArrayList<>();
        for (int i = 0; i < d; i++) {
          if ((mask & 1 << i) != 0) {
            c.add(i);
          }
        }
        out.add(c);
      }
    }
    return out;
  }

  @Test
  void reportingEveryFieldIsNoSampling() {
    PrivacyConfig all = sampled(SIX, "6");
    PrivacyConfig plain = PrivacyConfig.parse(SIX);
    assertThat(all.sampling().orElseThrow().samples()).isFalse();
    assertThat(all.fields()).isEqualTo(plain.fields());
    assertThat(all.epsilonPerRecord()).isEqualTo(plain.epsilonPerRecord());
    assertThat(ConfigFingerprint.of(all)).isEqualTo(ConfigFingerprint.of(plain));
  }

  /** A field's reports among n records: ceil(n K / d), at least one; all n without sampling. */
  @Test
  void aFieldReportsInKOfTheUnitsRecords() {
    FieldSampling two = sampled(SIX, "2").sampling().orElseThrow();
    assertThat(two.reportsAmong(6)).isEqualTo(2);
    assertThat(two.reportsAmong(7)).isEqualTo(3);
    assertThat(two.reportsAmong(1)).isEqualTo(1);
    assertThat(two.reportsAmong(3000)).isEqualTo(1000);
    assertThat(sampled(SIX, "6").sampling().orElseThrow().reportsAmong(7)).isEqualTo(7);
  }

  @Test
  void theFingerprintTellsSampledRecordsFromOthers() {
    ConfigFingerprint plain = ConfigFingerprint.of(PrivacyConfig.parse(SIX));
    ConfigFingerprint two = ConfigFingerprint.of(sampled(SIX, "2"));
    ConfigFingerprint three = ConfigFingerprint.of(sampled(SIX, "3"));
    assertThat(two).isNotEqualTo(plain).isNotEqualTo(three);
    assertThat(ConfigFingerprint.of(sampled(SIX, "2"))).isEqualTo(two);
    // The same fields at the reported epsilons, without the sampling: still not the sampled
    // records' meaning.
    assertThat(ConfigFingerprint.of(sampled(SIX, "2").fields())).isNotEqualTo(two);
  }

  /**
   * auto: the K whose variance is nearest the best K's whatever the inputs' spread, as the line
   * states it. For the sample's six fields it reports one at a time, at every record epsilon (the
   * noise of a split epsilon costs far more than the records left out cost evenly spread inputs;
   * MotionSense agrees: docs/field-sampling.md); with one field configured far above the others,
   * sampling would report the others at barely more epsilon, so it reports every field.
   */
  @Test
  void autoChoosesTheKNearestTheBestForEverySpreadOfTheInputs() {
    PrivacyConfig c = sampled(SIX, "auto");
    FieldSampling s = c.sampling().orElseThrow();
    assertThat(s.isAuto()).isTrue();
    assertThat(s.fieldsPerRecord()).isEqualTo(1);
    assertThat(s.describe())
        .startsWith("sampling: each record reports " + s.fieldsPerRecord() + " of its 6 fields,")
        .contains(
            "(auto: the K whose fields' means are nearest the best K's whatever the spread of the inputs; by K,"
                + " their variance at most times the best's: 1 x");
    assertThat(leastDescribed(s)).isEqualTo(s.fieldsPerRecord());
    for (String eps : new String[] {"0.05", "3"}) {
      String scaled =
          SIX.replace("epsilon: 1}", "epsilon: " + eps + "}")
              .replace("epsilon: 0.5}", "epsilon: " + eps + "}");
      assertThat(sampled(scaled, "auto").sampling().orElseThrow().fieldsPerRecord())
          .as("at %s each", eps)
          .isEqualTo(1);
    }
    // At 4 each, one field per record would get 24, beyond the 20 OGPM is offered at: auto offers
    // only K's that stay within it, and a K that does not is an error naming the field.
    String four = SIX.replace("epsilon: 1}", "epsilon: 4}").replace("epsilon: 0.5}", "epsilon: 4}");
    FieldSampling high = sampled(four, "auto").sampling().orElseThrow();
    assertThat(high.fieldsPerRecord()).isBetween(2, 6);
    assertThat(high.describe()).contains("1 - 2 x");
    assertThatThrownBy(() -> sampled(four, "1"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "sampling: fields-per-record 1 would report field 'a.x' at epsilon 23.999999999978172, above the"
                + " 20.0 its mechanism is offered at; report more fields per record or configure smaller"
                + " epsilons");
    String lopsided = SIX.replace("epsilon: 0.5}", "epsilon: 10}");
    FieldSampling all = sampled(lopsided, "auto").sampling().orElseThrow();
    assertThat(all.fieldsPerRecord()).isEqualTo(6);
    assertThat(leastDescribed(all)).isEqualTo(all.fieldsPerRecord());
  }

  /**
   * The worst ratio is at an end of the spreads: checked against a fine grid of spreads, for random
   * sets of lines shaped as the variances are (more noise where fewer records are left out).
   */
  @Test
  void theWorstRatiosAreAtTheEndsOfTheSpreads() {
    // K=1: 1 + 2P, K=2: 2 + P, K=3: 3 (P from 0 to 2). K=1 at P=2: 5 / 3; K=2 at P=0: 2 / 1; K=3 at
    // P=0: 3.
    assertThat(FieldSampling.worstRatios(new double[] {1, 2, 3}, new double[] {2, 1, 0}, 2))
        .containsExactly(5.0 / 3, 2.0, 3.0);
    java.util.Random random = new java.util.Random(7);
    for (int trial = 0; trial < 200; trial++) {
      int n = 2 + random.nextInt(5);
      double[] noise = new double[n];
      double[] left = new double[n];
      for (int k = 0; k < n; k++) {
        noise[k] = (k == 0 ? 0 : noise[k - 1]) + 0.01 + random.nextDouble();
        left[k] = n - 1 - k + random.nextDouble() * 0.5 * (k < n - 1 ? 1 : 0);
      }
      double most = 0.01 + random.nextDouble() * 3;
      double[] worst = FieldSampling.worstRatios(noise, left, most);
      for (int i = 0; i <= 1000; i++) {
        double p = most * i / 1000;
        double least = Double.POSITIVE_INFINITY;
        for (int k = 0; k < n; k++) {
          least = Math.min(least, noise[k] + left[k] * p);
        }
        for (int k = 0; k < n; k++) {
          assertThat((noise[k] + left[k] * p) / least)
              .as("trial %d, K=%d at P=%s", trial, k + 1, p)
              .isLessThanOrEqualTo(worst[k] * (1 + 1e-12));
        }
      }
    }
  }

  /**
   * A value object: equal when the same K is drawn the same way from the same units at the same
   * scale.
   */
  @Test
  void samplingsAreValueObjects() {
    FieldSampling a = sampled(SIX, "2").sampling().orElseThrow();
    FieldSampling b = sampled(SIX, "2").sampling().orElseThrow();
    FieldSampling c = sampled(SIX, "3").sampling().orElseThrow();
    FieldSampling auto = sampled(SIX, "auto").sampling().orElseThrow();
    FieldSampling one = sampled(SIX, "1").sampling().orElseThrow();
    assertThat(a)
        .isEqualTo(b)
        .hasSameHashCodeAs(b)
        .isNotEqualTo(c)
        .isNotEqualTo(null)
        .isNotEqualTo("2");
    assertThat(auto).as("auto and its K differ in how K was chosen").isNotEqualTo(one);
    assertThat(a).hasToString("sampling{fields-per-record=2 of 6, scale=" + a.scale() + "}");
    assertThat(auto.toString()).startsWith("sampling{fields-per-record=auto:1 of 6, scale=");
  }

  /** The K whose error, as the start-up line gives it, is least. */
  private static int leastDescribed(FieldSampling s) {
    String described = s.describe();
    String[] byK =
        described
            .substring(described.indexOf("the best's: ") + 12, described.length() - 1)
            .split(" ");
    double least = Double.POSITIVE_INFINITY;
    int best = 0;
    for (int i = 0; i < byK.length; i += 2) {
      if (byK[i + 1].equals("-")) {
        continue;
      }
      double e = Double.parseDouble(byK[i + 1].substring(1));
      if (e < least) {
        least = e;
        best = Integer.parseInt(byK[i]);
      }
    }
    return best;
  }

  @Test
  void aPolarPairIsOneUnit() {
    String polar =
        """
        fields:
          - {name: speed, min: 0, max: 10, epsilon: 1}
          - domain: polar
            radius: {name: target.distance, max: 1}
            angle: {name: target.bearing, min: 0, max: 360}
            epsilon: 7.283
        sampling: {fields-per-record: 1}
        """;
    PrivacyConfig c = PrivacyConfig.parse(polar);
    FieldSampling s = c.sampling().orElseThrow();
    assertThat(c.fields()).hasSize(3);
    assertThat(s.units()).isEqualTo(2);
    assertThat(s.unitOf(1)).isEqualTo(s.unitOf(2)).isNotEqualTo(s.unitOf(0));
    // The pair (7.283) is the costlier unit: a report of it spends the configured 8.283.
    assertThat(c.fields().get(1).epsilon() + c.fields().get(2).epsilon())
        .isLessThanOrEqualTo(8.283)
        .isGreaterThan(8.283 * (1 - 1e-9));
    assertThatThrownBy(
            () ->
                PrivacyConfig.parse(polar.replace("fields-per-record: 1", "fields-per-record: 3")))
        .hasMessage(
            "sampling: fields-per-record must be a whole number from 1 to 2 (the configuration's fields,"
                + " a polar pair counting as one) or auto, got 3");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0|sampling: fields-per-record must be a whole number from 1 to 6 (the configuration's fields, a polar pair counting as one) or auto, got 0",
        "7|sampling: fields-per-record must be a whole number from 1 to 6 (the configuration's fields, a polar pair counting as one) or auto, got 7",
        "-1|sampling: fields-per-record must be a whole number from 1 to 6 (the configuration's fields, a polar pair counting as one) or auto, got -1",
        "2.5|sampling: fields-per-record must be a whole number of fields or auto, got 2.5",
        "two|sampling: fields-per-record must be a whole number of fields or auto, got 'two'",
        "AUTO|sampling: fields-per-record must be a whole number of fields or auto, got 'AUTO'",
        "[1]|sampling: fields-per-record must be a whole number of fields or auto, got a list",
        "99999999999|sampling: fields-per-record must be a whole number of fields or auto, got 99999999999"
      })
  void aBadNumberOfFieldsIsOneLineNamingIt(String k, String message) {
    assertThatThrownBy(() -> sampled(SIX, k))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  @Test
  void theSamplingMappingIsChecked() {
    assertThatThrownBy(() -> PrivacyConfig.parse(SIX + "sampling: {}\n"))
        .hasMessage("sampling: fields-per-record is required (a whole number of fields, or auto)");
    assertThatThrownBy(
            () -> PrivacyConfig.parse(SIX + "sampling: {fields-per-record: 2, seed: 1}\n"))
        .hasMessage("unknown key 'seed' in sampling (known keys: fields-per-record)");
    assertThatThrownBy(() -> PrivacyConfig.parse(SIX + "sampling: 2\n"))
        .hasMessage("sampling must be a mapping, got 2");
  }

  /**
   * The budget must allow one record at its costliest: the configured epsilon, as without sampling.
   */
  @Test
  void theBudgetIsCheckedAgainstTheCostliestRecord() {
    String withBudget = "user-field: user\n" + SIX + "budget: {epsilon: 5, period: P1D}\n";
    assertThatThrownBy(() -> PrivacyConfig.parse(withBudget + "sampling: {fields-per-record: 2}\n"))
        .hasMessageStartingWith("budget: epsilon 5.0 is less than the epsilon per record 5.49999");
  }
}
