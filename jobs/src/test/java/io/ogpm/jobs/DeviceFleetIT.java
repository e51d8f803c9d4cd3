package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.config.UserGuarantee;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.estimate.Interval;
import io.ogpm.mechanism.audit.ClopperPearson;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import io.ogpm.testkit.TestRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet of 10,000 devices, each reporting now and then, under a configuration a reviewer can
 * accept: each device at most 1 epsilon per record, 1 per hour, 8 per day, paced at 1 each 3 hours
 * (docs/privacy.md, "A fleet of devices"). The broker's clock cannot be sped up, so the test runs
 * the same configuration 1,800 times faster (an hour in 2 s, a day in 48 s): every rule compares
 * times with the window, the period and the slice alone, so the scaled run makes the same choices.
 * For 12 windows each device is active with probability 0.3 (3 readings), 2 % burst 15 readings,
 * and the producer forges every timestamp; a task manager is killed and the job is stopped with a
 * savepoint and restored while the devices report. No device passes a bound, each input is in the
 * output or the dead letters once, and each window's mean interval covers the released readings'
 * mean as often as 95 % allows.
 */
class DeviceFleetIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder()
          .taskManagers(2)
          .slotsPerTaskManager(1)
          .flinkConfiguration(FaultToleranceIT.restarts())
          .build();

  static final int DEVICES = 10_000;
  static final int WINDOWS = 12;
  static final long WINDOW = 2_000;
  static final long PERIOD = 48_000;
  static final long SLICE = 6_000;
  static final int BINS = 14;

  /** An hour, a day and 3 hours, 1,800 times faster. */
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
          id-field: id
          user-field: device
          passthrough: [id]
          fields:
            - {name: temperature, min: -20, max: 50, epsilon: 1}
          contribution: {records: 1, window: 2s}
          budget: {epsilon: 8, period: 48s, pacing: 6s}
          """);

  /** What a device reads: its own level, plus a little noise, inside the domain. */
  static double reading(SplittableRandom random, int device) {
    double level = 18 + 6 * new SplittableRandom(device).nextGaussian();
    return Math.max(-20, Math.min(50, level + random.nextGaussian()));
  }

  /**
   * Writes one window's readings: each device active with probability 0.3 sends 3, one in 50 sends
   * a burst of 15; every timestamp forged (a year back or ahead). Adds each record's reading by id
   * to {@code readings}; returns the records as written.
   */
  static List<KafkaRecord> window(
      KafkaFixture kafka, String topic, int w, SplittableRandom r, Map<String, Double> readings) {
    List<TestRecord> records = new ArrayList<>();
    for (int d = 0; d < DEVICES; d++) {
      double u = r.nextDouble();
      int n = u < 0.02 ? 15 : u < 0.32 ? 3 : 0;
      for (int i = 0; i < n; i++) {
        String id = "w" + w + "d" + d + "i" + i;
        double x = reading(r, d);
        readings.put(id, x);
        records.add(
            TestRecord.json(
                    "{\"id\":\"" + id + "\",\"device\":\"dev" + d + "\",\"temperature\":" + x + "}")
                .withKey("dev" + d)
                .withTimestamp(
                    System.currentTimeMillis() + (r.nextBoolean() ? -1 : 1) * 31_536_000_000L));
      }
    }
    return kafka.produceRecords(topic, records);
  }

  @Test
  void tenThousandDevicesStayWithinTheirBoundsThroughAKillAndARestoreAndTheWindowsStayUseful(
      @TempDir Path dir) throws Exception {
    String name = "fleet";
    KafkaFixture kafka = ENV.kafka();
    // The output stamped by the broker too: its append time less the raw record's is the latency.
    kafka.createRawTopic(name + "-raw", 2);
    kafka.createRawTopic(name + "-out", 2);
    kafka.createTopic(name + "-dead", 1);
    Map<String, Double> readings = Collections.synchronizedMap(new HashMap<>());
    List<KafkaRecord> inputs = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger produced = new AtomicInteger();
    CompletableFuture<Void> devices =
        CompletableFuture.runAsync(
            () -> {
              SplittableRandom random = new SplittableRandom(47);
              for (int w = 0; w < WINDOWS; w++) {
                inputs.addAll(window(kafka, name + "-raw", w, random, readings));
                produced.incrementAndGet();
                long now = System.currentTimeMillis();
                sleep(WINDOW - Math.floorMod(now, WINDOW)); // the next window of the broker's clock
              }
            });
    JobClient job =
        BudgetIT.submit(
            ENV.executionEnvironment(),
            BudgetIT.settings(kafka, CONFIG, name, false),
            "device fleet");
    String savepoint;
    try {
      Await.until("4 windows written", produced::get, n -> n >= 4);
      Await.until(
          "dead letters committed",
          () -> kafka.readCommitted(name + "-dead").size(),
          n -> n >= 1_000);
      ENV.miniCluster().terminateTaskManager(0).get();
      ENV.miniCluster().startTaskManager();
      Await.until("8 windows written", produced::get, n -> n >= 8);
      savepoint = stopWithSavepoint(job, dir);
    } catch (AssertionError | RuntimeException e) {
      job.cancel().get();
      throw e;
    }
    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    job =
        BudgetIT.submit(
            StreamExecutionEnvironment.getExecutionEnvironment(restore),
            BudgetIT.settings(kafka, CONFIG, name, false),
            "device fleet restored");
    try {
      devices.get();
      BudgetIT.awaitAccounted(kafka, name, readings.size());
    } finally {
      job.cancel().get();
    }

    List<KafkaRecord> out = BudgetIT.committed(kafka, name + "-out");
    List<KafkaRecord> dead = BudgetIT.committed(kafka, name + "-dead");
    assertThat(out.size() + dead.size()).isEqualTo(readings.size());
    for (KafkaRecord d : dead) {
      assertThat(BudgetIT.JSON.readTree(d.value()).get("reason").asText())
          .isIn("contribution-bound", "budget-exhausted");
    }
    // The raw topic's append times: every record's, the broker's not the producer's.
    Map<String, Long> appended = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r :
        kafka.consumeAll(name + "-raw", true, KafkaFixture.PATIENCE)) {
      appended.put(BudgetIT.JSON.readTree(r.value()).get("id").asText(), r.timestamp());
    }
    Map<String, List<Long>> releasedByDevice = new HashMap<>();
    TreeMap<Long, List<String>> idsByWindow = new TreeMap<>();
    Map<String, Double> perturbed = new HashMap<>();
    List<Long> latencies = new ArrayList<>();
    for (KafkaRecord r : out) {
      JsonNode json = BudgetIT.JSON.readTree(r.value());
      String id = json.get("id").asText();
      long t = appended.get(id);
      latencies.add(r.timestamp() - t);
      String device = id.substring(id.indexOf('d') + 1, id.indexOf('i'));
      releasedByDevice.computeIfAbsent(device, k -> new ArrayList<>()).add(t);
      idsByWindow.computeIfAbsent(Math.floorDiv(t, WINDOW), k -> new ArrayList<>()).add(id);
      perturbed.put(id, json.get("temperature").asDouble());
    }
    assertBoundsHold(releasedByDevice);
    Collections.sort(latencies);
    System.out.printf(
        "device fleet: from the raw append to the output's, median %d ms, 90th percentile %d ms"
            + " (a kill and a restore included)%n",
        latencies.get(latencies.size() / 2), latencies.get(latencies.size() * 9 / 10));
    PrivacyAssertions.assertPrivacyContract(CONFIG, inputs, out, dead);
    assertUseful(idsByWindow, readings, perturbed, out.size(), dead.size());
  }

  /** Per device: at most 1 per window, 8 per period, and by any time the slices begun. */
  static void assertBoundsHold(Map<String, List<Long>> releasedByDevice) {
    UserGuarantee promise = UserGuarantee.of(CONFIG);
    assertThat(promise.inWindow(0, WINDOW)).isEqualTo(1.0);
    for (Map.Entry<String, List<Long>> e : releasedByDevice.entrySet()) {
      List<Long> times = new ArrayList<>(e.getValue());
      Collections.sort(times);
      Map<Long, Integer> perWindow = new HashMap<>();
      Map<Long, Integer> perPeriod = new HashMap<>();
      for (long t : times) {
        assertThat(perWindow.merge(Math.floorDiv(t, WINDOW), 1, Integer::sum))
            .as("device %s, window of %d", e.getKey(), t)
            .isLessThanOrEqualTo(1);
        long period = Math.floorDiv(t, PERIOD);
        int spent = perPeriod.merge(period, 1, Integer::sum);
        long slicesBegun = Math.floorDiv(t - period * PERIOD, SLICE) + 1;
        assertThat((long) spent)
            .as("device %s by %d", e.getKey(), t)
            .isLessThanOrEqualTo(slicesBegun);
        assertThat(spent).isLessThanOrEqualTo(8);
      }
    }
  }

  /**
   * Each full window's mean interval (method em, as the aggregation's headline) covers the mean of
   * the readings it released, misses consistent with 95 % (Clopper-Pearson at 1e-3); prints the
   * counts, widths and histogram errors that docs/privacy.md quotes.
   */
  static void assertUseful(
      TreeMap<Long, List<String>> idsByWindow,
      Map<String, Double> readings,
      Map<String, Double> perturbed,
      int released,
      int refused) {
    FieldEstimator estimator =
        FieldEstimator.of(MechanismCatalog.of(CONFIG.fields().get(0).spec()), BINS);
    FieldBinning truthBins = FieldBinning.ofDomain(CONFIG.fields().get(0).domain(), BINS);
    int windows = 0;
    int misses = 0;
    List<Double> widths = new ArrayList<>();
    List<Double> histogramErrors = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    for (List<String> ids : idsByWindow.values()) {
      if (ids.size() < 500) {
        continue; // the edges of the run: a window the devices reported into only in part
      }
      FieldAccumulator acc = estimator.newAccumulator("temperature");
      double sum = 0;
      double[] truth = new double[BINS];
      for (String id : ids) {
        acc.add(perturbed.get(id), estimator.binning());
        double x = readings.get(id);
        sum += x;
        truth[truthBins.inputBin(x)] += 1.0 / ids.size();
      }
      FieldEstimate e = estimator.estimate(acc, true);
      Interval mean = e.linear().reconstructedMean();
      double trueMean = sum / ids.size();
      windows++;
      misses += mean.lower() <= trueMean && trueMean <= mean.upper() ? 0 : 1;
      widths.add(mean.upper() - mean.lower());
      double l1 = 0;
      for (int b = 0; b < BINS; b++) {
        l1 += Math.abs(e.reconstructedHistogram()[b] - truth[b]);
      }
      histogramErrors.add(l1);
      counts.add(ids.size());
    }
    Collections.sort(widths);
    Collections.sort(histogramErrors);
    Collections.sort(counts);
    System.out.printf(
        "device fleet: %d readings released, %d refused; %d full windows of %d to %d released"
            + " readings (median %d); mean interval width median %.2f (%.2f to %.2f) on [-20, 50];"
            + " %d of %d intervals missed; histogram L1 error (%d bins) median %.3f (%.3f to %.3f)%n",
        released,
        refused,
        windows,
        counts.get(0),
        counts.get(counts.size() - 1),
        counts.get(counts.size() / 2),
        widths.get(widths.size() / 2),
        widths.get(0),
        widths.get(widths.size() - 1),
        misses,
        windows,
        BINS,
        histogramErrors.get(histogramErrors.size() / 2),
        histogramErrors.get(0),
        histogramErrors.get(histogramErrors.size() - 1));
    assertThat(windows).isGreaterThanOrEqualTo(WINDOWS - 2);
    assertThat(ClopperPearson.lower(misses, windows, 1e-3)).isLessThanOrEqualTo(0.05);
    // Useful: an hour's mean to within a few degrees, the histogram's shape recovered.
    assertThat(widths.get(widths.size() / 2)).isLessThan(10.0);
    assertThat(histogramErrors.get(histogramErrors.size() / 2)).isLessThan(0.5);
  }

  /** Stops with a savepoint once the job runs again after the kill (a restarting job refuses). */
  static String stopWithSavepoint(JobClient job, Path dir) {
    return Await.until(
        "a savepoint",
        () -> {
          try {
            Await.jobStatus(job, JobStatus.RUNNING);
            return job.stopWithSavepoint(
                    false,
                    dir.resolve("savepoints").toUri().toString(),
                    SavepointFormatType.CANONICAL)
                .get();
          } catch (Exception e) {
            sleep(500);
            return null;
          }
        },
        path -> path != null);
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
