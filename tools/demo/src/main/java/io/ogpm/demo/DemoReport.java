package io.ogpm.demo;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.CumulativeBand;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.estimate.Histograms;
import io.ogpm.estimate.QuantileEstimate;
import io.ogpm.report.Html;
import io.ogpm.report.SvgChart;
import io.ogpm.report.SvgChart.Axis;
import io.ogpm.report.SvgChart.Kind;
import io.ogpm.report.Ticks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's HTML report, one static file with inline SVG: first the accounting (records in,
 * perturbed, dead-lettered by reason, values late or lost per field; a mismatch in red), then per
 * field the true, perturbed and reconstructed histograms, a circular field's histograms around the
 * circle, the cumulative distribution's 95 % band with the reconstructed and the true cumulative
 * distributions, the windowed means with their 95 % intervals next to the truth, and the windowed
 * median with its interval and the other quantiles next to theirs. Every chart is titled with its
 * field, unit and epsilon; each kind of series looks the same in every chart ({@link
 * SvgChart.Kind}). A live report (demo --follow) reloads itself every few seconds. The file is
 * well-formed XML (XHTML syntax), so tests parse it.
 */
final class DemoReport {
  static final int REFRESH_SECONDS = 5;

  private DemoReport() {}

  /** What a report shows. {@code overall} and {@code estimators} may be null (a live report). */
  record Content(
      String heading,
      PrivacyConfig config,
      Duration window,
      ReportAccounting accounting,
      GroundTruth truth,
      List<WindowStat> stats,
      Map<String, FieldEstimate> overall,
      Map<String, FieldEstimator> estimators,
      boolean live) {}

