package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.jobs.cli.CommandRun;
import io.ogpm.sample.BundledSample;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code demo --follow --report DIR} as a user runs it (the built {@code ogpm.jar} in its own JVM):
 * the page is written at once, reloads itself, and is rewritten as windows close, each closed
 * window's count matching what was sent and not dead-lettered (no red row). The demo runs until it
 * is stopped, so the test stops it (SIGTERM, as Ctrl-C does) once the page has shown windows
 * closing one after another.
 */
class DemoFollowIT {
  static final Pattern CLOSED = Pattern.compile("; (\\d+) windows closed in the last");

  /**
   * Long enough for a loaded 2-core machine to start the broker and both jobs: a wait, not a
   * deadline.
   */
  static final Duration PATIENCE = Duration.ofMinutes(8);

  @Test
  void theLiveReportIsRewrittenAsWindowsClose(@TempDir Path dir) throws Exception {
    Path report = dir.resolve("report");
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Path config = dir.resolve("ogpm.yaml");
    Files.writeString(config, rejectingConfig(), StandardCharsets.UTF_8);
    Process demo =
        CommandRun.startJar(
            DemoConsoleIT.JAR,
            "768m",
            out,
            err,
            "demo",
            "--follow",
            "--report",
            report.toString(),
            "--window",
            "2s",
            "--web-ui-port",
            "0",
            "--bins",
            "10",
            "--config",
            config.toString());
    try {
      Path page = report.resolve("index.html");
      String first = awaitPage(demo, page, err, 0, false);
      assertThat(first).as("the live page reloads itself").contains("http-equiv=\"refresh\"");
      int closedFirst = closedWindows(first);
      // A record later than the watermark's out-of-orderness (a loaded machine, a perturb subtask
      // behind the other) is counted by its window's next late update, up to the late-update
      // interval after it arrives: until then the page rightly shows it late or lost. So the
      // test waits for a page whose windows all balance. A lost record keeps its window red for as
      // long as the page shows the window (50 s), and records lost all along keep every page red.
      String later = awaitPage(demo, page, err, Math.max(closedFirst, 1) + 1, true);
      assertThat(closedWindows(later)).isGreaterThan(closedFirst);
      assertThat(later).contains("0 late").contains("http-equiv=\"refresh\"");
      assertThat(later)
          .as("the dead letters, by reason")
          .containsPattern("reason out-of-range</td><td>[1-9]");
      assertThat(Files.readString(out, StandardCharsets.UTF_8))
          .contains("report (reloads itself every");
    } finally {
      demo.destroy();
      if (!demo.waitFor(2, TimeUnit.MINUTES)) {
        demo.destroyForcibly().waitFor();
      }
    }
  }

  /**
   * The bundled configuration with userAcceleration.x rejected outside [-0.5, 0.5]: about 12 % of
   * the sample's records are dead-lettered all along, as a spent budget's are after a few minutes.
   * Their windows must still balance: the truth leaves out what was dead-lettered. The budget is
   * raised so that it lasts however long a loaded machine takes to close the first windows (the
   * bundled 50,000 epsilon a day are spent after about 5 minutes of replay, and then no window
   * closes).
   */
  static String rejectingConfig() {
    String bundled = BundledSample.config();
    String clamped =
        "  - name: userAcceleration.x\n    min: -3.0\n    max: 3.0\n    epsilon: 1.0\n    out-of-range: clamp\n";
    String budget = "budget:\n  epsilon: 50000\n";
    assertThat(bundled).contains(clamped).contains(budget);
    return bundled
        .replace(
            clamped,
            "  - name: userAcceleration.x\n    min: -0.5\n    max: 0.5\n    epsilon: 1.0\n    out-of-range: reject\n")
        .replace(budget, "budget:\n  epsilon: 1000000000\n");
  }

  /**
   * Waits until the page exists and reports at least {@code windows} closed windows, and if {@code
   * balanced}, no accounting row in red (a closed window counted other than what was sent).
   */
  static String awaitPage(Process demo, Path page, Path err, int windows, boolean balanced)
      throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    String last = null;
    while (System.nanoTime() < deadline) {
      assertThat(demo.isAlive())
          .as("demo --follow exited early: %s", Files.readString(err, StandardCharsets.UTF_8))
          .isTrue();
      if (Files.exists(page)) {
        // The demo rewrites the file in place; a read may catch it half written, so read until
        // whole.
        String html = Files.readString(page, StandardCharsets.UTF_8);
        if (html.contains("</html>")) {
          last = html;
          if (closedWindows(html) >= windows && (!balanced || mismatches(html).isEmpty())) {
            return html;
          }
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError(
        "the live report did not show "
            + windows
            + " closed windows"
            + (balanced ? ", every one counting what was sent," : "")
            + " within "
            + PATIENCE
            + "; last page: "
            + (last == null
                ? "none"
                : "\""
                    + CLOSED.matcher(last).results().map(m -> m.group()).toList()
                    + "\", in red: "
                    + mismatches(last)));
  }

  static List<String> mismatches(String html) {
    return Pattern.compile("<tr class=\"mismatch\">(.*?)</tr>")
        .matcher(html)
        .results()
        .map(m -> m.group(1).replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").strip())
        .toList();
  }

  static int closedWindows(String html) {
    Matcher m = CLOSED.matcher(html);
    assertThat(m.find()).as("the live page's summary line").isTrue();
    return Integer.parseInt(m.group(1));
  }
}
