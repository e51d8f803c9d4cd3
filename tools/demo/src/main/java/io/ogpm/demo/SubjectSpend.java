package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.config.UserGuarantee;
import io.ogpm.record.JsonFields;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the replay's subjects spent, beside what a record spends: the most records one subject had
 * released in one window and over the whole replay, times a record's epsilon (sequential
 * composition), and what the configuration bounds a window at. A per-record figure alone hides that
 * a sensor sends hundreds of records per window.
 */
final class SubjectSpend {
  private final long mostInAWindow;
  private final long mostInAll;
  private final double perRecord;
  private final double bound;
  private final boolean contribution;
  private final long windowMs;

  private SubjectSpend(
      long mostInAWindow,
      long mostInAll,
      double perRecord,
      double bound,
      boolean contribution,
      long windowMs) {
    this.mostInAWindow = mostInAWindow;
    this.mostInAll = mostInAll;
    this.perRecord = perRecord;
    this.bound = bound;
    this.contribution = contribution;
    this.windowMs = windowMs;
  }

  /**
   * Of the raw JSON records released (the perturbed ones' inputs), by the configuration's user
   * field and windows of {@code windowMs} on {@code timeField}; a record without either is not
   * counted.
   */
  static SubjectSpend of(
      List<String> released, PrivacyConfig config, String timeField, long windowMs) {
    Map<String, Long> byWindow = new HashMap<>();
    Map<String, Long> byUser = new HashMap<>();
    List<String> userPath = config.userField().map(u -> List.of(u.split("\\."))).orElse(null);
    List<String> timePath = List.of(timeField.split("\\."));
    ObjectMapper json = new ObjectMapper();
    for (String r : released) {
      JsonNode root;
      try {
        root = json.readTree(r);
      } catch (IOException e) {
        continue;
      }
      JsonNode user = userPath == null ? null : JsonFields.at(root, userPath);
      JsonNode ts = JsonFields.at(root, timePath);
      if (user == null || ts == null || !ts.canConvertToLong()) {
        continue;
      }
      byWindow.merge(user.asText() + "/" + Math.floorDiv(ts.asLong(), windowMs), 1L, Long::sum);
      byUser.merge(user.asText(), 1L, Long::sum);
    }
    return new SubjectSpend(
        byWindow.values().stream().mapToLong(Long::longValue).max().orElse(0),
        byUser.values().stream().mapToLong(Long::longValue).max().orElse(0),
        config.epsilonPerRecord(),
        UserGuarantee.of(config).inWindow(0, windowMs), // an aligned window
        config.contribution().isPresent(),
        windowMs);
  }

  /** The most epsilon one subject spent in one window. */
  double mostInAWindow() {
    return mostInAWindow * perRecord;
  }

  /** The window's bound per subject: infinite without one. */
  double bound() {
    return bound;
  }

  /**
   * One line: for example {@code each subject: 5.5 per record, up to 2,750 in one 10 s window (500
   * records) and 41,250 over the replay (7,500 records); no bound per window configured}.
   */
  String describe() {
    return String.format(
        Locale.ROOT,
        "each subject: %s per record, up to %s in one %s window (%,d records) and %s over the"
            + " replay (%,d records); %s",
        epsilon(perRecord),
        epsilon(mostInAWindow * perRecord),
        windowMs % 1000 == 0 ? windowMs / 1000 + " s" : windowMs + " ms",
        mostInAWindow,
        epsilon(mostInAll * perRecord),
        mostInAll,
        Double.isInfinite(bound)
            ? "no bound per window configured (contribution: in docs/privacy.md)"
            : contribution
                ? "bounded at " + epsilon(bound) + " per window"
                : "a window bounded only by the period's budget, "
                    + epsilon(bound)
                    + " (contribution: in docs/privacy.md)");
  }

  /** Seven significant digits: a sampled record's epsilon is a hair below its round figure. */
  private static String epsilon(double e) {
    return FieldSampling.rounded(e);
  }
}
