package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubjectSpendTest {
  static final String FIELDS =
      "user-field: user\npassthrough: [ts]\nfields:\n"
          + "  - {name: x, min: 0, max: 1, epsilon: 2.5}\n"
          + "  - {name: y, min: 0, max: 1, epsilon: 3}\n";

  static String record(String user, long ts) {
    return "{\"user\":\"" + user + "\",\"ts\":" + ts + ",\"x\":0.5,\"y\":0.5}";
  }

  static final List<String> RELEASED =
      List.of(
          record("alice", 1_000),
          record("alice", 2_000),
          record("alice", 9_999),
          record("alice", 10_000),
          record("bob", 3_000),
          record("bob", 4_000),
          "{\"user\":\"carol\",\"x\":0.5}", // no time: not counted
          "not json");

  @Test
  void aSubjectsSpendingIsItsRecordsTimesARecordsEpsilonPerWindowAndOverall() {
    SubjectSpend spend = SubjectSpend.of(RELEASED, PrivacyConfig.parse(FIELDS), "ts", 10_000);
    assertThat(spend.mostInAWindow()).isEqualTo(16.5);
    assertThat(spend.bound()).isInfinite();
    assertThat(spend.describe())
        .isEqualTo(
            "each subject: 5.5 per record, up to 16.5 in one 10 s window (3 records) and 22 over"
                + " the replay (4 records); no bound per window configured (contribution: in"
                + " docs/privacy.md)");
  }

  @Test
  void aContributionBoundIsShownBesideWhatWasSpent() {
    SubjectSpend spend =
        SubjectSpend.of(
            RELEASED,
            PrivacyConfig.parse(FIELDS + "contribution: {records: 2, window: 10s}\n"),
            "ts",
            10_000);
    assertThat(spend.bound()).isEqualTo(11.0);
    assertThat(spend.describe()).endsWith("; bounded at 11 per window");
  }

  @Test
  void aBudgetAloneIsShownAsWhatItIs() {
    SubjectSpend spend =
        SubjectSpend.of(
            RELEASED,
            PrivacyConfig.parse(FIELDS + "budget: {epsilon: 50000, period: 1d}\n"),
            "ts",
            10_000);
    assertThat(spend.describe())
        .endsWith(
            "; a window bounded only by the period's budget, 50000 (contribution: in"
                + " docs/privacy.md)");
  }
}
