package io.ogpm.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An immutable table of strings and numbers, written as CSV so that every figure of a report can be
 * re-plotted or checked with other tools.
 *
 * <p>The format is RFC 4180 with {@code \n} line ends, in UTF-8: a string cell is quoted when it
 * holds a comma, a quote or a line break, and quotes inside it are doubled. A floating-point cell
 * is printed with {@link Double#toString(double)}, which reads back to the very same double, and
 * NaN (a missing value) is written as an empty cell. Integral cells ({@link Integer}, {@link Long},
 * ...) are printed without a fraction.
 */
public final class CsvTable {

  private final List<String> header;
  private final List<List<Object>> rows;

  private CsvTable(List<String> header, List<List<Object>> rows) {
    this.header = header;
    this.rows = rows;
  }

  /** Starts a table with the given column names, which must be distinct. */
  public static Builder withHeader(String... columns) {
    return new Builder(List.of(columns));
  }

  /** Starts a table with the given column names, which must be distinct. */
  public static Builder withHeader(List<String> columns) {
    return new Builder(List.copyOf(columns));
  }

  /**
   * A wide table of several series measured at the same x values: column {@code xColumn} holds x,
   * then one column per series, named after it. Missing (NaN) y values become empty cells.
   *
   * @throws IllegalArgumentException if the series are not all at the same x values
   */
  public static CsvTable fromSeries(String xColumn, List<Series> series) {
    if (series.isEmpty()) {
      throw new IllegalArgumentException("a table from series needs at least one series");
    }
    Series first = series.get(0);
    List<String> columns = new ArrayList<>();
    columns.add(xColumn);
    for (Series s : series) {
      checkSameX(first, s);
      columns.add(s.name());
    }
    Builder b = withHeader(columns);
    for (int i = 0; i < first.size(); i++) {
      Object[] row = new Object[series.size() + 1];
      row[0] = first.x(i);
      for (int j = 0; j < series.size(); j++) {
        row[j + 1] = series.get(j).y(i);
      }
      b.row(row);
    }
    return b.build();
  }

  private static void checkSameX(Series first, Series s) {
    if (s.size() != first.size()) {
      throw new IllegalArgumentException(
          "series '"
              + s.name()
              + "' has "
              + s.size()
              + " points but series '"
              + first.name()
              + "' has "
              + first.size()
              + "; a wide table needs the same x values");
    }
    for (int i = 0; i < s.size(); i++) {
      if (Double.compare(s.x(i), first.x(i)) != 0) {
        throw new IllegalArgumentException(
            "series '"
                + s.name()
                + "' has x["
                + i
                + "] = "
                + s.x(i)
                + " but series '"
                + first.name()
                + "' has x["
                + i
                + "] = "
                + first.x(i)
                + "; a wide table needs the same x values");
      }
    }
  }

  public List<String> header() {
    return header;
  }

  public int rowCount() {
    return rows.size();
  }

  /** The whole table as CSV text, ending with a line break. */
  public String toCsv() {
    StringBuilder out = new StringBuilder();
    appendLine(out, header);
    for (List<Object> row : rows) {
      appendLine(out, row);
    }
    return out.toString();
  }

  /** Writes the table as UTF-8 CSV, replacing the file and creating missing parent directories. */
  public void write(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, toCsv(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write CSV table to " + file, e);
    }
  }

  private static void appendLine(StringBuilder out, List<?> cells) {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(format(cells.get(i)));
    }
    out.append('\n');
  }

  private static String format(Object cell) {
    if (cell instanceof Double || cell instanceof Float) {
      double d = ((Number) cell).doubleValue();
      return Double.isNaN(d) ? "" : Double.toString(d);
    }
    if (cell instanceof Number) {
      return cell.toString();
    }
    String s = (String) cell;
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  /** Collects rows; each must have one cell per column, each a String or a Number. */
  public static final class Builder {
    private final List<String> header;
    private final List<List<Object>> rows = new ArrayList<>();

    private Builder(List<String> header) {
      if (header.isEmpty()) {
        throw new IllegalArgumentException("a CSV table needs at least one column");
      }
      Set<String> seen = new HashSet<>();
      for (String column : header) {
        if (!seen.add(column)) {
          throw new IllegalArgumentException("column '" + column + "' appears twice in " + header);
        }
      }
      this.header = header;
    }

    public Builder row(Object... cells) {
      return row(Arrays.asList(cells));
    }

    public Builder row(List<?> cells) {
      int r = rows.size();
      if (cells.size() != header.size()) {
        throw new IllegalArgumentException(
            "row "
                + r
                + " has "
                + cells.size()
                + " cells but the header has "
                + header.size()
                + " columns "
                + header);
      }
      for (int c = 0; c < cells.size(); c++) {
        Object cell = cells.get(c);
        if (!(cell instanceof String) && !(cell instanceof Number)) {
          throw new IllegalArgumentException(
              "row "
                  + r
                  + ", column '"
                  + header.get(c)
                  + "': cell "
                  + cell
                  + " is neither a String nor a Number");
        }
      }
      rows.add(List.copyOf(cells));
      return this;
    }

    public CsvTable build() {
      return new CsvTable(header, List.copyOf(rows));
    }
  }
}
