package io.ogpm.demo;

import io.ogpm.sample.BundledSample;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo's input: the bundled MotionSense sample and its configuration, or files given instead.
 */
final class SampleData {
  private SampleData() {}

  /** Up to {@code limit} lines of a file, or of the bundled sample when the file is null. */
  static List<String> records(Path file, int limit) {
    if (file == null) {
      return BundledSample.records(limit);
    }
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return BundledSample.records(r, limit);
    } catch (IOException e) {
      throw new Demo.BadOption(
          "--data " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** The configuration YAML: a file, or the bundled one. */
  static String config(Path file) {
    if (file == null) {
      return BundledSample.config();
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new Demo.BadOption(
          "--config " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    }
  }
}
