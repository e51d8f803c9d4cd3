package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UserGuaranteeTest {
  private static final String FIELDS =
      "user-field: user\nfields:\n"
          + "  - {name: a, min: 0, max: 1, epsilon: 2.5}\n"
          + "  - {name: b, min: 0, max: 1, epsilon: 3}\n";

  @Test
  void withoutABudgetTheGuaranteeIsPerRecordAndSaysSo() {
    UserGuarantee g = UserGuarantee.of(PrivacyConfig.parse(FIELDS));
    assertThat(g.perRecord()).isEqualTo(5.5);
    assertThat(g.perPeriod()).isInfinite();
    assertThat(g.describe())
        .isEqualTo(
            "each user: at most 5.5 per record; no budget, so a user's records add up without"
                + " bound (configure budget: to bound them per period)");
  }

  @Test
  void aBudgetBoundsAPeriodAndPacingSaysWhatIsReleasedBySlice() {
    UserGuarantee plain =
        UserGuarantee.of(PrivacyConfig.parse(FIELDS + "budget: {epsilon: 55, period: 1d}\n"));
    assertThat(plain.perPeriod()).isEqualTo(55);
    assertThat(plain.describe())
        .isEqualTo(
            "each user: at most 5.5 per record, 55 per 1d (first come, first served: a period's"
                + " budget may go in its first records)");
    UserGuarantee paced =
        UserGuarantee.of(
            PrivacyConfig.parse(FIELDS + "budget: {epsilon: 132, period: 1d, pacing: 1h}\n"));
    assertThat(paced.describe())
        .isEqualTo(
            "each user: at most 5.5 per record, 132 per 1d (paced: 5.5 each 1h, so by any time at"
                + " most the slices begun)")
        .isEqualTo(paced.toString());
  }

  @Test
  void aPacingOfThePeriodReleasesItAllAtOnceAndASampledRecordShowsItsRoundFigure() {
    UserGuarantee whole =
        UserGuarantee.of(
            PrivacyConfig.parse(FIELDS + "budget: {epsilon: 11, period: 1d, pacing: 1d}\n"));
    assertThat(whole.describe())
        .isEqualTo(
            "each user: at most 5.5 per record, 11 per 1d (paced: 11 each 1d, so by any time at"
                + " most the slices begun)");
    UserGuarantee sampled =
        UserGuarantee.of(PrivacyConfig.parse(FIELDS + "sampling: {fields-per-record: 1}\n"));
    // One field a record, scaled so that the dearer stays within the configured 5.5, a hair below
    // it: shown as 5.5.
    assertThat(sampled.perRecord()).isLessThan(5.5).isGreaterThan(5.49);
    assertThat(sampled.describe()).startsWith("each user: at most 5.5 per record;");
    // A window of 3 such records: 16.5 shown, not 16.4999...
    UserGuarantee sampledWindows =
        UserGuarantee.of(
            PrivacyConfig.parse(
                FIELDS
                    + "sampling: {fields-per-record: 1}\n"
                    + "contribution: {records: 3, window: 10s}\n"));
    assertThat(sampledWindows.describe())
        .startsWith("each user: at most 5.5 per record, 16.5 per 10s window (3 records);");
  }

  @Test
  void aContributionBoundSaysWhatAUserSpendsPerWindow() {
    UserGuarantee g =
        UserGuarantee.of(
            PrivacyConfig.parse(
                FIELDS
                    + "contribution: {records: 2, window: 10s}\n"
                    + "budget: {epsilon: 132, period: 1d, pacing: 1h}\n"));
    assertThat(g.perWindow()).isEqualTo(11);
    assertThat(g.describe())
        .isEqualTo(
            "each user: at most 5.5 per record, 11 per 10s window (2 records), 132 per 1d (paced:"
                + " 5.5 each 1h, so by any time at most the slices begun)");
    UserGuarantee unbudgeted =
        UserGuarantee.of(PrivacyConfig.parse(FIELDS + "contribution: {window: 1m}\n"));
    assertThat(unbudgeted.perWindow()).isEqualTo(5.5);
    assertThat(unbudgeted.describe())
        .isEqualTo(
            "each user: at most 5.5 per record, 5.5 per 1m window (1 record); no budget, so a"
                + " user's windows add up without bound (configure budget: to bound them per"
                + " period)");
    assertThat(UserGuarantee.of(PrivacyConfig.parse(FIELDS)).perWindow()).isInfinite();
    UserGuarantee budgetOnly =
        UserGuarantee.of(PrivacyConfig.parse(FIELDS + "budget: {epsilon: 55, period: 1d}\n"));
    assertThat(budgetOnly.perWindow()).isEqualTo(55);
  }

  /**
   * What an aggregation window holds of one person: a contribution window's bound for each one it
   * meets, a period's budget (paced: the slices begun) for each period it meets, the lesser; none
   * on ingestion time, whose placing time is not the records' event time.
   */
  @Test
  void anAggregationWindowHoldsOfAPersonWhatTheBoundsOnTheBrokersClockAllow() {
    long day = Duration.ofDays(1).toMillis();
    long d0 = 20_000 * day; // a day's start
    UserGuarantee bounded =
        UserGuarantee.of(
            PrivacyConfig.parse(
                FIELDS
                    + "contribution: {records: 2, window: 10s}\n"
                    + "budget: {epsilon: 110, period: 1d}\n"));
    assertThat(bounded.inWindow(d0, d0 + 10_000)).isEqualTo(11.0); // aligned: one window
    assertThat(bounded.inWindow(d0 + 5_000, d0 + 15_000)).isEqualTo(22.0); // meets two
    assertThat(bounded.inWindow(d0, d0 + 60_000)).isEqualTo(66.0);
    assertThat(bounded.inWindow(d0, d0 + 3_600_000)).isEqualTo(110.0); // the budget binds
    assertThat(bounded.inWindow(d0 + day - 60_000, d0 + day + 60_000)).isEqualTo(132.0);
    assertThat(bounded.inWindow(d0 - day, d0 + day)).isEqualTo(220.0); // two periods
    UserGuarantee paced =
        UserGuarantee.of(
            PrivacyConfig.parse(FIELDS + "budget: {epsilon: 264, period: 1d, pacing: 1h}\n"));
    assertThat(paced.inWindow(d0, d0 + 10_000)).isEqualTo(11.0); // the first slice only
    assertThat(paced.inWindow(d0 + 3_600_000, d0 + 3_600_001)).isEqualTo(22.0);
    assertThat(paced.inWindow(d0 + 3_599_000, d0 + 3_600_000)).isEqualTo(11.0); // its last ms
    assertThat(paced.inWindow(d0 + day - 1, d0 + day)).isEqualTo(264.0);
    assertThat(UserGuarantee.of(PrivacyConfig.parse(FIELDS)).inWindow(d0, d0 + 1)).isInfinite();
    UserGuarantee ingestion =
        UserGuarantee.of(
            PrivacyConfig.parse(
                FIELDS
                    + "contribution: {records: 2, window: 10s, clock: ingestion-time}\n"
                    + "budget: {epsilon: 110, period: 1d, clock: ingestion-time}\n"));
    assertThat(ingestion.inWindow(d0, d0 + 10_000)).isInfinite();
    assertThatThrownBy(() -> bounded.inWindow(d0, d0))
        .hasMessage("a window must end after it starts, got [" + d0 + ", " + d0 + ")");
  }

  /** The fleet configuration of docs/privacy.md says what that page quotes. */
  @Test
  void theFleetConfigurationPromisesWhatThePrivacyPageSays() {
    UserGuarantee fleet =
        UserGuarantee.of(
            PrivacyConfig.parse(
                """
                user-field: device
                fields:
                  - {name: temperature, min: -20, max: 50, epsilon: 1}
                contribution: {records: 1, window: 1h}
                budget: {epsilon: 8, period: 1d, pacing: 3h}
                """));
    assertThat(fleet.describe())
        .isEqualTo(
            "each user: at most 1 per record, 1 per 1h window (1 record), 8 per 1d (paced: 1 each"
                + " 3h, so by any time at most the slices begun)");
    assertThat(fleet.inWindow(0, 3_600_000)).isEqualTo(1.0);
  }

  @Test
  void durationsAreShownAsTheConfigurationWritesThem() {
    assertThat(UserGuarantee.shown(Duration.ofDays(2))).isEqualTo("2d");
    assertThat(UserGuarantee.shown(Duration.ofHours(36))).isEqualTo("36h");
    assertThat(UserGuarantee.shown(Duration.ofMinutes(90))).isEqualTo("90m");
    assertThat(UserGuarantee.shown(Duration.ofSeconds(10))).isEqualTo("10s");
    assertThat(UserGuarantee.shown(Duration.ofMillis(1500))).isEqualTo("PT1.5S");
  }
}
