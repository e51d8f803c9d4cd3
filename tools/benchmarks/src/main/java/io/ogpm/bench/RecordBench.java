package io.ogpm.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import io.ogpm.sample.BundledSample;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The record path, one thread: JSON record in, JSON record out (or a dead letter), through the
 * operator's own {@link RecordPerturber} with secure randomness. On the MotionSense sample (6
 * perturbed fields, 3 passed through, 12 values dropped per record) under its configuration, and on
 * records of 1 to 24 fields (each field perturbed; an id, a user, a time and a text passed through)
 * for the throughput against the number of fields. Allocation per record is the thread's allocated
 * bytes over the measured run, divided by the records. Optionally the sample again with more of its
 * fields passed through (for example {@code gravity}, an object of three decimals), which the
 * record path copies into the output instead of dropping.
 */
final class RecordBench {
  private RecordBench() {}

  static ObjectNode run(
      Duration warmUp,
      Duration measure,
      int[] fieldCounts,
      int[] windowSizes,
      List<String> passthrough) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    PrivacyConfig sample = PrivacyConfig.parse(BenchConfig.sixFields());
    PrivacyConfig more = passthrough.isEmpty() ? null : withPassthrough(sample, passthrough);
    List<byte[]> records = new ArrayList<>();
    for (String line : BundledSample.records(Integer.MAX_VALUE)) {
      records.add(line.getBytes(StandardCharsets.UTF_8));
    }
    Stopwatch.Run run = measure(sample, records, warmUp, measure);
    out.put("shape", "MotionSense sample: 6 fields perturbed, 3 passed through, 12 values dropped");
    out.put("randomness", "secure");
    out.put("recordsPerSecond", Math.round(run.perSecond()));
    out.put("recordsPerCpuSecond", Math.round(run.perCpuSecond()));
    out.put("bytesAllocatedPerRecord", Math.round(run.allocatedPerOperation()));
    out.put("records", run.operations());
    if (more != null) {
      Stopwatch.Run withMore = measure(more, records, warmUp, measure);
      ObjectNode o = out.putObject("sampleWithPassthrough");
      o.putPOJO("passthrough", more.passthrough());
      o.put("recordsPerSecond", Math.round(withMore.perSecond()));
      o.put("recordsPerCpuSecond", Math.round(withMore.perCpuSecond()));
      o.put("bytesAllocatedPerRecord", Math.round(withMore.allocatedPerOperation()));
      o.put("records", withMore.operations());
    }
    ObjectNode byFields = out.putObject("recordsPerSecondByFields");
    ObjectNode byFieldsCpu = out.putObject("recordsPerCpuSecondByFields");
    for (int k : fieldCounts) {
      Stopwatch.Run r =
          measure(PrivacyConfig.parse(flatConfig(k)), flatRecords(k, 4096), warmUp, measure);
      byFields.put(Integer.toString(k), Math.round(r.perSecond()));
      byFieldsCpu.put(Integer.toString(k), Math.round(r.perCpuSecond()));
    }
    if (windowSizes.length > 0) {
      out.set(
          "aggregationRecordsPerSecondByRecordsPerWindow",
          WindowSweep.run(sample, windowSizes, warmUp, measure));
      out.set("aggregationSampleWindows", WindowSweep.sampleWindows(sample, records, measure));
    }
    return out;
  }

  /**
   * The configuration with more passthrough fields.
   *
   * @throws io.ogpm.config.ConfigException for a name the configuration cannot pass through
   */
  static PrivacyConfig withPassthrough(PrivacyConfig config, List<String> more) {
    List<String> names = new ArrayList<>(config.passthrough());
    names.addAll(more);
    return PrivacyConfig.of(
        config.idField().orElse(null),
        config.userField().orElse(null),
        names,
        config.fields(),
        config.gridBits(),
        config.budget().orElse(null));
  }

  private static Stopwatch.Run measure(
      PrivacyConfig config, List<byte[]> records, Duration warmUp, Duration measure) {
    RecordPerturber perturber = new RecordPerturber(config, RandomnessMode.secure());
    Source source = Source.kafka("ogpm.raw", 0, 0);
    for (byte[] r : records) {
      if (!(perturber.perturb(r, source) instanceof Outcome.Perturbed)) {
        throw new IllegalStateException(
            "a benchmark record was refused: " + perturber.perturb(r, source));
      }
    }
    long[] sink = new long[1];
    return Stopwatch.run(
        warmUp,
        measure,
        () -> {
          for (byte[] r : records) {
            sink[0] += ((Outcome.Perturbed) perturber.perturb(r, source)).value().length;
          }
          return records.size();
        });
  }

  /**
   * k fields f0..f(k-1) on [-3, 3], epsilon 1, with an id, a user, a time and an activity passed
   * through.
   */
  static String flatConfig(int k) {
    StringBuilder y =
        new StringBuilder(
            "id-field: id\nuser-field: user\npassthrough: [id, ts, activity]\nfields:\n");
    for (int i = 0; i < k; i++) {
      y.append("  - {name: f")
          .append(i)
          .append(", min: -3, max: 3, epsilon: 1, out-of-range: clamp}\n");
    }
    return y.toString();
  }

  /** n records of k fields, values with six decimals as in the sample. */
  static List<byte[]> flatRecords(int k, int n) {
    AesCtrSource r = AesCtrSource.seeded(k);
    List<byte[]> out = new ArrayList<>(n);
    for (int j = 0; j < n; j++) {
      StringBuilder s = new StringBuilder(64 + 12 * k);
      s.append("{\"id\":\"r-")
          .append(j)
          .append("\",\"user\":\"u-")
          .append(j % 100)
          .append("\",\"ts\":")
          .append(1767225600000L + 20L * j)
          .append(",\"activity\":\"walking\"");
      for (int i = 0; i < k; i++) {
        s.append(",\"f")
            .append(i)
            .append("\":")
            .append(String.format(Locale.ROOT, "%.6f", 6 * r.nextUniform() - 3));
      }
      out.add(s.append('}').toString().getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }
}
