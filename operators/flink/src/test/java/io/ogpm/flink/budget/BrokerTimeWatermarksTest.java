package io.ogpm.flink.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.ContributionBound;
import io.ogpm.flink.RawRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.util.clock.ManualClock;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class BrokerTimeWatermarksTest {
  static final long T0 = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();
  static final ContributionBound BOUND =
      ContributionBound.of(2, Duration.ofSeconds(10), BudgetClock.LOG_APPEND_TIME, null);

  /** What a split emitted. */
  static final class Emitted implements WatermarkOutput {
    final List<Long> watermarks = new ArrayList<>();
    boolean idle;

    @Override
    public void emitWatermark(Watermark watermark) {
      watermarks.add(watermark.getTimestamp());
      idle = false;
    }

    @Override
    public void markIdle() {
      idle = true;
    }

    @Override
    public void markActive() {
      idle = false;
    }

    long last() {
      return watermarks.get(watermarks.size() - 1);
    }
  }

  private static RawRecord record(long time, TimestampType type) {
    return new RawRecord(new byte[0], "raw", 0, 0, time, type);
  }

  @Test
  void onlyTheBrokersTimesMoveEventTimeOnAndNeverPastTheNextWindow() {
    ManualClock clock = new ManualClock(Duration.ofMillis(T0 + 60_000).toNanos());
    var generator = new BrokerTimeWatermarks(BOUND, clock);
    Emitted out = new Emitted();
    generator.onEvent(record(T0 + 5_000, TimestampType.LOG_APPEND_TIME), 0, out);
    generator.onPeriodicEmit(out);
    assertThat(out.last()).isEqualTo(T0 + 4_999);
    // A producer's time, however far ahead, moves nothing; nor does a broker time beyond the
    // window after the wall clock's.
    generator.onEvent(record(T0 + 900_000, TimestampType.CREATE_TIME), 0, out);
    generator.onEvent(record(T0 + 80_000, TimestampType.LOG_APPEND_TIME), 0, out);
    generator.onPeriodicEmit(out);
    assertThat(out.last()).isEqualTo(T0 + 4_999);
    // The next window's times count.
    generator.onEvent(record(T0 + 79_999, TimestampType.LOG_APPEND_TIME), 0, out);
    generator.onPeriodicEmit(out);
    assertThat(out.last()).isEqualTo(T0 + 79_998);
  }

  @Test
  void aQuietPartitionFollowsTheWallClockIdleBehindAndAnEmptyOneHoldsNothingBack() {
    ManualClock clock = new ManualClock(Duration.ofMillis(T0 + 300).toNanos());
    var quiet = new BrokerTimeWatermarks(BOUND, clock);
    var empty = new BrokerTimeWatermarks(BOUND, clock);
    Emitted fromQuiet = new Emitted();
    Emitted fromEmpty = new Emitted();
    quiet.onEvent(record(T0, TimestampType.LOG_APPEND_TIME), 0, fromQuiet);
    assertThat(BrokerTimeWatermarks.idle(BOUND)).isEqualTo(Duration.ofSeconds(10));
    clock.advanceTime(Duration.ofMillis(9_999));
    quiet.onPeriodicEmit(fromQuiet);
    empty.onPeriodicEmit(fromEmpty);
    assertThat(fromQuiet.last()).isEqualTo(T0 - 1);
    assertThat(fromEmpty.idle).isFalse();
    clock.advanceTime(Duration.ofMillis(1));
    empty.onPeriodicEmit(fromEmpty);
    assertThat(fromEmpty.idle).isTrue();
    // Silent for 20 s: event time is 10 s behind the wall clock, so a record appended now and
    // read up to 10 s later is still on time.
    clock.advanceTime(Duration.ofSeconds(10));
    quiet.onPeriodicEmit(fromQuiet);
    assertThat(fromQuiet.last()).isEqualTo(T0 + 300 + 20_000 - 10_000);
    // A record appended more than 10 s before it is read does not take event time back; one
    // appended later moves it on.
    quiet.onEvent(record(T0 + 5_000, TimestampType.LOG_APPEND_TIME), 0, fromQuiet);
    quiet.onPeriodicEmit(fromQuiet);
    assertThat(fromQuiet.last()).isEqualTo(T0 + 10_300);
    quiet.onEvent(record(T0 + 20_000, TimestampType.LOG_APPEND_TIME), 0, fromQuiet);
    quiet.onPeriodicEmit(fromQuiet);
    assertThat(fromQuiet.last()).isEqualTo(T0 + 19_999);
  }
}
