package io.ogpm.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The demo's input: the bundled MotionSense sample and its configuration, or files given instead. */
public final class SampleData {
  static final String RECORDS = "/sample-data/motionsense-dws1.jsonl";
  static final String CONFIG = "/sample-data/ogpm.yaml";

  private SampleData() {}

  /** Up to {@code limit} lines of a file, or of the bundled sample when the file is null. */
  public static List<String> records(Path file, int limit) {
    try (BufferedReader r = file != null ? Files.newBufferedReader(file, StandardCharsets.UTF_8) : resource(RECORDS)) {
      List<String> out = new ArrayList<>();
      String line;
      while (out.size() < limit && (line = r.readLine()) != null) {
        if (!line.isBlank()) {
          out.add(line);
        }
      }
      return out;
    } catch (IOException e) {
      if (file == null) {
        throw new UncheckedIOException("cannot read the bundled sample records", e);
      }
      throw new Demo.BadOption("--data " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** The configuration YAML: a file, or the bundled one. */
  public static String config(Path file) {
    try {
      if (file != null) {
        return Files.readString(file, StandardCharsets.UTF_8);
      }
      try (BufferedReader r = resource(CONFIG)) {
        StringBuilder sb = new StringBuilder();
        String line;
        while ((line = r.readLine()) != null) {
          sb.append(line).append('\n');
        }
        return sb.toString();
      }
    } catch (IOException e) {
      if (file == null) {
        throw new UncheckedIOException("cannot read the bundled configuration", e);
      }
      throw new Demo.BadOption("--config " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static BufferedReader resource(String name) {
    InputStream in = SampleData.class.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException("the bundled resource " + name + " is missing from the jar");
    }
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
  }
}
