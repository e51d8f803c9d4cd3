package io.ogpm.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A chart drawn as inline SVG for the HTML reports: a title that names the quantity, its unit and
 * epsilon; axes with round ticks ({@link Ticks}); the legend to the right of the plot, outside the
 * data; and one fixed look per kind of series ({@link Kind}), so that "true" or "estimate" looks
 * the same in every chart of a report. Intervals on a circle whose lower end lies above the upper
 * end cross the seam: they are drawn split at the seam, in two pieces that run to the axis's ends.
 *
 * <p>The SVG is well-formed XML (so the report can be parsed and checked); every series is a {@code
 * <g class="series" data-kind="...">} holding its style as attributes.
 */
public final class SvgChart {
  /**
   * What a series shows; each has one look in every chart. Okabe-Ito colours (colour-blind safe).
   */
  public enum Kind {
    TRUE("true", "#0072B2", "none", "circle", true),
    PERTURBED("perturbed (raw)", "#E69F00", "7 4", "triangle", true),
    RECONSTRUCTED("reconstructed (EM)", "#009E73", "2 3", "diamond", true),
    ESTIMATE("estimate", "#D55E00", "none", "square", false),
    INTERVAL("95 % interval", "#CC79A7", "none", "bar", false),
    BAND("95 % band", "#CC79A7", "none", "area", false);

    final String label;
    final String colour;
    final String dash;
    final String marker;
    final boolean line;

    Kind(String label, String colour, String dash, String marker, boolean line) {
      this.label = label;
      this.colour = colour;
      this.dash = dash;
      this.marker = marker;
      this.line = line;
    }

    public String label() {
      return label;
    }
  }

  /** An axis: its range and ticks. */
  public record Axis(String label, double min, double max, Ticks ticks) {
    /** Round ticks, the range widened to the outer ticks. */
    public static Axis round(String label, double min, double max) {
      if (!(max > min)) {
        double pad = Math.max(1e-9, Math.abs(min) * 0.1);
        min -= pad;
        max += pad;
      }
      Ticks t = Ticks.round(min, max, 6);
      double step = t.values().size() > 1 ? t.values().get(1) - t.values().get(0) : max - min;
      double lo = t.values().get(0) > min ? t.values().get(0) - step : t.values().get(0);
      double hi =
          t.values().get(t.values().size() - 1) < max
              ? t.values().get(t.values().size() - 1) + step
              : t.values().get(t.values().size() - 1);
      return new Axis(label, lo, hi, Ticks.round(lo, hi, 6));
    }

    /** Exactly [min, max], ticks at multiples of pi/2 (an angle in radians). */
    public static Axis angle(String label, double min, double max) {
      return new Axis(label, min, max, Ticks.angles(min, max));
    }

    /** Exactly [min, max] with round ticks inside. */
    public static Axis fixed(String label, double min, double max) {
      return new Axis(label, min, max, Ticks.round(min, max, 6));
    }
  }

  private record Line(Kind kind, double[] x, double[] y) {}

  private record Intervals(Kind kind, double[] x, double[] lo, double[] hi, boolean circular) {}

  private record Band(Kind kind, double[] from, double[] to, double[] lo, double[] hi) {}

  static final int WIDTH = 860;
  static final int HEIGHT = 380;
  static final int LEFT = 70;
  static final int RIGHT = 200; // the legend's column
  static final int TOP = 44;
  static final int BOTTOM = 56;

  private final String title;
  private final Axis x;
  private final Axis y;
  private final List<Line> lines = new ArrayList<>();
  private final List<Intervals> intervals = new ArrayList<>();
  private final List<Band> bands = new ArrayList<>();

  public SvgChart(String title, Axis x, Axis y) {
    this.title = Objects.requireNonNull(title);
    this.x = x;
    this.y = y;
  }

  public String title() {
    return title;
  }

  /** A series of points ({@code NaN} leaves a gap). */
  public SvgChart line(Kind kind, double[] xs, double[] ys) {
    lines.add(new Line(kind, xs.clone(), ys.clone()));
    return this;
  }

  /**
   * Vertical intervals at {@code xs}; NaN ends are skipped. On a circular axis an interval with
   * {@code lo > hi} crosses the seam and is drawn as two pieces, to the top and from the bottom.
   */
  public SvgChart intervals(Kind kind, double[] xs, double[] lo, double[] hi, boolean circular) {
    intervals.add(new Intervals(kind, xs.clone(), lo.clone(), hi.clone(), circular));
    return this;
  }

