package io.ogpm.demo;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.Histograms;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.report.LineChart;
import io.ogpm.report.Series;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's HTML report: per field, the true, perturbed and reconstructed histograms of the whole
 * replay; the windowed means over time with their 95 % intervals next to the truth; circular
 * fields drawn on a circle. Charts are embedded as PNG, so the file stands alone.
 */
final class DemoReport {
  private DemoReport() {}

  static Path write(Path dir, PrivacyConfig config, GroundTruth truth, List<WindowStat> stats,
      Map<String, FieldEstimate> overall, Map<String, FieldEstimator> estimators, String summary) {
    StringBuilder html = new StringBuilder();
    html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>ogpm demo report</title><style>")
        .append("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}")
        .append("table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}")
        .append("th{background:#f3f3f3}img{max-width:100%}h2{margin-top:2em;border-bottom:1px solid #ddd}")
        .append("</style></head><body><h1>ogpm-flink demo</h1><p>").append(escape(summary)).append("</p>");
    long first = stats.stream().mapToLong(WindowStat::windowStart).min().orElse(0);
    for (FieldConfig f : config.fields()) {
      FieldEstimate all = overall.get(f.name());
      FieldEstimator estimator = estimators.get(f.name());
      GroundTruth.Cell t = truth.overall(f.name());
      html.append("<h2>").append(escape(f.name())).append("</h2><p>")
          .append(escape(f.domain().toString())).append(", epsilon ").append(f.epsilon()).append(", mechanism ")
          .append(f.mechanism().id()).append("</p>");
      if (all != null && t != null) {
        html.append(img(histogramChart(f, estimator, t.frequencies(), all)));
        if (f.domain().isCircular() && all.reconstructedHistogram() != null) {
          html.append(img(circleChart(f, t.frequencies(), all.reconstructedHistogram())));
        }
      }
      List<WindowStat> mine = stats.stream().filter(s -> s.field().equals(f.name())).toList();
      if (!mine.isEmpty()) {
        html.append(img(meansChart(f, mine, truth, first)));
        html.append(table(f, mine, truth));
      }
    }
    html.append("<p>Data: MotionSense (Malekzadeh, Clegg, Cavallaro, Haddadi, IoTDI 2019), MIT-licensed.</p></body></html>");
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve("index.html");
      Files.writeString(file, html, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + dir, e);
    }
  }

  private static LineChart histogramChart(FieldConfig f, FieldEstimator e, double[] truth, FieldEstimate all) {
    double[] x = new double[truth.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = e.binning().inputBinCentre(i);
    }
    List<Series> series = new ArrayList<>();
    series.add(Series.of("true", x, truth, Series.Style.SOLID_LINE));
    series.add(Series.of("perturbed (raw)", x, all.rawHistogram(), Series.Style.DASHED_LINE));
    if (all.reconstructedHistogram() != null) {
      series.add(Series.of("reconstructed (EMS)", x, all.reconstructedHistogram()));
    }
    return LineChart.builder().title(f.name() + ": distribution of the whole replay").xLabel(f.name())
        .yLabel("frequency").series(series).build();
  }

  /** Histograms as closed curves around a circle: radius 1 + 10 x frequency per bin. */
  private static LineChart circleChart(FieldConfig f, double[] truth, double[] reconstructed) {
    int k = truth.length;
    double[] cx = new double[361];
    double[] cy = new double[361];
    for (int i = 0; i <= 360; i++) {
      cx[i] = Math.cos(Math.toRadians(i));
      cy[i] = Math.sin(Math.toRadians(i));
    }
    double max = 1;
    List<Series> series = new ArrayList<>();
    series.add(Series.of("circle", cx, cy, Series.Style.SOLID_LINE));
    for (Object[] h : new Object[][] {{"true", truth}, {"reconstructed (EMS)", reconstructed}}) {
      double[] freq = (double[]) h[1];
      double[] x = new double[k + 1];
      double[] y = new double[k + 1];
      for (int i = 0; i <= k; i++) {
        double angle = 2 * Math.PI * ((i % k) + 0.5) / k + Math.PI;
        double r = 1 + 10 * freq[i % k];
        x[i] = r * Math.cos(angle);
        y[i] = r * Math.sin(angle);
        max = Math.max(max, r);
      }
      series.add(Series.of((String) h[0], x, y));
    }
    double m = Math.ceil(max * 1.1 * 10) / 10;
    return LineChart.builder().title(f.name() + " on the circle (radius 1 + 10 x frequency)")
        .xLabel("cos").yLabel("sin").series(series).xRange(-m, m).yRange(-m, m).size(640, 640).build();
  }

  private static LineChart meansChart(FieldConfig f, List<WindowStat> stats, GroundTruth truth, long first) {
    List<WindowStat> sorted = stats.stream().sorted((a, b) -> Long.compare(a.windowStart(), b.windowStart())).toList();
    int n = sorted.size();
    double[] x = new double[n];
    double[] est = new double[n];
    double[] lo = new double[n];
    double[] hi = new double[n];
    double[] tr = new double[n];
    for (int i = 0; i < n; i++) {
      WindowStat s = sorted.get(i);
      x[i] = (s.windowStart() - first) / 1000.0;
      est[i] = s.mean();
      lo[i] = s.lower();
      hi[i] = s.upper();
      GroundTruth.Cell c = truth.cell(s.windowStart(), s.group(), f.name());
      tr[i] = c == null ? Double.NaN : trueMean(f, c);
    }
    return LineChart.builder().title(f.name() + ": windowed mean with 95 % interval").xLabel("window start (s)")
        .yLabel(f.domain().isCircular() ? "circular mean" : "mean")
        .series(Series.of("true mean", x, tr, Series.Style.SOLID_LINE))
        .series(Series.of("estimate", x, est, Series.Style.MARKERS_ONLY))
        .series(Series.of("95 % lower", x, lo, Series.Style.DASHED_LINE))
        .series(Series.of("95 % upper", x, hi, Series.Style.DASHED_LINE))
        .build();
  }

  /** The truth in the field's units. */
  static double trueMean(FieldConfig f, GroundTruth.Cell c) {
    if (!f.domain().isCircular()) {
      return c.mean();
    }
    double lo = f.domain().lo();
    double w = f.domain().width();
    double v = lo + w * c.circularMean() / (2 * Math.PI);
    return v < lo ? v + w : v;
  }

  private static String table(FieldConfig f, List<WindowStat> stats, GroundTruth truth) {
    StringBuilder t = new StringBuilder("<table><tr><th>window start</th><th>group</th><th>n</th><th>true mean</th>"
        + "<th>estimate</th><th>95 % interval</th><th>histogram error (EM)</th><th>histogram error (raw)</th></tr>");
    for (WindowStat s : stats.stream().sorted((a, b) -> Long.compare(a.windowStart(), b.windowStart())).toList()) {
      GroundTruth.Cell c = truth.cell(s.windowStart(), s.group(), f.name());
      t.append("<tr><td>").append(java.time.Instant.ofEpochMilli(s.windowStart())).append("</td><td>")
          .append(escape(String.valueOf(s.group()))).append("</td><td>").append(s.count()).append("</td><td>")
          .append(c == null ? "" : fmt(trueMean(f, c))).append("</td><td>").append(fmt(s.mean())).append("</td><td>[")
          .append(fmt(s.lower())).append(", ").append(fmt(s.upper())).append("]</td><td>")
          .append(c == null ? "" : fmt(Histograms.l1(s.histogram(), c.frequencies()))).append("</td><td>")
          .append(c == null ? "" : fmt(Histograms.l1(s.rawHistogram(), c.frequencies()))).append("</td></tr>");
    }
    return t.append("</table>").toString();
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }

  private static String img(LineChart chart) {
    return "<p><img alt=\"" + escape(chart.title()) + "\" src=\"data:image/png;base64,"
        + Base64.getEncoder().encodeToString(chart.toPngBytes()) + "\"></p>";
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
