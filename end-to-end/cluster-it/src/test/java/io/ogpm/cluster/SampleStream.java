package io.ogpm.cluster;

import io.ogpm.testkit.TestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the test streams into the raw topic: the MotionSense sample, in order, with a bad record
 * after every thousandth (missing fields, a value that is not a number, text that is not JSON), so
 * that the dead-letter topic takes part in every phase; and last records stamped a day after the
 * sample, which move the aggregate job's event-time watermark past every window of the sample.
 */
final class SampleStream {
  static final int BAD_EVERY = 1000;

  private SampleStream() {}

  /** The sample's lines with the bad records mixed in. */
  static List<TestRecord> records(Path sample) {
    List<String> lines;
    try {
      lines =
          Files.readAllLines(sample, StandardCharsets.UTF_8).stream()
              .filter(l -> !l.isBlank())
              .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<TestRecord> out = new ArrayList<>();
    int bad = 0;
    for (int i = 0; i < lines.size(); i++) {
      out.add(TestRecord.json(lines.get(i)));
      if ((i + 1) % BAD_EVERY == 0) {
        out.add(TestRecord.json(bad(bad++)));
      }
    }
    return out;
  }

  /** A record each of whose kinds the perturbation refuses. */
  static String bad(int n) {
    return switch (n % 3) {
      case 0 ->
          "{\"id\":\"bad-"
              + n
              + "\",\"user\":\"subject-1\",\"ts\":1767225600000,\"activity\":\"downstairs\"}";
      case 1 ->
          "{\"id\":\"bad-"
              + n
              + "\",\"user\":\"subject-1\",\"ts\":1767225600000,\"activity\":\"downstairs\","
              + "\"attitude\":{\"roll\":0.5,\"pitch\":0.1,\"yaw\":0.2},"
              + "\"userAcceleration\":{\"x\":\"fast\",\"y\":0.1,\"z\":0.1}}";
      default -> "a reading that is not JSON " + n;
    };
  }

  /**
   * Valid records stamped a day after the sample, one for each partition of the raw topic (sent
   * there explicitly): the perturb job writes a record to the perturbed partition of its raw
   * partition's number, so every perturbed partition gets one, and each split of the aggregate job
   * then sees event time pass every window of the sample. (One record in one partition is not
   * enough: a split silent for the idle timeout moves its event time on only with the wall clock,
   * and holds the others back until its silence exceeds the out-of-orderness.)
   */
  static List<TestRecord> watermarkMovers(int partitions) {
    return watermarkMovers(partitions, NEXT_DAY);
  }

  /** One valid record stamped {@code ts} for each raw partition. */
  static List<TestRecord> watermarkMovers(int partitions, long ts) {
    List<TestRecord> movers = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      movers.add(
          TestRecord.json(reading("last-" + ts + "-" + p, "subject-1", ts)).withPartition(p));
    }
    return movers;
  }

  /** The day after the sample's, at midnight (UTC): the watermark movers' time. */
  static final long NEXT_DAY = 1767312000000L;

  /**
   * {@code n} valid readings of the four subjects side by side, 5 ms apart from {@code from}: a
   * stream that went on while the perturb job was stopped.
   */
  static List<TestRecord> backlog(int n, long from) {
    List<TestRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(TestRecord.json(reading("backlog-" + i, "subject-" + (i % 4 + 1), from + 5L * i)));
    }
    return out;
  }

  private static String reading(String id, String user, long ts) {
    return "{\"id\":\""
        + id
        + "\",\"user\":\""
        + user
        + "\",\"ts\":"
        + ts
        + ",\"activity\":\"downstairs\","
        + "\"attitude\":{\"roll\":0.5,\"pitch\":0.1,\"yaw\":0.2},\"userAcceleration\":{\"x\":0.1,\"y\":0.1,\"z\":0.1}}";
  }
}
