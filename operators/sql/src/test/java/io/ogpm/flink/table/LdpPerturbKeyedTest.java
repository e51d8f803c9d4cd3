package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.PerturbationPlan;
import io.ogpm.record.RecordValues;
import io.ogpm.record.Source;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LDP_PERTURB_KEYED: the DataStream operator's keyed PRF v2, output for output; replays repeat,
 * other records, fields and values draw independently; the key is read when the function opens,
 * from a file or variable the constructor or the job parameters name, never a fallback to unkeyed
 * randomness.
 */
class LdpPerturbKeyedTest {
  static final String SECRET = "a keyed sql function test secret";
  static final String FIELDS =
      """
      fields:
        - {name: accel_x, min: -2, max: 2, epsilon: 1}
        - {name: roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2, \
      mechanism: purkayastha}
      """;

  @TempDir Path dir;

  private LdpPerturbKeyed opened(TestMetrics metrics) throws Exception {
    Path key = dir.resolve("key");
    Files.writeString(key, SECRET + "\n", StandardCharsets.US_ASCII);
    LdpPerturbKeyed f = new LdpPerturbKeyed(KeySource.file(key));
    f.open(KeySource.file(key), metrics);
    return f;
  }

  @Test
  void givesTheDataStreamOperatorsOutputForTheSameRecordKeyAndField() throws Exception {
    LdpPerturbKeyed f = opened(new TestMetrics());
    AesCtrSource values = AesCtrSource.seeded(8);
    for (boolean stringIds : new boolean[] {false, true}) {
      PerturbationPlan plan =
          PerturbationPlan.compile(
              PrivacyConfig.parse("id-field: id\n" + FIELDS),
              RandomnessMode.keyed(SECRET.getBytes(StandardCharsets.US_ASCII)));
      RecordValues r = plan.newValues();
      for (int i = 0; i < 2_000; i++) {
        double x = -2 + 4 * values.nextUniform();
        double angle = -Math.PI + 2 * Math.PI * values.nextUniform();
        long id = values.nextLong();
        r.clear();
        r.id(stringIds ? Identifier.string("r-" + id) : Identifier.integer(id));
        r.number(0, x);
        r.number(1, angle);
        assertThat(plan.perturb(r, Source.line(i + 1))).isNull();
        Double accel =
            stringIds
                ? f.eval("r-" + id, "accel_x", x, -2.0, 2.0, 1.0)
                : f.eval(id, "accel_x", x, -2.0, 2.0, 1.0);
        Double roll =
            stringIds
                ? f.eval(
                    "r-" + id, "roll", angle, -Math.PI, Math.PI, 2.0, "circular", "purkayastha")
                : f.eval(
                    id, "roll", angle, -Math.PI, Math.PI, 2.0, "circular", "purkayastha", "l1");
        assertThat(accel).isEqualTo(r.output(0));
        assertThat(roll).isEqualTo(r.output(1));
      }
    }
  }

  @Test
  void aReplayRepeatsItsOutputAndAnythingElseDrawsAgain() throws Exception {
    LdpPerturbKeyed f = opened(new TestMetrics());
    int sameAsFirst = 0;
    int n = 400;
    Double first = f.eval(7L, "x", 0.5, 0.0, 1.0, 8.0);
    for (int i = 0; i < n; i++) {
      assertThat(f.eval(7L, "x", 0.5, 0.0, 1.0, 8.0)).isEqualTo(first);
    }
    // An integer id and the string of its digits are different records.
    assertThat(f.eval("7", "x", 0.5, 0.0, 1.0, 8.0, "classical")).isNotEqualTo(first);
    for (long id = 8; id < 8 + n; id++) {
      sameAsFirst += first.equals(f.eval(id, "x", 0.5, 0.0, 1.0, 8.0)) ? 1 : 0;
      sameAsFirst += first.equals(f.eval(7L, "x" + id, 0.5, 0.0, 1.0, 8.0)) ? 1 : 0;
      sameAsFirst += first.equals(f.eval(7L, "x", 0.5 + id * 1e-9, 0.0, 1.0, 8.0)) ? 1 : 0;
    }
    // One compiled mechanism per field and arguments: "x" (kept, used every other call), 400
    // others.
    assertThat(f.perturber.compilations()).isEqualTo(1 + n);
    // OGPM's density on [0, 1) is at most e^(eps/2) = e^4 and a grid cell 2^-32 wide: a cell has
    // probability below 1.3e-8, so 1,200 independent draws meet the first with probability < 2e-5.
    assertThat(sameAsFirst).isZero();
  }

