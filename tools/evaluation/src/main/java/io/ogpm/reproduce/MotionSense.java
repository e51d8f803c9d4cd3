package io.ogpm.reproduce;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The MotionSense readings the paper evaluates on (subjects 1 to 3 of the "downstairs" trial, 6,159
 * rows), bundled as resources with their attribution ({@code datasets/motionsense-dws1/SOURCE.md}):
 * MIT-licensed, Malekzadeh, Clegg, Cavallaro and Haddadi, "Mobile Sensor Data Anonymization", IoTDI
 * 2019.
 */
public final class MotionSense {
  private static final String DIR = "/datasets/motionsense-dws1/";

  private final double[] userAccelerationX;
  private final double[] attitudeRoll;

  private MotionSense(double[] userAccelerationX, double[] attitudeRoll) {
    this.userAccelerationX = userAccelerationX;
    this.attitudeRoll = attitudeRoll;
  }

  /** Subjects 1 to 3. */
  public static MotionSense paperSubset() {
    List<double[]> rows = new ArrayList<>();
    for (int subject = 1; subject <= 3; subject++) {
      rows.addAll(read("sub_" + subject + ".csv"));
    }
    double[] x = new double[rows.size()];
    double[] roll = new double[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      roll[i] = rows.get(i)[0];
      x[i] = rows.get(i)[1];
    }
    return new MotionSense(x, roll);
  }

  /** {@code userAcceleration.x}, min-max normalised to [0, 1] as in the paper. */
  public double[] accelerationNormalised() {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : userAccelerationX) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    double[] out = new double[userAccelerationX.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = (userAccelerationX[i] - min) / (max - min);
    }
    return out;
  }

  /** {@code attitude.roll} taken modulo 2 pi, in [0, 2 pi). */
  public double[] rollModuloTwoPi() {
    double[] out = new double[attitudeRoll.length];
    for (int i = 0; i < out.length; i++) {
      double v = attitudeRoll[i] % (2 * Math.PI);
      out[i] = v < 0 ? v + 2 * Math.PI : v;
    }
    return out;
  }

  /**
   * The named columns of subjects {@code from} to {@code to}, one array per column, rows in subject
   * order.
   */
  public static double[][] columns(int from, int to, String... names) {
    List<double[]> rows = new ArrayList<>();
    for (int subject = from; subject <= to; subject++) {
      rows.addAll(read("sub_" + subject + ".csv", names));
    }
    double[][] out = new double[names.length][rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      for (int c = 0; c < names.length; c++) {
        out[c][i] = rows.get(i)[c];
      }
    }
    return out;
  }

  /** Rows of (attitude.roll, userAcceleration.x). */
  private static List<double[]> read(String file) {
    return read(file, "attitude.roll", "userAcceleration.x");
  }

  /** Rows of the named columns. */
  private static List<double[]> read(String file, String... columns) {
    InputStream in = MotionSense.class.getResourceAsStream(DIR + file);
    if (in == null) {
      throw new IllegalStateException("missing bundled resource " + DIR + file);
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String header = r.readLine();
      String[] names = header.split(",");
      int[] index = new int[columns.length];
      for (int c = 0; c < columns.length; c++) {
        index[c] = indexOf(names, columns[c]);
      }
      List<double[]> rows = new ArrayList<>();
      String line;
      while ((line = r.readLine()) != null) {
        String[] cells = line.split(",");
        double[] row = new double[columns.length];
        for (int c = 0; c < columns.length; c++) {
          row[c] = Double.parseDouble(cells[index[c]]);
        }
        rows.add(row);
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int indexOf(String[] names, String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    throw new IllegalStateException("column " + name + " not found");
  }
}
