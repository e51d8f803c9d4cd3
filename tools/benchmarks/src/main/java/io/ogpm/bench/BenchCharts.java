package io.ogpm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.report.LineChart;
import io.ogpm.report.Series;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The record bench's sweeps as charts: throughput against fields, and against records per window.
 */
public final class BenchCharts {
  private BenchCharts() {}

  public static void write(ObjectNode records, Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    JsonNode byFields = records.get("recordsPerSecondByFields");
    if (byFields != null && byFields.size() > 0) {
      LineChart.builder()
          .title("Record path, one thread, secure randomness")
          .xLabel("perturbed fields per record")
          .yLabel("records per second")
          .series(series("perturbation (JSON in, JSON out)", byFields, 1))
          .build()
          .writePng(dir.resolve("throughput-by-fields.png"));
    }
    JsonNode byWindow = records.get("aggregationRecordsPerSecondByRecordsPerWindow");
    if (byWindow != null && byWindow.size() > 0) {
      LineChart.builder()
          .title("Aggregation, one thread, 6 fields, 50 bins, EMS")
          .xLabel("log10(records per window)")
          .yLabel("records per second")
          .logY(true)
          .series(series("add every record + one emission per field", byWindow, 2))
          .build()
          .writePng(dir.resolve("throughput-by-window.png"));
    }
  }

  /** x: the keys (log10 of them when {@code log} is 2), y: the values. */
  private static Series series(String name, JsonNode o, int log) {
    List<double[]> points = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      double x = Double.parseDouble(e.getKey());
      points.add(new double[] {log == 2 ? Math.log10(x) : x, e.getValue().asDouble()});
    }
    double[] xs = points.stream().mapToDouble(p -> p[0]).toArray();
    double[] ys = points.stream().mapToDouble(p -> p[1]).toArray();
    return Series.of(name, xs, ys);
  }
}
