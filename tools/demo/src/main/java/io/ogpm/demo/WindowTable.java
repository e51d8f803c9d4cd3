package io.ogpm.demo;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.Histograms;
import io.ogpm.estimate.Interval;
import io.ogpm.estimate.QuantileEstimate;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The console's table of window statistics, each next to the truth of its window: the count, the
 * true and estimated means with the estimate's interval, the true and estimated medians with the
 * estimate's interval (read off the cumulative band: NaN for a mechanism without one), and each
 * histogram's distance from the true one. The batch run prints it once, the follow mode as windows
 * close.
 */
final class WindowTable {
  private WindowTable() {}

  static void print(
      PrintWriter out, PrivacyConfig config, List<WindowStat> stats, GroundTruth truth) {
    Map<String, FieldConfig> fields = new HashMap<>();
    config.fields().forEach(f -> fields.put(f.name(), f));
    out.printf(
        "%-24s %-11s %-20s %6s %10s %10s %23s %10s %10s %23s %9s %9s%n",
        "window",
        "group",
        "field",
        "n",
        "true mean",
        "estimate",
        "95% interval",
        "true med",
        "median",
        "95% interval",
        "hist EM",
        "hist raw");
    stats.stream()
        .sorted(
            (a, b) ->
                a.windowStart() != b.windowStart()
                    ? Long.compare(a.windowStart(), b.windowStart())
                    : a.field().compareTo(b.field()))
        .forEach(
            s -> {
              FieldConfig f = fields.get(s.field());
              GroundTruth.Cell c = truth.cell(s.windowStart(), s.group(), s.field());
              QuantileEstimate median = s.quantile(DemoReport.MEDIAN);
              Interval m = median == null ? Interval.pointOnly(Double.NaN) : median.interval();
              out.printf(
                  Locale.ROOT,
                  "%-24s %-11s %-20s %6d %10.4f %10.4f  [%9.4f, %9.4f] %10.4f %10.4f  [%9.4f, %9.4f]"
                      + " %9.4f %9.4f%n",
                  Instant.ofEpochMilli(s.windowStart()),
                  s.group(),
                  s.field(),
                  s.count(),
                  c == null ? Double.NaN : DemoReport.trueMean(f, c),
                  s.mean(),
                  s.lower(),
                  s.upper(),
                  c == null ? Double.NaN : c.quantile(DemoReport.MEDIAN),
                  m.estimate(),
                  m.lower(),
                  m.upper(),
                  c == null ? Double.NaN : Histograms.l1(s.histogram(), c.frequencies()),
                  c == null ? Double.NaN : Histograms.l1(s.rawHistogram(), c.frequencies()));
            });
    out.println(
        "(circular fields: circular means in the field's units, medians along the circle from its"
            + " start; hist: sum of |frequency - true frequency| over the bins)");
  }
}
