package io.ogpm.flink.aggregate;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Flink's event-time tumbling and sliding windows ({@code TumblingEventTimeWindows}, {@code
 * SlidingEventTimeWindows}, offset 0), cut into panes: windows of {@code size} start at every
 * multiple of {@code slide}, and the panes of {@code gcd(size, slide)} tile time so that every
 * window is a whole number of panes and a record belongs to the same windows as its pane. A window
 * is late, and takes no more records, once the watermark reaches its cleanup time, its last
 * millisecond plus the allowed lateness (Flink's {@code WindowOperator}). All in epoch ms.
 */
@Internal
public final class Windowing implements Serializable {
  private static final long serialVersionUID = 1L;

  final long size;
  final long slide;
  final long lateness;
  final long lateUpdateInterval;
  final long pane;

  public Windowing(long size, long slide, long lateness, long lateUpdateInterval) {
    this.size = size;
    this.slide = slide;
    this.lateness = lateness;
    this.lateUpdateInterval = lateUpdateInterval;
    this.pane = gcd(size, slide);
  }

  /** The window size, ms. */
  public long size() {
    return size;
  }

  /** The slide (the size for tumbling windows), ms. */
  public long slide() {
    return slide;
  }

  /** The allowed lateness, ms. */
  public long lateness() {
    return lateness;
  }

  /** The shortest processing time between two late updates of a window, ms. */
  public long lateUpdateInterval() {
    return lateUpdateInterval;
  }

  static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** Start of the pane of a timestamp. */
  long paneOf(long timestamp) {
    return TimeWindow.getWindowStartWithOffset(timestamp, 0, pane);
  }

  /** Start of the last (latest-starting) window that holds a pane. */
  long lastWindowStart(long paneStart) {
    return TimeWindow.getWindowStartWithOffset(paneStart, 0, slide);
  }

  /**
   * End of the first (earliest-ending) window that holds a pane: the one starting at the least
   * multiple of the slide above {@code pane - size}. Until the watermark reaches its last
   * millisecond, no window of the pane can fire or be late.
   */
  long firstWindowEnd(long paneStart) {
    return lastWindowStart(paneStart - size + slide) + size;
  }

  /** Whether the window starting at {@code start} holds a pane: start <= pane < start + size. */
  boolean holds(long start, long paneStart) {
    return start <= paneStart && paneStart - start < size;
  }

  TimeWindow window(long start) {
    return new TimeWindow(start, start + size);
  }

  /** The window's last millisecond plus the allowed lateness. */
  long cleanupTime(TimeWindow w) {
    return w.maxTimestamp() + lateness;
  }

  /** Whether the watermark has passed the window's allowed lateness (it takes no more records). */
  boolean isLate(TimeWindow w, long watermark) {
    return cleanupTime(w) <= watermark;
  }

  /** Whether every window that holds the pane is late: its records are dropped and counted. */
  boolean isPaneLate(long paneStart, long watermark) {
    return isLate(window(lastWindowStart(paneStart)), watermark);
  }
}
