package io.ogpm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The benchmarks' field configuration: the sample's six fields, each perturbed with ogpm in every
 * record. The bundled sample samples one field per record and chooses its mechanisms; the
 * benchmarks keep the heavier, fixed record so that their figures mean the same from run to run.
 */
public final class BenchConfig {
  private BenchConfig() {}

  private static final String RESOURCE = "/bench/six-fields.yaml";

  /** The configuration's YAML. */
  public static String sixFields() {
    try (InputStream in = BenchConfig.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
