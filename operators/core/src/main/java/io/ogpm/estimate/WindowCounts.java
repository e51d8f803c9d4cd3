package io.ogpm.estimate;

/**
 * A window's output counts by runs of output bins, wrapping on a circle: prefix sums once per
 * emission, then each run's count in constant time, for the histogram band and the cumulative band.
 */
final class WindowCounts {
  private final long[] prefix;

  /** The prefix sums of one window's output bin counts. */
  WindowCounts(long[] counts) {
    this.prefix = new long[counts.length + 1];
    for (int o = 0; o < counts.length; o++) {
      prefix[o + 1] = prefix[o] + counts[o];
    }
  }

  /** The count in output bins {@code [from, from + length)}, past the last bin on to the first. */
  long of(int from, int length) {
    int bins = prefix.length - 1;
    int to = from + length;
    if (to <= bins) {
      return prefix[to] - prefix[from];
    }
    return prefix[bins] - prefix[from] + prefix[to - bins];
  }
}
