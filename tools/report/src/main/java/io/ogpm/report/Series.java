package io.ogpm.report;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A named, immutable list of (x, y) points: the unit that both {@link LineChart} and {@link
 * CsvTable} consume, so a chart and the CSV behind it are always drawn from the same numbers.
 *
 * <p>A y value of {@link Double#NaN} means "missing" (for example a run that did not finish); it is
 * left as a gap in a chart and as an empty cell in a CSV file. Every other value must be finite, so
 * that a bad computation fails here, where it is cheap to diagnose, and not as a blank chart.
 */
public final class Series {

  /** How a chart should draw a series, when the caller cares. */
  public enum Style {
    SOLID_LINE,
    DASHED_LINE,
    MARKERS_ONLY
  }

  private final String name;
  private final double[] x;
  private final double[] y;
  private final Style style;

  private Series(String name, double[] x, double[] y, Style style) {
    this.name = name;
    this.x = x;
    this.y = y;
    this.style = style;
  }

  /** A series without a style hint; the chart picks one. The arrays are copied. */
  public static Series of(String name, double[] x, double[] y) {
    return create(name, x, y, null);
  }

  /** A series drawn with the given style. The arrays are copied. */
  public static Series of(String name, double[] x, double[] y, Style style) {
    return create(name, x, y, Objects.requireNonNull(style, "style"));
  }

  private static Series create(String name, double[] x, double[] y, Style style) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("series name must not be blank, got '" + name + "'");
    }
    Objects.requireNonNull(x, () -> "x values of series '" + name + "'");
    Objects.requireNonNull(y, () -> "y values of series '" + name + "'");
    if (x.length != y.length) {
      throw new IllegalArgumentException(
          "series '" + name + "' has " + x.length + " x values but " + y.length + " y values");
    }
    for (int i = 0; i < x.length; i++) {
      if (!Double.isFinite(x[i])) {
        throw new IllegalArgumentException(
            "series '" + name + "': x[" + i + "] = " + x[i] + " is not finite");
      }
      if (Double.isInfinite(y[i])) {
        throw new IllegalArgumentException(
            "series '" + name + "': y[" + i + "] = " + y[i] + " is infinite (use NaN for missing)");
      }
    }
    return new Series(name, x.clone(), y.clone(), style);
  }

  /** The same points under another style. */
  public Series withStyle(Style newStyle) {
    return new Series(name, x, y, Objects.requireNonNull(newStyle, "style"));
  }

  public String name() {
    return name;
  }

  public int size() {
    return x.length;
  }

  public double x(int i) {
    return x[i];
  }

  /** The y value at {@code i}; NaN if it is missing. */
  public double y(int i) {
    return y[i];
  }

  /** A copy of the x values. */
  public double[] xValues() {
    return x.clone();
  }

  /** A copy of the y values; NaN marks a missing value. */
  public double[] yValues() {
    return y.clone();
  }

  /** The style hint, or empty to let the chart choose. */
  public Optional<Style> style() {
    return Optional.ofNullable(style);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Series s
        && name.equals(s.name)
        && Arrays.equals(x, s.x)
        && Arrays.equals(y, s.y)
        && style == s.style;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, Arrays.hashCode(x), Arrays.hashCode(y), style);
  }

  @Override
  public String toString() {
    return "Series["
        + name
        + ", "
        + x.length
        + " points"
        + (style == null ? "" : ", " + style)
        + "]";
  }
}
