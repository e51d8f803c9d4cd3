package io.ogpm.flink.aggregate;

import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.util.clock.Clock;
import org.apache.flink.util.clock.SystemClock;

/**
 * Watermarks of one source split (a Kafka partition): bounded out-of-orderness while records come,
 * and event time that moves on with the wall clock once the split has been silent for the idle
 * timeout. Flink's own idleness ({@code WatermarkStrategy.withIdleness}) only stops a silent split
 * from holding the others back; when every split falls silent, as at the end of a replay, the
 * watermark stays below the last window's end and that window never closes. Here a split silent for
 * {@code idle} since its last record at wall-clock time {@code t} emits {@code maxTimestamp -
 * outOfOrderness - 1 + (now - t)}: it assumes that event time went on as long as the silence did,
 * so the last window closes {@code max(idle, window + outOfOrderness)} after the last record. A
 * record that then arrives stamped before that watermark is late, as it would be behind any other
 * split's progress. A split that never had a record is marked idle after the timeout, as Flink's
 * idleness does, so an empty partition holds nothing back.
 */
@Internal
public final class SilenceAwareWatermarks<T> implements WatermarkGenerator<T> {
  private final long outOfOrderness;
  private final long idle;
  private final Clock clock;
  private final long createdAt;
  private long maxTimestamp = Long.MIN_VALUE;
  private long lastRecordAt;

  public SilenceAwareWatermarks(Duration outOfOrderness, Duration idle, Clock clock) {
    if (outOfOrderness.isNegative()) {
      throw new IllegalArgumentException(
          "outOfOrderness: must be at least 0, got " + outOfOrderness);
    }
    if (idle.isZero() || idle.isNegative()) {
      throw new IllegalArgumentException("idleTimeout: must be positive, got " + idle);
    }
    this.outOfOrderness = outOfOrderness.toMillis();
    this.idle = idle.toMillis();
    this.clock = clock;
    this.createdAt = clock.relativeTimeMillis();
  }

  /**
   * A strategy that gives each split its generator on the system clock. The durations are checked
   * here, where the job is built, rather than on the task managers when the splits start.
   */
  public static <T> WatermarkStrategy<T> strategy(Duration outOfOrderness, Duration idle) {
    new SilenceAwareWatermarks<T>(outOfOrderness, idle, SystemClock.getInstance()); // validates
    long ooo = outOfOrderness.toMillis();
    long idleMillis = idle.toMillis();
    return WatermarkStrategy.forGenerator(
        context ->
            new SilenceAwareWatermarks<>(
                Duration.ofMillis(ooo), Duration.ofMillis(idleMillis), SystemClock.getInstance()));
  }

  @Override
  public void onEvent(T event, long timestamp, WatermarkOutput output) {
    maxTimestamp = Math.max(maxTimestamp, timestamp);
    lastRecordAt = clock.relativeTimeMillis();
  }

  @Override
  public void onPeriodicEmit(WatermarkOutput output) {
    long now = clock.relativeTimeMillis();
    if (maxTimestamp == Long.MIN_VALUE) {
      if (now - createdAt >= idle) {
        output.markIdle();
      }
      return;
    }
    long watermark = maxTimestamp - outOfOrderness - 1;
    long silence = now - lastRecordAt;
    if (silence >= idle) {
      // Saturating: a timestamp near Long.MAX_VALUE must not wrap around to the past.
      watermark = watermark > Long.MAX_VALUE - silence ? Long.MAX_VALUE : watermark + silence;
    }
    output.emitWatermark(new Watermark(watermark));
  }
}
