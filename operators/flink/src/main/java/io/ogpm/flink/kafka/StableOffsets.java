package io.ogpm.flink.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Where a reader of committed data may stop: the end offsets of a set of partitions, once every
 * record below them is decided (committed or aborted).
 *
 * <p>Why: a {@code read_committed} consumer's end offset is the partition's <em>last stable
 * offset</em>, the first offset of the oldest open transaction. Right after a producer commits, the
 * broker writes the commit markers asynchronously, so for a moment the last stable offset still
 * trails the committed records; a reader that takes it as "the end" right after a job finishes
 * stops short, silently, with some or all of the committed records unread. This class takes the end
 * offset (the high watermark) first, then waits until the last stable offset has reached it: from
 * then on everything below that end is final, and a {@code read_committed} reader can read exactly
 * up to it. New transactions opened after the snapshot do not delay the wait.
 *
 * <p>Public because a job or tool that reads the library's exactly-once output to its end needs it
 * as the project's own jobs do (they use the library's API only).
 */
@PublicEvolving
public final class StableOffsets {
  private static final long POLL_MILLIS = 100;

  private StableOffsets() {}

  /**
   * Waits until every record below the current end of each partition of {@code topics} is committed
   * or aborted, and returns those end offsets.
   *
   * @throws IllegalStateException if a topic does not exist, or a transaction below the end is
   *     still open after {@code timeout}; the one-line message names the partition
   */
  public static Map<TopicPartition, Long> awaitTopics(
      Admin admin, Collection<String> topics, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    return await(admin, partitions(admin, topics, timeout), deadline, timeout);
  }

  /** As {@link #awaitTopics}, for given partitions. */
  public static Map<TopicPartition, Long> await(
      Admin admin, Collection<TopicPartition> partitions, Duration timeout) {
    return await(admin, partitions, System.nanoTime() + timeout.toNanos(), timeout);
  }

  private static Map<TopicPartition, Long> await(
      Admin admin, Collection<TopicPartition> partitions, long deadline, Duration timeout) {
    Map<TopicPartition, Long> end =
        offsets(admin, partitions, IsolationLevel.READ_UNCOMMITTED, timeout);
    while (true) {
      Map<TopicPartition, Long> stable =
          offsets(admin, partitions, IsolationLevel.READ_COMMITTED, timeout);
      TopicPartition open =
          partitions.stream()
              .filter(p -> stable.get(p) < end.get(p))
              .min(Comparator.comparing(TopicPartition::toString))
              .orElse(null);
      if (open == null) {
        return end;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "partition "
                + open
                + ": a transaction below offset "
                + end.get(open)
                + " is still open after "
                + timeout
                + " (last stable offset "
                + stable.get(open)
                + "): its producer neither committed nor aborted");
      }
      sleep();
    }
  }

  /**
   * Every partition of the topics, sorted.
   *
   * @throws IllegalStateException if a topic does not exist (the message names it) or the cluster
   *     does not answer within {@code timeout}
   */
  public static List<TopicPartition> partitions(
      Admin admin, Collection<String> topics, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<TopicPartition> out = new ArrayList<>();
    var futures = admin.describeTopics(topics).topicNameValues();
    for (String topic : topics) {
      TopicDescription d;
      try {
        d = futures.get(topic).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          throw new IllegalStateException("topic '" + topic + "' does not exist");
        }
        throw new IllegalStateException(
            "cannot describe topic '" + topic + "': " + e.getCause(), e);
      } catch (TimeoutException e) {
        throw new IllegalStateException(
            "cannot describe topic '" + topic + "' within " + timeout, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
      d.partitions().forEach(p -> out.add(new TopicPartition(topic, p.partition())));
    }
    out.sort(
        Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
    return out;
  }

  /** The partitions that have, at this moment, a record below their end in an open transaction. */
  public static List<TopicPartition> withOpenTransactions(
      Admin admin, Collection<TopicPartition> partitions, Duration timeout) {
    Map<TopicPartition, Long> end =
        offsets(admin, partitions, IsolationLevel.READ_UNCOMMITTED, timeout);
    Map<TopicPartition, Long> stable =
        offsets(admin, partitions, IsolationLevel.READ_COMMITTED, timeout);
    return partitions.stream()
        .filter(p -> stable.get(p) < end.get(p))
        .sorted(Comparator.comparing(TopicPartition::toString))
        .toList();
  }

  /** The end offsets (high watermarks) of partitions, whatever their transactions. */
  public static Map<TopicPartition, Long> endOffsets(
      Admin admin, Collection<TopicPartition> partitions, Duration timeout) {
    return offsets(admin, partitions, IsolationLevel.READ_UNCOMMITTED, timeout);
  }

  private static Map<TopicPartition, Long> offsets(
      Admin admin,
      Collection<TopicPartition> partitions,
      IsolationLevel isolation,
      Duration timeout) {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    partitions.forEach(p -> request.put(p, OffsetSpec.latest()));
    Map<TopicPartition, Long> out = new HashMap<>();
    try {
      admin
          .listOffsets(request, new ListOffsetsOptions(isolation))
          .all()
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
          .forEach((p, info) -> out.put(p, info.offset()));
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "cannot list the end offsets of " + partitions + ": " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "cannot list the end offsets of " + partitions + " within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    return out;
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for open transactions", e);
    }
  }
}
