package io.ogpm.flink.budget;

import io.ogpm.budget.BudgetPeriods;
import io.ogpm.config.ContributionBound;
import io.ogpm.flink.RawRecord;
import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.util.clock.Clock;
import org.apache.flink.util.clock.SystemClock;
import org.apache.kafka.common.record.TimestampType;

/**
 * Watermarks of one raw Kafka partition from the broker's append times, for a contribution bound on
 * {@code log-append-time}: its windows close when these pass their end plus max-lag. Only times the
 * producer cannot set count: a record stamped {@code CreateTime} (refused by the bound anyway) or
 * with a broker time more than a window ahead of the wall clock never moves the watermark, so a
 * forged or far-off time cannot close other users' windows early.
 *
 * <p>A broker appends in order, so a partition's times only grow: the watermark is the largest time
 * read, less a millisecond (max-lag absorbs a broker clock's small step back and the lag between
 * partitions). A partition silent for {@link #idle} lets event time follow the wall clock, {@code
 * idle} behind it: so windows close when the whole input is quiet, and a record then appended and
 * read within {@code idle} is never late, however the read delay varies. A partition that never had
 * a record is marked idle after {@code idle}, so an empty partition holds nothing back.
 */
@Internal
public final class BrokerTimeWatermarks implements WatermarkGenerator<RawRecord> {
  private final BudgetPeriods windows;
  private final long idle;
  private final Clock clock;
  private final long createdAt;
  private long largest = Long.MIN_VALUE;
  private long lastRecordAt;
  private long emitted = Long.MIN_VALUE;

  BrokerTimeWatermarks(ContributionBound bound, Clock clock) {
    this.windows = new BudgetPeriods(bound.window(), bound.maxLag());
    this.idle = idle(bound).toMillis();
    this.clock = clock;
    this.createdAt = clock.relativeTimeMillis();
  }

  /**
   * How long a partition is silent before event time follows the wall clock there, and how late
   * after its append a record of a quiet partition may be read without being late: the bound's
   * max-lag, at least 10 seconds (a read delay on a loaded cluster).
   */
  static Duration idle(ContributionBound bound) {
    Duration least = Duration.ofSeconds(10);
    return bound.maxLag().compareTo(least) < 0 ? least : bound.maxLag();
  }

  /** The strategy for the raw Kafka source: one generator per partition, on the system clock. */
  public static WatermarkStrategy<RawRecord> strategy(ContributionBound bound) {
    return WatermarkStrategy.<RawRecord>forGenerator(
            context -> new BrokerTimeWatermarks(bound, SystemClock.getInstance()))
        .withTimestampAssigner((record, kafkaTime) -> record.getTimestamp());
  }

  @Override
  public void onEvent(RawRecord record, long timestamp, WatermarkOutput output) {
    if (record.getTimestampType() != TimestampType.LOG_APPEND_TIME) {
      return;
    }
    long time = record.getTimestamp();
    if (windows.ahead(windows.of(time), clock.absoluteTimeMillis())) {
      return;
    }
    largest = Math.max(largest, time);
    lastRecordAt = clock.relativeTimeMillis();
  }

  @Override
  public void onPeriodicEmit(WatermarkOutput output) {
    long now = clock.relativeTimeMillis();
    if (largest == Long.MIN_VALUE) {
      if (now - createdAt >= idle) {
        output.markIdle();
      }
      return;
    }
    long watermark = largest - 1;
    if (now - lastRecordAt >= idle) {
      watermark = Math.max(watermark, clock.absoluteTimeMillis() - idle);
    }
    emitted = Math.max(emitted, watermark); // a record read late never takes event time back
    output.emitWatermark(new Watermark(emitted));
  }
}
