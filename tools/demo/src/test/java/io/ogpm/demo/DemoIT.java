package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo path end to end on a short sample: embedded Kafka broker, both jobs on a MiniCluster,
 * window estimates printed next to the truth, the HTML report written.
 */
class DemoIT {
  @Test
  void demoRunsEndToEndOnAShortSample(@TempDir Path dir) throws Exception {
    StringWriter text = new StringWriter();
    int status =
        Demo.run(
            new Demo.Options(
                1200, null, null, dir.resolve("report"), false, 0, Duration.ofSeconds(10), 20, 2),
            new PrintWriter(text, true));
    String out = text.toString();
    assertThat(status).isZero();
    assertThat(out)
        .contains(
            "replayed 1200 records into ogpm.raw",
            "PerturbJob: 1200 records perturbed into ogpm.perturbed, 0 dead-lettered");
    // 1,200 records at 50 Hz from 4 subjects side by side: 300 rows = 6 s, one 10 s window, 6
    // fields.
    assertThat(out.lines().filter(l -> l.startsWith("2026-01-01T00:00:00Z")).count()).isEqualTo(6);
    assertThat(out).contains("userAcceleration.x", "attitude.roll");
    String html = Files.readString(dir.resolve("report").resolve("index.html"));
    assertThat(html)
        .contains(
            "<h2>Accounting</h2>",
            "<svg",
            "attitude.roll (rad), ε = 5.5, ogpm: the whole replay on the circle",
            "mean per 10 s window with 95 % interval")
        .doesNotContain("class=\"mismatch\"");
  }

  /**
   * With field sampling (2 of the 6 fields per record) the aggregation counts each field over the
   * records that reported it: the demo's accounting matches every window's count to the raw records
   * it matched by id, and the counts add up to 2 per record.
   */
  @Test
  void withFieldSamplingEachFieldIsCountedOverTheRecordsThatReportedIt(@TempDir Path dir)
      throws Exception {
    Path config = Files.writeString(dir.resolve("sampled.yaml"), GroundTruthTest.SAMPLED);
    StringWriter text = new StringWriter();
    int status =
        Demo.run(
            new Demo.Options(
                1200, null, config, dir.resolve("report"), false, 0, Duration.ofSeconds(10), 20, 2),
            new PrintWriter(text, true));
    String out = text.toString();
    assertThat(status).isZero();
    assertThat(out)
        .contains(
            "epsilon at most 5.5 per record",
            "sampling: each record reports 2 of its 6 fields",
            "PerturbJob: 1200 records perturbed",
            "each over all its records");
    long counted =
        out.lines()
            .filter(l -> l.startsWith("2026-01-01T00:00:00Z"))
            .mapToLong(l -> Long.parseLong(l.trim().split("\\s+")[3]))
            .sum();
    assertThat(counted).isEqualTo(2 * 1200);
    // Each field at 2.75 (5.5 over the two largest configured epsilons, 1 and 1), shown round.
    String html = Files.readString(dir.resolve("report").resolve("index.html"));
    assertThat(html)
        .contains(
            "epsilon 2.75 (each record reports 2 of its 6 fields)",
            "\u03b5 = 2.75, ogpm:",
            "epsilon at most 5.5 per record")
        .doesNotContain("class=\"mismatch\"");
  }
}
