package io.ogpm.flink.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.kafka.PerturbedValuesDeserializerTest;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.junit.jupiter.api.Test;

/**
 * Records of another configuration are counted and skipped with one WARN line per distinct
 * fingerprint, which names both fingerprints and never echoes a header that is not one; a producer
 * writing ever new fingerprints gets 64 lines and one more saying the rest are not logged.
 */
class ConfigCheckTest {
  static final ConfigFingerprint OURS =
      ConfigFingerprint.of(PerturbedValuesDeserializerTest.CONFIG);

  final List<String> lines = new ArrayList<>();
  final CapturedMetrics.Group metrics = new CapturedMetrics.Group();
  final ConfigCheck check = new ConfigCheck(OURS, lines::add);

  long count(String reason) {
    return ((Counter) metrics.children.get("reason=" + reason).get("recordsSkipped")).getCount();
  }

  @Test
  void oneLinePerDistinctFingerprintAndEveryRecordCounted() {
    check.open(metrics);
    assertThat(check.accepts(OURS.value())).isTrue();
    for (int i = 0; i < 3; i++) {
      assertThat(check.accepts("v1:0000000000000001")).isFalse();
      assertThat(check.accepts("v1:0000000000000002")).isFalse();
      assertThat(check.accepts(null)).isFalse();
      assertThat(check.accepts("<script>alert(1)</script>")).isFalse();
      assertThat(check.accepts("v1:00000000000000zz")).isFalse();
    }
    assertThat(count(ConfigCheck.MISMATCH)).isEqualTo(12);
    assertThat(count(ConfigCheck.MISSING)).isEqualTo(3);
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0))
        .isEqualTo(
            "skipping perturbed records of configuration v1:0000000000000001, not the"
                + " aggregation's "
                + OURS.value()
                + ": their values mean something else (fields, domains, epsilon,"
                + " mechanisms or grid differ); counted in recordsSkipped{reason=config-mismatch}");
    assertThat(lines.get(1))
        .startsWith("skipping perturbed records of configuration v1:0000000000000002, not");
    assertThat(lines.get(2))
        .isEqualTo(
            "skipping perturbed records without the ogpm-config header (the aggregation's"
                + " configuration is "
                + OURS.value()
                + "): perturbed by an older job or written by another producer; counted"
                + " in recordsSkipped{reason=config-missing}");
    assertThat(lines.get(3))
        .startsWith("skipping perturbed records of configuration (an unreadable fingerprint), not");
    assertThat(String.join("\n", lines)).doesNotContain("script", "zz");
  }

  @Test
  void aFloodOfFingerprintsIsLoggedSixtyFourTimesAndOnceMore() {
    check.open(metrics);
    for (int i = 0; i < 1_000; i++) {
      check.accepts(String.format("v1:%016x", i + 1));
    }
    assertThat(lines).hasSize(ConfigCheck.MAX_LOGGED + 1);
    assertThat(lines.get(ConfigCheck.MAX_LOGGED))
        .isEqualTo(
            "more than 64 kinds of perturbed records of another"
                + " configuration: further ones are counted in recordsSkipped but not logged");
    assertThat(count(ConfigCheck.MISMATCH)).isEqualTo(1_000);
    check.accepts(null);
    assertThat(lines).hasSize(ConfigCheck.MAX_LOGGED + 1);
  }
}
