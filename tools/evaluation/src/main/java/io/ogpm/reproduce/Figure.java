package io.ogpm.reproduce;

import io.ogpm.report.CsvTable;
import io.ogpm.report.LineChart;
import io.ogpm.report.Series;
import java.util.List;

/**
 * One figure of the evaluation: a chart and the table behind it, saved as NAME.png and NAME.csv.
 */
public record Figure(String name, LineChart chart, CsvTable table) {
  /** A line chart of series sharing their x values, and its wide table. */
  static Figure of(String name, String title, String xLabel, String yLabel, List<Series> series) {
    LineChart chart =
        LineChart.builder().title(title).xLabel(xLabel).yLabel(yLabel).series(series).build();
    return new Figure(name, chart, CsvTable.fromSeries(xLabel, series));
  }
}