  static Path write(Path dir, Content c) {
    StringBuilder html = new StringBuilder();
    html.append(
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>");
    if (c.live()) {
      html.append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\"/>");
    }
    html.append("<title>ogpm demo report</title><style>")
        .append("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}")
        .append("table{border-collapse:collapse;font-size:13px;margin:0.5em 0}")
        .append(
            "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}")
        .append(
            "td.name,th.name{text-align:left}tr.mismatch td{color:#b00000;font-weight:bold;background:#fde8e8}")
        .append(
            "h2{margin-top:2em;border-bottom:1px solid #ddd}svg.chart{display:block;margin:1em 0}")
        .append("span.hint{color:#8a5a00;font-size:12px}")
        .append("</style></head><body><h1>ogpm-flink demo</h1>");
    html.append("<p class=\"heading\">").append(Html.escape(c.heading())).append("</p>");
    accounting(html, c);
    long first = c.stats().stream().mapToLong(WindowStat::windowStart).min().orElse(0);
    for (FieldConfig f : c.config().fields()) {
      html.append("<section class=\"field\" id=\"")
          .append(Html.escape(f.name()))
          .append("\"><h2>")
          .append(Html.escape(f.name()))
          .append("</h2><p>")
          .append(Html.escape(domain(f)))
          .append(", unit ")
          .append(Html.escape(unit(f)))
          .append(", epsilon ")
          .append(io.ogpm.config.FieldSampling.rounded(f.epsilon()))
          .append(sampled(c.config()))
          .append(", mechanism ")
          .append(f.mechanism().id())
          .append("</p>");
      List<WindowStat> mine =
          c.stats().stream()
              .filter(s -> s.field().equals(f.name()))
              .sorted((a, b) -> Long.compare(a.windowStart(), b.windowStart()))
              .toList();
      GroundTruth.Cell t = c.truth().overall(f.name());
      FieldEstimate all = c.overall() == null ? null : c.overall().get(f.name());
      if (all != null && t != null) {
        double[] em = all.reconstructedHistogram();
        html.append(
            histogramChart(f, t.frequencies(), all.rawHistogram(), em, "the whole replay").toSvg());
        if (f.domain().isCircular()) {
          html.append(circleChart(f, t.frequencies(), all.rawHistogram(), em, "the whole replay"));
        }
        if (all.distribution() != null) {
          html.append(cdfChart(f, all.distribution().cdf(), em, t, "the whole replay"));
        }
      } else if (!mine.isEmpty()) {
        // Live: the last closed window's histograms.
        WindowStat last = mine.get(mine.size() - 1);
        GroundTruth.Cell lt = c.truth().cell(last.windowStart(), last.group(), f.name());
        if (lt != null) {
          String which = "the window from " + Instant.ofEpochMilli(last.windowStart());
          html.append(
              histogramChart(f, lt.frequencies(), last.rawHistogram(), last.histogram(), which)
                  .toSvg());
          if (f.domain().isCircular()) {
            html.append(
                circleChart(f, lt.frequencies(), last.rawHistogram(), last.histogram(), which));
          }
          if (last.distribution() != null) {
            html.append(cdfChart(f, last.distribution().cdf(), last.histogram(), lt, which));
          }
        }
      }
      if (!mine.isEmpty()) {
        html.append(meansChart(f, mine, c.truth(), first, c.window()).toSvg());
        html.append(table(f, mine, c.truth()));
        SvgChart median = medianChart(f, mine, c.truth(), first, c.window());
        if (median != null) {
          html.append(median.toSvg());
          html.append(quantileTable(f, mine, c.truth()));
        }
      }
      html.append("</section>");
    }
    html.append(
        "<p>Data: MotionSense (Malekzadeh, Clegg, Cavallaro, Haddadi, IoTDI 2019), MIT-licensed.</p></body></html>\n");
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve("index.html");
      // Written next to it and moved over it, so a browser reloading a live report never reads half
      // a file.
      Path tmp = dir.resolve(".index.html.tmp");
      Files.writeString(tmp, html, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + dir, e);
    }
  }

  private static void accounting(StringBuilder html, Content c) {
    ReportAccounting a = c.accounting();
    html.append("<section class=\"accounting\"><h2>Accounting</h2><table class=\"accounting\">")
        .append(
            "<tr><th class=\"name\">records</th><th>count</th><th class=\"name\">check</th></tr>");
    count(html, "in (replayed into " + DemoTopics.RAW + ")", a.recordsIn());
    if (a.perturbed() != null) {
      count(html, "perturbed (in " + DemoTopics.PERTURBED + ")", a.perturbed());
    } else {
      row(html, "perturbed", "\u2014", "not re-read while live", false);
    }
    count(html, "dead-lettered (in " + DemoTopics.DEAD + ")", a.deadLettered());
    a.deadByReason().forEach((reason, n) -> count(html, "\u2003reason " + reason, n));
    if (a.perturbed() != null) {
      long u = a.unaccounted();
      row(
          html,
          "perturbed + dead-lettered",
          Long.toString(a.perturbed() + a.deadLettered()),
          u == 0
              ? "= records in"
              : u > 0
                  ? "mismatch: " + u + " records unaccounted for"
                  : "mismatch: " + (-u) + " records too many (duplicates)",
          u != 0);
    }
    for (FieldConfig f : c.config().fields()) {
      long expected = a.expectedPerField().getOrDefault(f.name(), 0L);
      long counted = a.countedPerField().getOrDefault(f.name(), 0L);
      long missing = a.missing(f.name());
      row(
          html,
          "values of " + f.name() + " in window statistics",
          Long.toString(counted),
          missing == 0
              ? "= " + expected + " expected, 0 late"
              : "mismatch: "
                  + counted
                  + " of "
                  + expected
                  + (missing > 0
                      ? " (" + missing + " late or lost)"
                      : " (" + (-missing) + " too many)"),
          missing != 0);
    }
    html.append("</table></section>");
  }

  /** A row of a count with nothing to check. */
  private static void count(StringBuilder html, String name, long count) {
    row(html, name, Long.toString(count), "", false);
  }

  private static void row(
      StringBuilder html, String name, String count, String check, boolean mismatch) {
    html.append(mismatch ? "<tr class=\"mismatch\">" : "<tr>")
        .append("<td class=\"name\">")
        .append(Html.escape(name))
        .append("</td><td>")
        .append(Html.escape(count))
        .append("</td><td class=\"name\">")
        .append(Html.escape(check))
        .append("</td></tr>");
  }

  /**
   * The unit a chart states. The configuration has none: the sample's (acceleration in g) by name,
   * radians for a domain whose ends are multiples of pi/2, else "field units".
   */
  /** A field with its unit, as the charts' axes name it. */
  private static String label(FieldConfig f) {
    return f.name() + " (" + unit(f) + ")";
  }

  /** A chart's title starts with the field, its unit and its epsilon. */
  private static String title(FieldConfig f) {
    return label(f) + ", " + eps(f) + ": ";
  }

  static String unit(FieldConfig f) {
    if (f.name().startsWith("userAcceleration.")) {
      return "g";
    }
    return Ticks.isAngleRange(f.domain().lo(), f.domain().hi()) ? "rad" : "field units";
  }

  /** "interval [-3, 3]" or "circle [-π, π)", without float noise. */
  private static String domain(FieldConfig f) {
    double lo = f.domain().lo();
    double hi = f.domain().hi();
    String l = angle(f) ? Ticks.piLabel(Math.round(lo / (Math.PI / 4))) : trim(lo);
    String h = angle(f) ? Ticks.piLabel(Math.round(hi / (Math.PI / 4))) : trim(hi);
    return f.domain().isCircular()
        ? "circle [" + l + ", " + h + ")"
        : "interval [" + l + ", " + h + "]";
  }

  private static boolean angle(FieldConfig f) {
    return Ticks.isAngleRange(f.domain().lo(), f.domain().hi());
  }

  private static String eps(FieldConfig f) {
    return "\u03b5 = "
        + io.ogpm.config.FieldSampling.rounded(f.epsilon())
        + ", "
        + f.mechanism().id();
  }

  private static String trim(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /** With field sampling, what each report is: one of the K fields a record reports. */
  private static String sampled(io.ogpm.config.PrivacyConfig config) {
    return config
        .sampling()
        .filter(io.ogpm.config.FieldSampling::samples)
        .map(
            s ->
                " (each record reports "
                    + s.fieldsPerRecord()
                    + " of its "
                    + s.units()
                    + " fields)")
        .orElse("");
  }

  /** The true, perturbed and reconstructed histograms. */
  private static SvgChart histogramChart(
      FieldConfig f, double[] truth, double[] raw, double[] em, String of) {
    double lo = f.domain().lo();
    double hi = f.domain().hi();
    int k = truth.length;
    double[] x = new double[k];
    for (int i = 0; i < k; i++) {
      x[i] = lo + (hi - lo) * (i + 0.5) / k;
    }
    double top = max(truth, raw, em);
    String xName = label(f);
    Axis xAxis = angle(f) ? Axis.angle(xName, lo, hi) : Axis.fixed(xName, lo, hi);
    SvgChart chart =
        new SvgChart(
                title(f) + "distribution of " + of + ", " + k + " bins",
                xAxis,
                Axis.round("share of records per bin", 0, top))
            .line(Kind.TRUE, x, truth)
            .line(Kind.PERTURBED, x, raw);
    if (em != null) {
      chart.line(Kind.RECONSTRUCTED, x, em);
    }
    return chart;
  }

  /**
   * The 95 % band for the cumulative distribution F of {@code of}, with the reconstruction's F and
   * the true one; below it, how many of the band's points the true F lies outside.
   *
   * <p>The band bounds F at its points only, but F never decreases: between two points it lies
   * between the lower end at the first and the upper end at the second. The shading is that
   * envelope, one step per pair of points, so it holds F everywhere whenever the band holds at its
   * points. The true F is the raw values' own ({@link GroundTruth.Cell#share}), at the band's
   * points; the reconstruction's is its histogram summed up to each bin's end.
   */
  private static String cdfChart(
      FieldConfig f, CumulativeBand band, double[] em, GroundTruth.Cell truth, String of) {
    double lo = f.domain().lo();
    double hi = f.domain().hi();
    double[] points = band.points();
    double[] lower = band.lower();
    double[] upper = band.upper();
    int m = points.length;
    double[] trueShare = new double[m];
    int outside = 0;
    for (int k = 0; k < m; k++) {
      trueShare[k] = truth.share(points[k]);
      if (trueShare[k] < lower[k] || trueShare[k] > upper[k]) {
        outside++;
      }
    }
    String xName = label(f);
    Axis xAxis = angle(f) ? Axis.angle(xName, lo, hi) : Axis.fixed(xName, lo, hi);
    String yName =
        f.domain().isCircular()
            ? "share of records from " + start(f) + " to t"
            : "share of records at or below t";
    SvgChart chart =
        new SvgChart(
                title(f) + "cumulative distribution of " + of + " with 95 % band",
                xAxis,
                Axis.fixed(yName, 0, 1))
            .band(
                Kind.BAND,
                Arrays.copyOf(points, m - 1),
                Arrays.copyOfRange(points, 1, m),
                Arrays.copyOf(lower, m - 1),
                Arrays.copyOfRange(upper, 1, m))
            .line(Kind.TRUE, points, trueShare);
    if (em != null) {
      int k = em.length;
      double[] x = new double[k + 1];
      double[] cumulative = new double[k + 1];
      x[0] = lo;
      for (int i = 0; i < k; i++) {
        x[i + 1] = lo + (hi - lo) * (i + 1) / k;
        cumulative[i + 1] = cumulative[i] + em[i];
      }
      chart.line(Kind.RECONSTRUCTED, x, cumulative);
    }
    return chart.toSvg()
        + "<p class=\"cdf-check\">"
        + (outside == 0
            ? "The true cumulative distribution lies inside the band at all "
                + m
                + " of its points."
            : "The true cumulative distribution lies outside the band at "
                + outside
                + " of its "
                + m
                + " points (the band holds at all of them in at least 95 % of windows).")
        + "</p>";
  }

  /** Where a circular field's cumulative distribution starts: its domain's lower end. */
  private static String start(FieldConfig f) {
    double lo = f.domain().lo();
    return angle(f) ? Ticks.piLabel(Math.round(lo / (Math.PI / 4))) : trim(lo);
  }

  private static String circleChart(
      FieldConfig f, double[] truth, double[] raw, double[] em, String of) {
    List<Kind> kinds = new ArrayList<>(List.of(Kind.TRUE, Kind.PERTURBED));
    List<double[]> hs = new ArrayList<>(List.of(truth, raw));
    if (em != null) {
      kinds.add(Kind.RECONSTRUCTED);
      hs.add(em);
    }
    return SvgChart.polar(
        title(f) + of + " on the circle (radius 1 + 10 x share)",
        f.domain().lo(),
        f.domain().width(),
        angle(f),
        10,
        kinds.toArray(Kind[]::new),
        hs.toArray(double[][]::new));
  }

  private static double max(double[]... arrays) {
    double m = 0;
    for (double[] a : arrays) {
      if (a != null) {
        m = Math.max(m, Arrays.stream(a).filter(Double::isFinite).max().orElse(0));
      }
    }
    return m > 0 ? m : 1;
  }

  private static SvgChart meansChart(
      FieldConfig f, List<WindowStat> sorted, GroundTruth truth, long first, Duration window) {
    boolean circular = f.domain().isCircular();
    String what = circular ? "circular mean" : "mean";
    return perWindowChart(
        f,
        sorted,
        first,
        window,
        s -> new double[] {s.mean(), s.lower(), s.upper()},
        truth,
        c -> trueMean(f, c),
        what,
        "",
        circular);
  }

  /**
   * The median per window with its 95 % interval, next to the true median; null when no window has
   * one (a mechanism without a band). On a circle the median is along the circle from the domain's
   * start, as F is, so its interval never crosses the seam.
   */
  private static SvgChart medianChart(
      FieldConfig f, List<WindowStat> sorted, GroundTruth truth, long first, Duration window) {
    return perWindowChart(
        f,
        sorted,
        first,
        window,
        s -> {
          QuantileEstimate q = s.quantile(MEDIAN);
          return q == null
              ? null
              : new double[] {q.interval().estimate(), q.interval().lower(), q.interval().upper()};
        },
        truth,
        c -> c.quantile(MEDIAN),
        "median",
        f.domain().isCircular() ? " (along the circle from " + start(f) + ")" : "",
        false);
  }

  /**
   * A value per window with its 95 % interval ({estimate, lower, upper}, or null where the window
   * has none) next to the truth (NaN for a window without its cell); null when no window has one.
   * {@code wraps}: the intervals may cross a circle's seam.
   */
  private static SvgChart perWindowChart(
      FieldConfig f,
      List<WindowStat> sorted,
      long first,
      Duration window,
      java.util.function.Function<WindowStat, double[]> value,
      GroundTruth truth,
      java.util.function.ToDoubleFunction<GroundTruth.Cell> trueValue,
      String what,
      String note,
      boolean wraps) {
    int n = sorted.size();
    double[] x = new double[n];
    double[] est = new double[n];
    double[] lo = new double[n];
    double[] hi = new double[n];
    double[] tr = new double[n];
    double yMin = Double.POSITIVE_INFINITY;
    double yMax = Double.NEGATIVE_INFINITY;
    boolean any = false;
    for (int i = 0; i < n; i++) {
      WindowStat s = sorted.get(i);
      x[i] = (s.windowStart() - first) / 1000.0;
      double[] v = value.apply(s);
      any |= v != null;
      est[i] = v == null ? Double.NaN : v[0];
      lo[i] = v == null ? Double.NaN : v[1];
      hi[i] = v == null ? Double.NaN : v[2];
      GroundTruth.Cell c = truth.cell(s.windowStart(), s.group(), f.name());
      tr[i] = c == null ? Double.NaN : trueValue.applyAsDouble(c);
      for (double y : new double[] {est[i], lo[i], hi[i], tr[i]}) {
        if (Double.isFinite(y)) {
          yMin = Math.min(yMin, y);
          yMax = Math.max(yMax, y);
        }
      }
    }
    if (!any) {
      return null;
    }
    double step = window.toMillis() / 1000.0;
    return new SvgChart(
            title(f) + what + " per " + trim(step) + " s window with 95 % interval" + note,
            windowAxis(first, step, x[n - 1]),
            valueAxis(f, what + " (" + unit(f) + ")", yMin, yMax))
        .intervals(Kind.INTERVAL, x, lo, hi, wraps)
        .line(Kind.TRUE, x, tr)
        .line(Kind.ESTIMATE, x, est);
  }

  /** The probability of the median. */
  static final double MEDIAN = 0.5;

  /** Windows along the x axis, in seconds after the first, half a window beyond each end. */
  private static Axis windowAxis(long first, double step, double last) {
    return Axis.fixed(
        "window start (s after " + Instant.ofEpochMilli(first) + ")", -step / 2, last + step / 2);
  }

  /**
   * A value of the field on the y axis: its whole domain on a circle (multiples of pi/2 for
   * angles), else round ticks around the values shown.
   */
  private static Axis valueAxis(FieldConfig f, String name, double yMin, double yMax) {
    if (angle(f)) {
      return Axis.angle(name, f.domain().lo(), f.domain().hi());
    }
    if (f.domain().isCircular()) {
      return Axis.fixed(name, f.domain().lo(), f.domain().hi());
    }
    return Axis.round(
        name,
        Double.isFinite(yMin) ? yMin : f.domain().lo(),
        Double.isFinite(yMax) ? yMax : f.domain().hi());
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
    StringBuilder t =
        new StringBuilder(
            "<table class=\"windows\"><tr><th>window start</th><th>group</th><th>n</th>"
                + "<th>true mean</th><th>estimate</th><th>95 % interval</th><th>histogram error (EM)</th>"
                + "<th>histogram error (raw)</th></tr>");
    for (WindowStat s : stats) {
      GroundTruth.Cell c = truth.cell(s.windowStart(), s.group(), f.name());
      t.append("<tr><td>")
          .append(Instant.ofEpochMilli(s.windowStart()))
          .append("</td><td>")
          .append(Html.escape(String.valueOf(s.group())))
          .append("</td><td>")
          .append(s.count())
          .append("</td><td>")
          .append(c == null ? "" : fmt(trueMean(f, c)))
          .append("</td><td>")
          .append(fmt(s.mean()))
          .append("</td><td>[")
          .append(fmt(s.lower()))
          .append(", ")
          .append(fmt(s.upper()))
          .append("]")
          .append(f.domain().isCircular() && s.lower() > s.upper() ? " across the seam" : "")
          .append(unidentified(s))
          .append("</td><td>")
          .append(c == null ? "" : fmt(Histograms.l1(s.histogram(), c.frequencies())))
          .append("</td><td>")
          .append(c == null ? "" : fmt(Histograms.l1(s.rawHistogram(), c.frequencies())))
          .append("</td></tr>");
    }
    return t.append("</table>").toString();
  }

  /**
   * Each window's quantiles (those the aggregation asked for: 0.1, 0.5 and 0.9 by default), each
   * with its 95 % interval next to the true quantile of the window's values.
   */
  private static String quantileTable(FieldConfig f, List<WindowStat> stats, GroundTruth truth) {
    List<Double> probabilities =
        stats.stream()
            .filter(s -> s.distribution() != null)
            .flatMap(s -> s.distribution().quantiles().stream())
            .map(QuantileEstimate::probability)
            .distinct()
            .sorted()
            .toList();
    StringBuilder t =
        new StringBuilder(
            "<table class=\"quantiles\"><tr><th>window start</th><th>group</th><th>n</th>");
    for (double p : probabilities) {
      t.append("<th>true ")
          .append(quantileName(p))
          .append("</th><th>")
          .append(quantileName(p))
          .append(" with 95 % interval</th>");
    }
    t.append("</tr>");
    for (WindowStat s : stats) {
      GroundTruth.Cell c = truth.cell(s.windowStart(), s.group(), f.name());
      t.append("<tr><td>")
          .append(Instant.ofEpochMilli(s.windowStart()))
          .append("</td><td>")
          .append(Html.escape(String.valueOf(s.group())))
          .append("</td><td>")
          .append(s.count())
          .append("</td>");
      for (double p : probabilities) {
        QuantileEstimate q = s.quantile(p);
        t.append("<td>")
            .append(c == null ? "" : fmt(c.quantile(p)))
            .append("</td><td>")
            .append(
                q == null
                    ? ""
                    : fmt(q.interval().estimate())
                        + " ["
                        + fmt(q.interval().lower())
                        + ", "
                        + fmt(q.interval().upper())
                        + "]")
            .append("</td>");
      }
      t.append("</tr>");
    }
    return t.append("</table>").toString();
  }

  /** "median" for 0.5, else "p10" for 0.1 and so on. */
  static String quantileName(double p) {
    return p == MEDIAN ? "median" : "p" + trim(Math.round(p * 1e6) / 1e4);
  }

  /**
   * Where most of a window's mean interval is unidentified: how much, and what the mechanism named
   * as the alternative would have given.
   */
  static String unidentified(WindowStat s) {
    if (s.alternative() == null) {
      return "";
    }
    return "<br/><span class=\"hint\">"
        + fmt(s.identifiedWidth())
        + " of it unidentified: readings where "
        + "the mechanism cannot place them; "
        + Html.escape(s.alternative())
        + " would give about "
        + fmt(s.alternativeWidth())
        + "</span>";
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }
}
