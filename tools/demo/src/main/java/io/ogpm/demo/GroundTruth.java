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
  /**
   * One window's truth for one field: its moments, its histogram, and its values themselves, for
   * the exact cumulative distribution and quantiles that the estimates' bands must hold.
   */
  static final class Cell {
    long count;
    double sum;
    double sumCos;
    double sumSin;
    final double[] histogram;
    private double[] values = new double[16];
    private boolean sorted = true;

    Cell(int bins) {
      histogram = new double[bins];
    }

    /** Takes a value, in the domain (on a circle in [lo, hi)), once the moments are counted. */
    void addValue(double x) {
      int n = (int) count - 1;
      if (n == values.length) {
        values = java.util.Arrays.copyOf(values, 2 * n);
      }
      values[n] = x;
      sorted = false;
    }

    private double[] sortedValues() {
      if (!sorted) {
        java.util.Arrays.sort(values, 0, (int) count);
        sorted = true;
      }
      return values;
    }

    /**
     * F(t): the share of the values at or below t; on a circle (values in [lo, hi)), the share in
     * the arc from lo to t.
     */
    double share(double t) {
      double[] v = sortedValues();
      int n = (int) count;
      // The first index whose value is above t.
      int from = 0;
      int to = n;
      while (from < to) {
        int mid = (from + to) >>> 1;
        if (v[mid] <= t) {
          from = mid + 1;
        } else {
          to = mid;
        }
      }
      return (double) from / n;
    }

    /**
     * The p-quantile {@code inf {t : F(t) >= p}}: the k-th smallest value for the least k with
     * {@code k / n >= p}, compared as {@link #share} computes F (p n rounds: 0.7 x 10 is above 7).
     */
    double quantile(double p) {
      int n = (int) count;
      int k = Math.min(Math.max((int) Math.ceil(p * n), 1), n);
      while (k > 1 && (double) (k - 1) / n >= p) {
        k--;
      }
      while (k < n && (double) k / n < p) {
        k++;
      }
      return sortedValues()[k - 1];
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
          // The same point as the estimates' distribution takes it: on a circle, hi is lo.
          c.addValue(f.domain().isCircular() && x == f.domain().hi() ? f.domain().lo() : x);
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
