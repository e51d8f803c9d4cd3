package io.ogpm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.jobs.cli.UsageError;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Perturbed records as JSON lines that say which configuration made them: each line {@code perturb}
 * writes starts with the field {@value ConfigFingerprint#FIELD} holding the configuration's {@link
 * ConfigFingerprint} (what the Kafka header of the same name carries), and {@code estimate} reads
 * only lines that carry its own configuration's. A file's values mean nothing without the
 * mechanism, epsilon and domain that made them: estimated under another configuration they give
 * intervals that look sound and miss, and raw readings estimated as if perturbed give nonsense. So
 * a line under another fingerprint, or a JSON object under none, stops the reader with one line.
 *
 * <p>The field is a line's first so that {@code head} shows it and the writer need not look inside
 * the record; {@code PrivacyConfig} reserves the name, so no configured field can take its place.
 */
final class FingerprintedLines {
  private final ConfigFingerprint expected;
  private final String origin;
  private final byte[] opening;

  /**
   * @param expected the fingerprint of the configuration in use
   * @param origin where that configuration comes from, for messages (its file)
   */
  FingerprintedLines(ConfigFingerprint expected, String origin) {
    this.expected = expected;
    this.origin = origin;
    opening =
        ("{\"" + ConfigFingerprint.FIELD + "\":\"" + expected.value() + "\"")
            .getBytes(StandardCharsets.UTF_8);
  }

  /** Writes a perturbed record (a compact JSON object) as one line with the fingerprint first. */
  void write(byte[] record, OutputStream out) throws IOException {
    if (record.length < 2 || record[0] != '{' || record[record.length - 1] != '}') {
      throw new IllegalStateException("a perturbed record is a JSON object");
    }
    out.write(opening);
    if (record.length > 2) {
      out.write(',');
    }
    out.write(record, 1, record.length - 1);
    out.write('\n');
  }

  /**
   * Refuses, with a usage error naming both fingerprints, a JSON object that was perturbed under
   * another configuration or carries no fingerprint (raw readings, or records from elsewhere).
   * Other lines are the caller's to count.
   *
   * @param root a line's parsed JSON
   * @param line its number, from 1
   */
  void check(JsonNode root, long line) {
    if (root == null || !root.isObject()) {
      return;
    }
    JsonNode found = root.get(ConfigFingerprint.FIELD);
    if (found == null || !found.isTextual()) {
      throw new UsageError(
          "line "
              + line
              + " has no "
              + ConfigFingerprint.FIELD
              + " fingerprint: not written by ogpm perturb (raw readings?); expected "
              + expected
              + ", the fingerprint of "
              + origin);
    }
    if (!found.asText().equals(expected.value())) {
      throw new UsageError(
          "line "
              + line
              + " was perturbed under configuration "
              + ConfigFingerprint.shown(found.asText())
              + ", not "
              + expected
              + " ("
              + origin
              + "): estimate it with the configuration that perturbed it");
    }
  }
}
