package io.ogpm.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.PerturbJob;
import io.ogpm.record.ReasonCode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The demo's follow mode: both jobs unbounded in one MiniCluster, the sample replayed in a loop at
 * its real pace (50 Hz per subject) with each record's time set to the wall clock, and each
 * window's estimates printed as the window closes, next to the truth of what was sent. Runs until
 * interrupted.
 */
final class FollowRun {
  /** Windows of the replay whose truth the demo keeps. */
  static final int HORIZON_WINDOWS = 30;

  /** Windows the live report shows. */
  static final int SHOWN_WINDOWS = 25;

  private final DemoSetup demo;
  private final Demo.Options options;
  private final PrintWriter out;

  private FollowRun(DemoSetup demo) {
    this.demo = demo;
    this.options = demo.options();
    this.out = demo.out();
  }

  /** Runs until interrupted; 0 then. */
  static int run(DemoSetup demo) throws Exception {
    return new FollowRun(demo).run();
  }

  private int run() throws Exception {
    StreamExecutionEnvironment env = demo.environment();
    PerturbJob.build(env, DemoJobs.perturb(demo, false));
    // Live records close the windows, so the idle timeout only has to outlast the longest gap in
    // what the aggregation reads: read_committed, it sees the perturbed records a checkpoint at a
    // time, and on a loaded machine a checkpoint can take more than 5 s; with a shorter timeout a
    // silent partition's event time would move on meanwhile and the next commit's records would
    // be late.
    AggregateJob.build(
        env,
        DemoJobs.aggregate(demo, false).toBuilder()
            .outOfOrderness(Duration.ofSeconds(2))
            .idleTimeout(Duration.ofSeconds(30))
            .build());
    JobClient job = env.executeAsync("ogpm perturb + aggregate (demo, follow)");
    Duration horizon = options.window().multipliedBy(HORIZON_WINDOWS);
    LiveReplay replay =
        LiveReplay.start(
            demo.bootstrapServers(), DemoTopics.RAW, demo.records(), Demo.TIME_FIELD, horizon);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  replay.stop();
                  job.cancel();
                }));
    out.printf(
        "replaying %d records in a loop at 50 Hz per subject, timestamped now; windows of %ds print as they"
            + " close (Ctrl-C to stop). Other producers can write to %s at %s.%n",
        demo.records().size(),
        options.window().toSeconds(),
        DemoTopics.RAW,
        demo.bootstrapServers());
    out.flush();
    ObjectMapper json = new ObjectMapper();
    // The report's windows: the last statistics per window, group and field, within the replay's
    // horizon (whose truth the demo keeps), rewritten each time a window closes.
    Map<String, WindowStat> closed = new HashMap<>();
    long shownMs = options.window().multipliedBy(SHOWN_WINDOWS).toMillis();
    // Records dead-lettered (a spent budget, a rejected value) are not in any window: the truth
    // leaves them out, and the accounting counts them by reason.
    LiveDeadLetters dead = new LiveDeadLetters(horizon.toMillis());
    // With field sampling each field's truth is over the records that reported it: the perturbed
    // records say which, read as they are committed.
    ReportedFields reported =
        demo.config().samplesFields()
            ? new ReportedFields(demo.config(), Demo.TIME_FIELD, horizon.toMillis())
            : null;
    try (LiveTopic statsTopic =
            LiveTopic.open(demo.bootstrapServers(), DemoTopics.STATS, Demo.READ_TIMEOUT);
        LiveTopic deadTopic =
            LiveTopic.open(demo.bootstrapServers(), DemoTopics.DEAD, Demo.READ_TIMEOUT);
        LiveTopic perturbedTopic =
            reported == null
                ? null
                : LiveTopic.open(
                    demo.bootstrapServers(), DemoTopics.PERTURBED, Demo.READ_TIMEOUT)) {
      if (options.report() != null) {
        Path file = writeReport(replay, closed, dead, truth(replay, dead, reported));
        out.println(
            "report (reloads itself every "
                + DemoReport.REFRESH_SECONDS
                + " s): "
                + file.toAbsolutePath());
        out.flush();
      }
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(2000);
        List<WindowStat> stats = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : statsTopic.readCommitted(Demo.READ_TIMEOUT)) {
          stats.add(WindowStat.of(json.readTree(r.value())));
        }
        // Read after the statistics: a record's dead letter is committed at the same checkpoint
        // as the perturbed records written beside it, before those that close its window, and the
        // statistics come a checkpoint of the aggregation later; so a closed window's are in.
        // The perturbed records of a closed window are committed before its statistics, as its
        // dead letters are.
        if (reported != null) {
          reported.addAll(perturbedTopic.readCommitted(Demo.READ_TIMEOUT));
        }
        Set<String> reasonsBefore = dead.byReason().keySet();
        long now = System.currentTimeMillis();
        for (ConsumerRecord<byte[], byte[]> r : deadTopic.readCommitted(Demo.READ_TIMEOUT)) {
          dead.add(json.readTree(r.value()), now);
        }
        dead.byReason()
            .forEach(
                (reason, n) -> {
                  if (!reasonsBefore.contains(reason)) {
                    announce(reason, n);
                  }
                });
        if (!stats.isEmpty()) {
          GroundTruth truth = truth(replay, dead, reported);
          WindowTable.print(out, demo.config(), stats, truth);
          if (options.report() != null) {
            long oldest = System.currentTimeMillis() - shownMs;
            stats.forEach(st -> closed.put(st.key(), st));
            closed.values().removeIf(st -> st.windowStart() < oldest);
            writeReport(replay, closed, dead, truth);
          }
        }
        out.flush();
      }
    }
    return 0;
  }

  /** The first dead letter of a reason: what it means for the windows. */
  private void announce(String reason, long n) {
    out.printf(
        "records are being dead-lettered as %s (%d so far)%s%n",
        reason,
        n,
        reason.equals(ReasonCode.BUDGET_EXHAUSTED.code())
            ? ": a user has spent the privacy budget of the"
                + " period (budget in the configuration); the windows go on with the other users"
            : "");
  }

  /** The truth of the replay's horizon: what was sent and not dead-lettered. */
  private GroundTruth truth(LiveReplay replay, LiveDeadLetters dead, ReportedFields reported) {
    return demo.truth(
        replay.recent(dead.recentSources()), reported == null ? GroundTruth.ALL : reported::test);
  }

  /** The live report: the closed windows against {@code truth}, the truth of what was sent. */
  private Path writeReport(
      LiveReplay replay, Map<String, WindowStat> closed, LiveDeadLetters dead, GroundTruth truth) {
    Map<String, Long> all = truth.counts();
    Map<String, Long> expected = new HashMap<>();
    Map<String, Long> counted = new HashMap<>();
    closed.forEach(
        (key, st) -> {
          counted.put(key, st.count());
          expected.put(key, all.getOrDefault(key, 0L));
        });
    return DemoReport.write(
        options.report(),
        new DemoReport.Content(
            String.format(
                Locale.ROOT,
                "Live: %d records sent so far, replayed in a loop at 50 Hz per subject and timestamped now; %d windows closed"
                    + " in the last %d s. This page reloads itself every %d s.",
                replay.sent(),
                closed.values().stream().mapToLong(WindowStat::windowStart).distinct().count(),
                options.window().multipliedBy(SHOWN_WINDOWS).toSeconds(),
                DemoReport.REFRESH_SECONDS),
            demo.config(),
            options.window(),
            ReportAccounting.of(replay.sent(), null, dead.byReason(), expected, counted),
            truth,
            new ArrayList<>(closed.values()),
            null,
            null,
            true));
  }
}
