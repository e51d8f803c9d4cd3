package io.ogpm.flink.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.util.clock.ManualClock;
import org.junit.jupiter.api.Test;

class SilenceAwareWatermarksTest {
  static final Duration OUT_OF_ORDERNESS = Duration.ofSeconds(5);
  static final Duration IDLE = Duration.ofSeconds(30);

  /** What a split's generator told Flink: watermarks, and "idle" as null. */
  static final class Recorded implements WatermarkOutput {
    final List<Long> emitted = new ArrayList<>();
    int idle;

    @Override
    public void emitWatermark(Watermark watermark) {
      emitted.add(watermark.getTimestamp());
    }

    @Override
    public void markIdle() {
      idle++;
    }

    @Override
    public void markActive() {}

    Long last() {
      return emitted.isEmpty() ? null : emitted.get(emitted.size() - 1);
    }
  }

  final ManualClock clock = new ManualClock(1_000_000_000L);
  final SilenceAwareWatermarks<String> generator =
      new SilenceAwareWatermarks<>(OUT_OF_ORDERNESS, IDLE, clock);
  final Recorded out = new Recorded();

  @Test
  void whileRecordsComeTheWatermarkTrailsTheLargestTimestampByTheOutOfOrderness() {
    generator.onEvent("a", 100_000, out);
    generator.onEvent("b", 90_000, out); // out of order: the maximum stays
    clock.advanceTime(Duration.ofSeconds(29));
    generator.onPeriodicEmit(out);
    assertThat(out.last()).isEqualTo(100_000 - 5_000 - 1);
    assertThat(out.idle).isZero();
  }

  @Test
  void afterTheIdleTimeoutEventTimeMovesOnWithTheWallClockSinceTheLastRecord() {
    generator.onEvent("a", 100_000, out);
    clock.advanceTime(Duration.ofSeconds(10));
    generator.onEvent("b", 101_000, out);
    clock.advanceTime(IDLE);
    generator.onPeriodicEmit(out);
    assertThat(out.last()).isEqualTo(101_000 - 5_000 - 1 + 30_000);
    clock.advanceTime(Duration.ofSeconds(7));
    generator.onPeriodicEmit(out);
    assertThat(out.last()).isEqualTo(101_000 - 5_000 - 1 + 37_000);
    // A record ends the silence: back to trailing its timestamp.
    generator.onEvent("c", 102_000, out);
    generator.onPeriodicEmit(out);
    assertThat(out.last()).isEqualTo(102_000 - 5_000 - 1);
    assertThat(out.idle).isZero();
  }

  @Test
  void aSplitWithoutRecordsIsMarkedIdleAfterTheTimeoutAndEmitsNothing() {
    clock.advanceTime(IDLE.minusMillis(1));
    generator.onPeriodicEmit(out);
    assertThat(out.idle).isZero();
    clock.advanceTime(Duration.ofMillis(1));
    generator.onPeriodicEmit(out);
    assertThat(out.idle).isEqualTo(1);
    assertThat(out.emitted).isEmpty();
  }

  @Test
  void timestampsNearTheEndOfTimeDoNotWrapAround() {
    generator.onEvent("a", Long.MAX_VALUE, out);
    clock.advanceTime(Duration.ofDays(1));
    generator.onPeriodicEmit(out);
    assertThat(out.last()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void theStrategyReadsTheEventTimeAndChecksItsDurations() {
    var strategy = LdpAggregation.watermarks(OUT_OF_ORDERNESS, IDLE);
    PerturbedValues v = new PerturbedValues(new double[] {0.5}, null, 123_456L);
    assertThat(strategy.createTimestampAssigner(null).extractTimestamp(v, -1L)).isEqualTo(123_456L);
    assertThat(strategy.createWatermarkGenerator(null)).isInstanceOf(SilenceAwareWatermarks.class);
    assertThatThrownBy(() -> LdpAggregation.watermarks(OUT_OF_ORDERNESS, Duration.ZERO))
        .hasMessage("idleTimeout: must be positive, got PT0S");
  }

  @Test
  void badDurationsAreNamed() {
    assertThatThrownBy(
            () -> new SilenceAwareWatermarks<String>(Duration.ofSeconds(-1), IDLE, clock))
        .hasMessage("outOfOrderness: must be at least 0, got PT-1S");
    assertThatThrownBy(
            () -> new SilenceAwareWatermarks<String>(OUT_OF_ORDERNESS, Duration.ZERO, clock))
        .hasMessage("idleTimeout: must be positive, got PT0S");
  }
}
