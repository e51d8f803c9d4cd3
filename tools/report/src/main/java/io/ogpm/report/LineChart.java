package io.ogpm.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * An immutable description of a line chart, rendered to PNG with XChart.
 *
 * <p>Keeping the description apart from the rendering lets the evaluation code say what to plot
 * without knowing XChart, and lets every chart of a report share one print-friendly look:
 * colour-blind-safe colours, a different dash pattern per series (so charts stay readable in
 * grey-scale print), large fonts and the legend inside the plot.
 *
 * <p>Rendering works without a display: loading this class sets {@code java.awt.headless=true}
 * unless the property was already set.
 */
public final class LineChart {

  static {
    // Must run before any AWT class asks whether it is headless, so it comes first.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  public static final int DEFAULT_WIDTH = 800;
  public static final int DEFAULT_HEIGHT = 500;

  /** Okabe-Ito palette without its yellow, which vanishes on white paper. */
  private static final Color[] COLORS = {
    new Color(0x0072B2),
    new Color(0xD55E00),
    new Color(0x009E73),
    new Color(0xCC79A7),
    new Color(0xE69F00),
    new Color(0x56B4E9),
    new Color(0x000000)
  };

  private static final float LINE_WIDTH = 2.2f;
  private static final BasicStroke SOLID = stroke(null);
  private static final BasicStroke DASHED = stroke(new float[] {9f, 5f});

  /** Strokes given, in turn, to series without a style hint. */
  private static final BasicStroke[] STROKES = {
    SOLID, DASHED, stroke(new float[] {2f, 4f}), stroke(new float[] {10f, 4f, 2f, 4f})
  };

  /**
   * Lines with at most this many points also mark each point, which tells series apart in print and
   * keeps a point between two missing values visible; denser lines would only be cluttered.
   */
  private static final int MAX_POINTS_WITH_MARKERS = 30;

  private static final Marker[] MARKERS = {
    SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND,
    SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS
  };

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final List<Series> series;
  private final boolean logY;
  private final Double yMin;
  private final Double yMax;
  private final Double xMin;
  private final Double xMax;
  private final int width;
  private final int height;

  private LineChart(Builder b) {
    this.title = b.title;
    this.xLabel = b.xLabel;
    this.yLabel = b.yLabel;
    this.series = List.copyOf(b.series);
    this.logY = b.logY;
    this.yMin = b.yMin;
    this.xMin = b.xMin;
    this.xMax = b.xMax;
    this.yMax = b.yMax;
    this.width = b.width;
    this.height = b.height;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Writes the chart as a PNG file, creating missing parent directories. */
  public void writePng(Path file) {
    byte[] png = toPngBytes();
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.write(file, png);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write chart '" + title + "' to " + file, e);
    }
  }

  /** The chart as PNG bytes, for example to embed in HTML as a base64 data URI. */
  public byte[] toPngBytes() {
    try {
      return BitmapEncoder.getBitmapBytes(toXChart(), BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot render chart '" + title + "'", e);
    }
  }

  public String title() {
    return title;
  }

  public String xLabel() {
    return xLabel;
  }

  public String yLabel() {
    return yLabel;
  }

  public List<Series> series() {
    return series;
  }

  public boolean logY() {
    return logY;
  }

  /** The fixed lower end of the y axis, or empty to fit the data. */
  public Optional<Double> yMin() {
    return Optional.ofNullable(yMin);
  }

  /** The fixed upper end of the y axis, or empty to fit the data. */
  public Optional<Double> yMax() {
    return Optional.ofNullable(yMax);
  }

  public int width() {
    return width;
  }

  public int height() {
    return height;
  }

  private XYChart toXChart() {
    XYChart chart = new XYChart(width, height);
    chart.setTitle(title);
    chart.setXAxisTitle(xLabel);
    chart.setYAxisTitle(yLabel);
    style(chart.getStyler());
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      XYSeries xs = chart.addSeries(s.name(), s.xValues(), s.yValues());
      Color color = COLORS[i % COLORS.length];
      xs.setLineColor(color);
      xs.setMarkerColor(color);
      Series.Style hint = s.style().orElse(null);
      if (hint == Series.Style.MARKERS_ONLY) {
        xs.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
        xs.setMarker(MARKERS[i % MARKERS.length]);
      } else {
        xs.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line);
        xs.setMarker(
            s.size() <= MAX_POINTS_WITH_MARKERS ? MARKERS[i % MARKERS.length] : SeriesMarkers.NONE);
        xs.setLineStyle(
            hint == Series.Style.SOLID_LINE
                ? SOLID
                : hint == Series.Style.DASHED_LINE ? DASHED : STROKES[i % STROKES.length]);
      }
    }
    return chart;
  }