  /**
   * A shaded band over bins: bin i spans {@code [from[i], to[i])} on the x axis, shaded from {@code
   * lo[i]} to {@code hi[i]}, drawn under every line.
   */
  public SvgChart band(Kind kind, double[] from, double[] to, double[] lo, double[] hi) {
    bands.add(new Band(kind, from.clone(), to.clone(), lo.clone(), hi.clone()));
    return this;
  }

  private double px(double v) {
    return LEFT + (v - x.min()) / (x.max() - x.min()) * (WIDTH - LEFT - RIGHT);
  }

  private double py(double v) {
    return HEIGHT - BOTTOM - (v - y.min()) / (y.max() - y.min()) * (HEIGHT - TOP - BOTTOM);
  }

  /** The chart as an {@code <svg>} element. */
  public String toSvg() {
    StringBuilder s = new StringBuilder();
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    s.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
                + "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT));
    s.append("<title>").append(Html.escape(title)).append("</title>");
    s.append(
        String.format(
            Locale.ROOT,
            "<text class=\"title\" x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>",
            LEFT,
            Html.escape(title)));
    s.append(
        String.format(
            Locale.ROOT,
            "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#999\"/>",
            LEFT,
            TOP,
            plotW,
            plotH));
    axis(s, true);
    axis(s, false);
    for (Band b : bands) {
      drawBand(s, b);
    }
    for (Intervals iv : intervals) {
      drawIntervals(s, iv);
    }
    for (Line l : lines) {
      drawLine(s, l);
    }
    legend(s);
    return s.append("</svg>").toString();
  }

  private void axis(StringBuilder s, boolean horizontal) {
    Axis a = horizontal ? x : y;
    s.append("<g class=\"axis ").append(horizontal ? "x" : "y").append("\">");
    for (int i = 0; i < a.ticks().values().size(); i++) {
      double v = a.ticks().values().get(i);
      String label = Html.escape(a.ticks().labels().get(i));
      if (horizontal) {
        double p = px(v);
        s.append(
            String.format(
                Locale.ROOT,
                "<g class=\"tick\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                    + "stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text></g>",
                p,
                TOP,
                p,
                HEIGHT - BOTTOM + 5,
                p,
                HEIGHT - BOTTOM + 19,
                label));
      } else {
        double p = py(v);
        s.append(
            String.format(
                Locale.ROOT,
                "<g class=\"tick\"><line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
                    + "stroke=\"#e4e4e4\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text></g>",
                LEFT - 5,
                p,
                WIDTH - RIGHT,
                p,
                LEFT - 8,
                p + 4,
                label));
      }
    }
    if (horizontal) {
      s.append(
          String.format(
              Locale.ROOT,
              "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
              LEFT + (WIDTH - LEFT - RIGHT) / 2,
              HEIGHT - 14,
              Html.escape(a.label())));
    } else {
      int cy = TOP + (HEIGHT - TOP - BOTTOM) / 2;
      s.append(
          String.format(
              Locale.ROOT,
              "<text class=\"label\" x=\"16\" y=\"%d\" text-anchor=\"middle\" "
                  + "transform=\"rotate(-90 16 %d)\">%s</text>",
              cy,
              cy,
              Html.escape(a.label())));
    }
    s.append("</g>");
  }

  private static String open(Kind k) {
    return String.format(
        Locale.ROOT,
        "<g class=\"series\" data-kind=\"%s\" stroke=\"%s\" fill=\"%s\" "
            + "stroke-dasharray=\"%s\" data-marker=\"%s\" stroke-width=\"2\">",
        k.name(),
        k.colour,
        k.colour,
        k.dash,
        k.marker);
  }

