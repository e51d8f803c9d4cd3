package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.record.JsonFields;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The true statistics of the raw replay, per event-time window, group and field: computed for the
 * demo only, to print next to the estimates. (In production nobody sees these.)
 */
final class GroundTruth {
  /** One window's truth for one field. */
  static final class Cell {
    long count;
    double sum;
    double sumCos;
    double sumSin;
    final double[] histogram;

    Cell(int bins) {
      histogram = new double[bins];
    }

    double mean() {
      return sum / count;
    }

    double circularMean() {
      return Math.atan2(sumSin, sumCos);
    }

    double[] frequencies() {
      double[] f = histogram.clone();
      for (int i = 0; i < f.length; i++) {
        f[i] /= count;
      }
      return f;
    }
  }

  private final Map<String, Cell> cells = new HashMap<>();
  private final Map<String, Cell> overall = new HashMap<>();

  private GroundTruth() {}

  /** Which of a raw record's fields its perturbed record reported ({@link ReportedFields}). */
  interface Reported {
    boolean test(JsonNode raw, FieldConfig field);
  }

  /** Every field of every record: without field sampling. */
  static final Reported ALL = (raw, field) -> true;

  /** Truth of raw JSON records: windows of {@code windowMs} on the time field, grouped. */
  static GroundTruth of(
      List<String> records,
      PrivacyConfig config,
      String timeField,
      String groupField,
      long windowMs,
      int bins) {
    return of(records, config, timeField, groupField, windowMs, bins, ALL);
  }

  /** Truth of raw JSON records, each field over the records {@code reported} says reported it. */
  static GroundTruth of(
      List<String> records,
      PrivacyConfig config,
      String timeField,
      String groupField,
      long windowMs,
      int bins,
      Reported reported) {
    GroundTruth t = new GroundTruth();
    ObjectMapper json = new ObjectMapper();
    List<String> timePath = List.of(timeField.split("\\."));
    List<String> groupPath = groupField == null ? null : List.of(groupField.split("\\."));
    for (String r : records) {
      JsonNode root;
      try {
        root = json.readTree(r);
      } catch (IOException e) {
        continue;
      }
      JsonNode ts = JsonFields.at(root, timePath);
      if (ts == null || !ts.canConvertToLong()) {
        continue;
      }
      long window = Math.floorDiv(ts.asLong(), windowMs) * windowMs;
      JsonNode g = groupPath == null ? null : JsonFields.at(root, groupPath);
      String group = g == null ? "" : g.asText();
      for (FieldConfig f : config.fields()) {
        JsonNode v = JsonFields.at(root, f.path());
        if (v == null || !v.isNumber() || !reported.test(root, f)) {
          continue;
        }
        double x = v.asDouble();
        if (!f.domain().contains(x)) {
          if (f.outOfRange() == io.ogpm.config.OutOfRange.REJECT) {
            continue;
          }
          x = f.domain().nearestInput(x);
        }
        FieldBinning binning = FieldBinning.ofDomain(f.domain(), bins);
        for (Cell c :
            new Cell[] {
              t.cells.computeIfAbsent(key(window, group, f.name()), k -> new Cell(bins)),
              t.overall.computeIfAbsent(f.name(), k -> new Cell(bins))
            }) {
          c.count++;
          c.sum += x;
          double angle = 2 * Math.PI * (x - f.domain().lo()) / f.domain().width();
          c.sumCos += Math.cos(angle);
          c.sumSin += Math.sin(angle);
          c.histogram[binning.inputBin(x)]++;
        }
      }
    }
    return t;
  }

  static String key(long window, String group, String field) {
    return window + "|" + group + "|" + field;
  }

  Cell cell(long window, String group, String field) {
    return cells.get(key(window, group == null ? "" : group, field));
  }

  /** The number of records per {@code window|group|field} key ({@link #key}). */
  Map<String, Long> counts() {
    Map<String, Long> out = new HashMap<>();
    cells.forEach((k, c) -> out.put(k, c.count));
    return out;
  }

  Cell overall(String field) {
    return overall.get(field);
  }
}
