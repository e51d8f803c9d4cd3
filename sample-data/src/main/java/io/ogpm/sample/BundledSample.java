package io.ogpm.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The MotionSense sample of this directory ({@code motionsense-dws1.jsonl}, see README.md) and its
 * field configuration ({@code ogpm.yaml}), bundled on the class path under {@code sample-data/}:
 * the demo's default input and the {@code bench} command's, so that both run from the jar anywhere.
 */
public final class BundledSample {
  static final String RECORDS = "/sample-data/motionsense-dws1.jsonl";
  static final String CONFIG = "/sample-data/ogpm.yaml";

  private BundledSample() {}

  /** The first {@code limit} records of the sample, one JSON object per element. */
  public static List<String> records(int limit) {
    try (BufferedReader r = resource(RECORDS)) {
      return records(r, limit);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the bundled sample records", e);
    }
  }

  /** The sample's field configuration (YAML). */
  public static String config() {
    try (BufferedReader r = resource(CONFIG)) {
      StringBuilder sb = new StringBuilder();
      String line;
      while ((line = r.readLine()) != null) {
        sb.append(line).append('\n');
      }
      return sb.toString();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the bundled configuration", e);
    }
  }

  /** Up to {@code limit} records of JSON lines, blank lines skipped: the sample's or a file's. */
  public static List<String> records(BufferedReader lines, int limit) throws IOException {
    List<String> out = new ArrayList<>();
    String line;
    while (out.size() < limit && (line = lines.readLine()) != null) {
      if (!line.isBlank()) {
        out.add(line);
      }
    }
    return out;
  }

  private static BufferedReader resource(String name) {
    InputStream in = BundledSample.class.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException("the bundled resource " + name + " is missing from the jar");
    }
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
  }
}