  private void drawLine(StringBuilder s, Line l) {
    s.append(open(l.kind()));
    if (l.kind().line) {
      StringBuilder pts = new StringBuilder();
      for (int i = 0; i <= l.x().length; i++) {
        boolean ok = i < l.x().length && Double.isFinite(l.x()[i]) && Double.isFinite(l.y()[i]);
        if (ok) {
          pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(l.x()[i]), py(l.y()[i])));
        } else if (pts.length() > 0) {
          s.append("<polyline fill=\"none\" points=\"")
              .append(pts.toString().trim())
              .append("\"/>");
          pts.setLength(0);
        }
      }
    }
    for (int i = 0; i < l.x().length; i++) {
      if (Double.isFinite(l.x()[i]) && Double.isFinite(l.y()[i])) {
        marker(s, l.kind().marker, px(l.x()[i]), py(l.y()[i]), l.x().length > 30 ? 2.0 : 3.5);
      }
    }
    s.append("</g>");
  }

  private static void marker(StringBuilder s, String shape, double cx, double cy, double r) {
    switch (shape) {
      case "circle" ->
          s.append(
              String.format(
                  Locale.ROOT,
                  "<circle class=\"marker\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
                      + "stroke-dasharray=\"none\"/>",
                  cx,
                  cy,
                  r));
      case "square" ->
          s.append(
              String.format(
                  Locale.ROOT,
                  "<rect class=\"marker\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                      + "height=\"%.1f\" stroke-dasharray=\"none\"/>",
                  cx - r,
                  cy - r,
                  2 * r,
                  2 * r));
      case "triangle" ->
          s.append(
              String.format(
                  Locale.ROOT,
                  "<polygon class=\"marker\" points=\"%.1f,%.1f %.1f,%.1f "
                      + "%.1f,%.1f\" stroke-dasharray=\"none\"/>",
                  cx,
                  cy - r,
                  cx - r,
                  cy + r,
                  cx + r,
                  cy + r));
      case "diamond" ->
          s.append(
              String.format(
                  Locale.ROOT,
                  "<polygon class=\"marker\" points=\"%.1f,%.1f %.1f,%.1f "
                      + "%.1f,%.1f %.1f,%.1f\" stroke-dasharray=\"none\"/>",
                  cx,
                  cy - r,
                  cx + r,
                  cy,
                  cx,
                  cy + r,
                  cx - r,
                  cy));
      default -> {}
    }
  }

  private void drawBand(StringBuilder s, Band b) {
    s.append(open(b.kind()));
    for (int i = 0; i < b.from().length; i++) {
      double lo = Math.max(b.lo()[i], y.min());
      double hi = Math.min(b.hi()[i], y.max());
      if (!(hi >= lo)) {
        continue;
      }
      s.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                  + "fill-opacity=\"0.18\" stroke=\"none\" data-lower=\"%s\" data-upper=\"%s\"/>",
              px(b.from()[i]),
              py(hi),
              px(b.to()[i]) - px(b.from()[i]),
              py(lo) - py(hi),
              b.lo()[i],
              b.hi()[i]));
    }
    s.append("</g>");
  }

  private void drawIntervals(StringBuilder s, Intervals iv) {
    s.append(open(iv.kind()));
    for (int i = 0; i < iv.x().length; i++) {
      double lo = iv.lo()[i];
      double hi = iv.hi()[i];
      if (!Double.isFinite(lo) || !Double.isFinite(hi) || !Double.isFinite(iv.x()[i])) {
        continue;
      }
      double p = px(iv.x()[i]);
      if (iv.circular() && lo > hi) {
        // Crosses the seam: from lo up to the top of the circle's range, and from the bottom to hi.
        s.append("<g class=\"seam-split\">");
        bar(s, p, lo, y.max(), true, false);
        bar(s, p, y.min(), hi, false, true);
        s.append("</g>");
      } else {
        bar(s, p, lo, hi, true, true);
      }
    }
    s.append("</g>");
  }

  private void bar(
      StringBuilder s, double p, double from, double to, boolean capFrom, boolean capTo) {
    s.append(
        String.format(
            Locale.ROOT,
            "<line class=\"bar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
            p,
            py(from),
            p,
            py(to)));
    for (double[] cap : new double[][] {{capFrom ? 1 : 0, from}, {capTo ? 1 : 0, to}}) {
      if (cap[0] == 1) {
        s.append(
            String.format(
                Locale.ROOT,
                "<line class=\"cap\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                p - 4,
                py(cap[1]),
                p + 4,
                py(cap[1])));
      }
    }
  }

  private void legend(StringBuilder s) {
    List<Kind> kinds = new ArrayList<>();
    bands.forEach(
        b -> {
          if (!kinds.contains(b.kind())) kinds.add(b.kind());
        });
    intervals.forEach(
        iv -> {
          if (!kinds.contains(iv.kind())) kinds.add(iv.kind());
        });
    lines.forEach(
        l -> {
          if (!kinds.contains(l.kind())) kinds.add(l.kind());
        });
    kinds.sort(null);
    int x0 = WIDTH - RIGHT + 16;
    s.append(
        String.format(
            Locale.ROOT, "<g class=\"legend\" transform=\"translate(%d,%d)\">", x0, TOP + 6));
    for (int i = 0; i < kinds.size(); i++) {
      Kind k = kinds.get(i);
      int yy = i * 20;
      s.append("<g class=\"entry\" data-kind=\"").append(k.name()).append("\">").append(open(k));
      if (k.line) {
        s.append(
            String.format(Locale.ROOT, "<line x1=\"0\" y1=\"%d\" x2=\"28\" y2=\"%d\"/>", yy, yy));
      }
      if (k == Kind.INTERVAL) {
        s.append(
            String.format(
                Locale.ROOT,
                "<line class=\"bar\" x1=\"14\" y1=\"%d\" x2=\"14\" y2=\"%d\"/>",
                yy + 7,
                yy - 7));
      } else if (k == Kind.BAND) {
        s.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"band\" x=\"2\" y=\"%d\" width=\"24\" height=\"12\" "
                    + "fill-opacity=\"0.18\" stroke=\"none\"/>",
                yy - 6));
      } else {
        marker(s, k.marker, 14, yy, 3.5);
      }
      s.append("</g>")
          .append(
              String.format(
                  Locale.ROOT,
                  "<text x=\"36\" y=\"%d\">%s</text></g>",
                  yy + 4,
                  Html.escape(k.label)));
    }
    s.append("</g>");
  }

  /**
   * Histograms of a circular field drawn around a circle: bin {@code i} at its centre's angle,
   * radius 1 + {@code scale} x frequency; the grey circle is frequency 0. Angles are labelled with
   * the field's values at the four compass points ({@code lo} at the left, increasing
   * counter-clockwise, as on the unit circle for [-pi, pi)).
   */
  public static String polar(
      String title,
      double lo,
      double width,
      boolean angleLabels,
      double scale,
      Kind[] kinds,
      double[][] histograms) {
    int size = HEIGHT + 40;
    int cx = LEFT + (size - TOP - BOTTOM) / 2;
    int cy = TOP + (size - TOP - BOTTOM) / 2;
    double max = 1;
    for (double[] h : histograms) {
      for (double f : h) {
        max = Math.max(max, 1 + scale * f);
      }
    }
    double unit = (size - TOP - BOTTOM) / 2.0 / (max * 1.08);
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                    + "class=\"chart polar\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
                    + "font-size=\"12\">",
                WIDTH,
                size,
                WIDTH,
                size));
    s.append("<title>").append(Html.escape(title)).append("</title>");
    s.append(
        String.format(
            Locale.ROOT,
            "<text class=\"title\" x=\"%d\" y=\"22\" font-size=\"15\" "
                + "font-weight=\"bold\">%s</text>",
            LEFT,
            Html.escape(title)));
    s.append(
        String.format(
            Locale.ROOT,
            "<circle class=\"reference\" cx=\"%d\" cy=\"%d\" r=\"%.1f\" fill=\"none\" "
                + "stroke=\"#bbb\"/>",
            cx,
            cy,
            unit));
    s.append("<g class=\"axis angle\">");
    for (int q = 0; q < 4; q++) {
      double angle = Math.PI + q * Math.PI / 2; // lo at the left, counter-clockwise
      double value = lo + width * q / 4.0;
      String label =
          angleLabels
              ? Ticks.piLabel(Math.round(value / (Math.PI / 4)))
              : BigDecimalLabel.of(value);
      double r = unit * max * 1.04;
      double tx = cx + r * Math.cos(angle);
      double ty = cy - r * Math.sin(angle);
      s.append(
          String.format(
              Locale.ROOT,
              "<g class=\"tick\"><line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" "
                  + "stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text></g>",
              cx,
              cy,
              tx,
              ty,
              tx + (q == 0 ? -4 : q == 2 ? 4 : 0),
              ty + (q == 1 ? 14 : q == 3 ? -4 : 4),
              q == 0 ? "end" : q == 2 ? "start" : "middle",
              Html.escape(label)));
    }
    s.append("</g>");
    for (int h = 0; h < histograms.length; h++) {
      int k = histograms[h].length;
      StringBuilder pts = new StringBuilder();
      StringBuilder markers = new StringBuilder();
      for (int i = 0; i < k; i++) {
        double angle = Math.PI + 2 * Math.PI * (i + 0.5) / k;
        double r = unit * (1 + scale * histograms[h][i]);
        double px = cx + r * Math.cos(angle);
        double py = cy - r * Math.sin(angle);
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        marker(markers, kinds[h].marker, px, py, 2.0);
      }
      s.append(open(kinds[h]))
          .append("<polygon fill=\"none\" points=\"")
          .append(pts.toString().trim())
          .append("\"/>")
          .append(markers)
          .append("</g>");
    }
    SvgChart legendOnly = new SvgChart(title, null, null);
    for (Kind k : kinds) {
      legendOnly.lines.add(new Line(k, new double[0], new double[0]));
    }
    legendOnly.legend(s);
    return s.append("</svg>").toString();
  }

  /** A value with at most 3 decimals, no trailing zeros. */
  static final class BigDecimalLabel {
    static String of(double v) {
      java.math.BigDecimal d =
          java.math.BigDecimal.valueOf(v)
              .setScale(3, java.math.RoundingMode.HALF_EVEN)
              .stripTrailingZeros();
      return d.signum() == 0 ? "0" : d.toPlainString();
    }
  }
}