  private void style(XYStyler st) {
    st.setChartBackgroundColor(Color.WHITE);
    st.setPlotBackgroundColor(Color.WHITE);
    st.setPlotBorderColor(Color.DARK_GRAY);
    st.setPlotGridLinesColor(new Color(0xDDDDDD));
    st.setChartFontColor(Color.BLACK);
    st.setAxisTickLabelsColor(Color.BLACK);
    st.setChartTitleBoxVisible(false);
    st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
    st.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
    st.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    st.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    st.setLegendPosition(LegendPosition.InsideNE);
    st.setLegendBackgroundColor(new Color(255, 255, 255, 225));
    st.setLegendBorderColor(Color.GRAY);
    st.setLegendSeriesLineLength(36);
    st.setMarkerSize(7);
    st.setAntiAlias(true);
    st.setYAxisLogarithmic(logY);
    st.setYAxisMin(yMin);
    st.setYAxisMax(yMax);
    st.setXAxisMin(xMin);
    st.setXAxisMax(xMax);
  }

  private static BasicStroke stroke(float[] dash) {
    return new BasicStroke(LINE_WIDTH, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dash, 0f);
  }

  /** Collects the parts of a chart; {@link #build()} checks they fit together. */
  public static final class Builder {
    private String title = "";
    private String xLabel = "";
    private String yLabel = "";
    private final List<Series> series = new ArrayList<>();
    private boolean logY;
    private Double yMin;
    private Double yMax;
    private Double xMin;
    private Double xMax;
    private int width = DEFAULT_WIDTH;
    private int height = DEFAULT_HEIGHT;

    private Builder() {}

    public Builder title(String title) {
      this.title = Objects.requireNonNull(title, "title");
      return this;
    }

    public Builder xLabel(String label) {
      this.xLabel = Objects.requireNonNull(label, "xLabel");
      return this;
    }

    public Builder yLabel(String label) {
      this.yLabel = Objects.requireNonNull(label, "yLabel");
      return this;
    }

    public Builder series(Series s) {
      series.add(Objects.requireNonNull(s, "series"));
      return this;
    }

    public Builder series(List<Series> list) {
      list.forEach(this::series);
      return this;
    }

    /** Draws the y axis on a log scale; every present y value must then be positive. */
    public Builder logY(boolean on) {
      this.logY = on;
      return this;
    }

    /** Fixes the y axis to [min, max] instead of fitting it to the data. */
    public Builder yRange(double min, double max) {
      if (!Double.isFinite(min) || !Double.isFinite(max) || min >= max) {
        throw new IllegalArgumentException(
            "y range needs finite min < max, got [" + min + ", " + max + "]");
      }
      this.yMin = min;
      this.yMax = max;
      return this;
    }

    /** Fixes the x axis to [min, max] (for example a square plot of a circle). */
    public Builder xRange(double min, double max) {
      if (!Double.isFinite(min) || !Double.isFinite(max) || min >= max) {
        throw new IllegalArgumentException(
            "x range needs finite min < max, got [" + min + ", " + max + "]");
      }
      this.xMin = min;
      this.xMax = max;
      return this;
    }

    /** The image size in pixels; the default is 800 x 500. */
    public Builder size(int width, int height) {
      if (width <= 0 || height <= 0) {
        throw new IllegalArgumentException(
            "chart size must be positive, got " + width + " x " + height);
      }
      this.width = width;
      this.height = height;
      return this;
    }

    public LineChart build() {
      if (series.isEmpty()) {
        throw new IllegalStateException("chart '" + title + "' has no series");
      }
      Set<String> names = new HashSet<>();
      for (Series s : series) {
        if (s.size() == 0) {
          throw new IllegalStateException(
              "chart '" + title + "': series '" + s.name() + "' has no points");
        }
        if (!names.add(s.name())) {
          throw new IllegalStateException(
              "chart '" + title + "' has two series named '" + s.name() + "'");
        }
      }
      if (logY) {
        checkLogScale();
      }
      return new LineChart(this);
    }

    private void checkLogScale() {
      if (yMin != null && yMin <= 0) {
        throw new IllegalStateException(
            "chart '" + title + "': log-scale y range must start above 0, got " + yMin);
      }
      for (Series s : series) {
        for (int i = 0; i < s.size(); i++) {
          if (s.y(i) <= 0) {
            throw new IllegalStateException(
                "chart '"
                    + title
                    + "': log-scale y axis cannot show y["
                    + i
                    + "] = "
                    + s.y(i)
                    + " of series '"
                    + s.name()
                    + "'");
          }
        }
      }
    }
  }
}
