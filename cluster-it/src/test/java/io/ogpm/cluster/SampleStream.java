package io.ogpm.cluster;

import io.ogpm.testkit.TestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Utils;

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
      lines = Files.readAllLines(sample, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
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
      case 0 -> "{\"id\":\"bad-" + n + "\",\"user\":\"subject-1\",\"ts\":1767225600000,\"activity\":\"downstairs\"}";
      case 1 -> "{\"id\":\"bad-" + n + "\",\"user\":\"subject-1\",\"ts\":1767225600000,\"activity\":\"downstairs\","
          + "\"attitude\":{\"roll\":0.5,\"pitch\":0.1,\"yaw\":0.2},"
          + "\"userAcceleration\":{\"x\":\"fast\",\"y\":0.1,\"z\":0.1}}";
      default -> "a reading that is not JSON " + n;
    };
  }

  /**
   * Valid records stamped a day after the sample, one for each partition of the perturbed topic.
   * The perturb job keys each perturbed record by its id and Kafka's partitioner puts it in
   * partition murmur2(key) mod partitions, so ids are picked until every partition has one: each
   * split of the aggregate job then sees event time pass every window of the sample. (One record
   * in one partition is not enough: a split silent for the idle timeout moves its event time on
   * only with the wall clock, and holds the others back until its silence exceeds the
   * out-of-orderness.)
   */
  static List<TestRecord> watermarkMovers(int partitions) {
    List<TestRecord> movers = new ArrayList<>();
    boolean[] covered = new boolean[partitions];
    for (int k = 0; movers.size() < partitions; k++) {
      String id = "last-" + k;
      int partition = Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % partitions;
      if (!covered[partition]) {
        covered[partition] = true;
        movers.add(TestRecord.json("{\"id\":\"" + id + "\",\"user\":\"subject-1\",\"ts\":1767312000000,\"activity\":\"downstairs\","
            + "\"attitude\":{\"roll\":0.5,\"pitch\":0.1,\"yaw\":0.2},\"userAcceleration\":{\"x\":0.1,\"y\":0.1,\"z\":0.1}}"));
      }
    }
    return movers;
  }
}
