package io.ogpm.flink.aggregate;

import io.ogpm.config.ConfigFingerprint;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks that a perturbed record was perturbed under the aggregation's configuration: its
 * fingerprint ({@link ConfigFingerprint}, Kafka header {@value ConfigFingerprint#HEADER}) must be
 * the aggregation's own. Others would be estimated with the wrong domain or transition matrix, so
 * they are skipped and counted ({@code recordsSkipped} with {@code reason} {@value #MISMATCH} or
 * {@value #MISSING}), with one WARN line per distinct fingerprint seen (up to {@value #MAX_LOGGED},
 * then one line saying that further ones are not logged: a producer cannot flood the log). The line
 * names the two fingerprints, never a value.
 *
 * <p>Not thread-safe; one per subtask.
 */
@Internal
public final class ConfigCheck {
  static final String MISMATCH = "config-mismatch";
  static final String MISSING = "config-missing";
  static final int MAX_LOGGED = 64;
  private static final Logger LOG = LoggerFactory.getLogger(ConfigCheck.class);

  private final String expected;
  private final Consumer<String> warn;
  private final Set<String> logged = new HashSet<>();
  private Counter mismatched;
  private Counter missing;

  public ConfigCheck(ConfigFingerprint expected) {
    this(expected, LOG::warn);
  }

  /** With the WARN lines going to {@code warn} (tests). */
  ConfigCheck(ConfigFingerprint expected, Consumer<String> warn) {
    this.expected = expected.value();
    this.warn = warn;
  }

  /**
   * Registers the counters: {@code recordsSkipped} under {@code reason=config-mismatch} and {@code
   * reason=config-missing}.
   */
  public void open(MetricGroup metrics) {
    mismatched = metrics.addGroup("reason", MISMATCH).counter("recordsSkipped");
    missing = metrics.addGroup("reason", MISSING).counter("recordsSkipped");
  }

  /**
   * Whether a record with this fingerprint (null: none) may be aggregated; counts and logs one that
   * may not.
   */
  public boolean accepts(String fingerprint) {
    if (expected.equals(fingerprint)) {
      return true;
    }
    (fingerprint == null ? missing : mismatched).inc();
    String kind =
        fingerprint == null ? "" : ConfigFingerprint.parse(fingerprint) == null ? "?" : fingerprint;
    if (logged.size() <= MAX_LOGGED && logged.add(kind)) {
      if (logged.size() > MAX_LOGGED) {
        warn.accept(
            "more than "
                + MAX_LOGGED
                + " kinds of perturbed records of another configuration:"
                + " further ones are counted in recordsSkipped but not logged");
      } else if (fingerprint == null) {
        warn.accept(
            "skipping perturbed records without the "
                + ConfigFingerprint.HEADER
                + " header (the aggregation's"
                + " configuration is "
                + expected
                + "): perturbed by an older job or written by another producer;"
                + " counted in recordsSkipped{reason="
                + MISSING
                + "}");
      } else {
        warn.accept(
            "skipping perturbed records of configuration "
                + ConfigFingerprint.shown(fingerprint)
                + ", not the aggregation's "
                + expected
                + ": their values mean something else (fields,"
                + " domains, epsilon, mechanisms or grid differ); counted in recordsSkipped{reason="
                + MISMATCH
                + "}");
      }
    }
    return false;
  }
}
