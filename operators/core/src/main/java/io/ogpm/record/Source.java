package io.ogpm.record;

import io.ogpm.annotation.Internal;

/**
 * Where an input record came from: a Kafka topic, partition and offset, or a line of a file.
 * Unknown parts are null (topic) or -1.
 */
@Internal
public record Source(String topic, int partition, long offset, long line)
    implements java.io.Serializable {
  /** A Kafka record's coordinates. */
  public static Source kafka(String topic, int partition, long offset) {
    return new Source(topic, partition, offset, -1);
  }

  /** No known origin: a record of a stream of the user's own objects. */
  public static Source unknown() {
    return new Source(null, -1, -1, -1);
  }

  /** A 1-based line number of a file or stream. */
  public static Source line(long line) {
    return new Source(null, -1, -1, line);
  }
}