  @Test
  void aNullRecordIdOrFieldGivesNullCounted() throws Exception {
    TestMetrics metrics = new TestMetrics();
    LdpPerturbKeyed f = opened(metrics);
    assertThat(f.eval((Long) null, "x", 0.5, 0.0, 1.0, 1.0)).isNull();
    assertThat(f.eval((String) null, "x", 0.5, 0.0, 1.0, 1.0)).isNull();
    assertThat(f.eval(1L, null, 0.5, 0.0, 1.0, 1.0)).isNull();
    assertThat(f.eval(1L, "x", 0.5, 1.0, 0.0, 1.0)).isNull();
    assertThat(f.eval(1L, "x", 2.0, 0.0, 1.0, 1.0)).isNull();
    assertThat(f.eval(1L, "x", null, 0.0, 1.0, 1.0)).isNull();
    assertThat(metrics.count("valuesRejected", "null-record-id")).isEqualTo(2);
    assertThat(metrics.count("valuesRejected", "invalid-argument")).isEqualTo(2);
    assertThat(metrics.count("valuesRejected", "out-of-range")).isEqualTo(1);
    assertThat(metrics.count("valuesRejected", "null-value")).isEqualTo(1);
    assertThat(f.eval(1L, "x", 0.5, 0.0, 1.0, 1.0)).isNotNull();
    assertThat(metrics.count("valuesPerturbed")).isEqualTo(1);
  }

  @Test
  void theKeyIsNamedByTheConstructorOrTheJobParametersNeverGuessed() {
    assertThat(LdpPerturbKeyed.fromJobParameters("/etc/ogpm/key", null))
        .hasToString("key file /etc/ogpm/key");
    assertThat(LdpPerturbKeyed.fromJobParameters(null, "OGPM_KEY")).hasToString("key in $OGPM_KEY");
    assertThatThrownBy(() -> LdpPerturbKeyed.fromJobParameters(null, null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "set the job parameter ogpm.key-file (a file) or ogpm.key-env (an environment variable)")
        .hasMessageContaining("SET 'pipeline.global-job-parameters' = 'ogpm.key-env:OGPM_KEY'");
    assertThatThrownBy(() -> LdpPerturbKeyed.fromJobParameters("/k", "K"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "LDP_PERTURB_KEYED: set one of the job parameters ogpm.key-file and ogpm.key-env, not both");
    assertThatThrownBy(() -> new LdpPerturbKeyed(KeySource.none()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "LDP_PERTURB_KEYED needs a key file or environment variable, got secure random");
    assertThatThrownBy(() -> new LdpPerturbKeyed(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aMissingOrWeakKeyFailsTheOpenNamingTheFileNotTheContent() throws Exception {
    LdpPerturbKeyed f = new LdpPerturbKeyed();
    Path missing = dir.resolve("absent");
    assertThatThrownBy(() -> f.open(KeySource.file(missing), new TestMetrics()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot read the key file " + missing);
    Path weak = dir.resolve("weak");
    Files.writeString(weak, "0".repeat(32));
    assertThatThrownBy(() -> f.open(KeySource.file(weak), new TestMetrics()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one byte value repeated 32 times")
        .hasMessageNotContaining("0000");
  }

  @Test
  void aPerturberWithoutAKeyRefusesKeyedCalls() {
    ValuePerturber p =
        ValuePerturber.withStream(AesCtrSource.seeded(1), FunctionMetrics.of(new TestMetrics()));
    assertThatThrownBy(
            () ->
                p.perturbKeyed(
                    Identifier.integer(1),
                    0.5,
                    p.keyedMechanismOf("x", 0.0, 1.0, 1.0, "classical", "ogpm", "l1")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("this perturber has no key");
  }
}
