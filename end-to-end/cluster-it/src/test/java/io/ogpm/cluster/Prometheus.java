package io.ogpm.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scrapes a Prometheus endpoint (Flink's {@code PrometheusReporter}) and reads its text format:
 * {@code name{label="value",...} number} per sample line, comments skipped.
 */
final class Prometheus {
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{.*})?\\s+(\\S+)(\\s+\\S+)?$");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /** One sample: the metric's name, its labels as written, its value. */
  record Sample(String name, String labels, double value) {}

  private Prometheus() {}

  /** Every sample the endpoint serves now; empty if it does not answer. */
  static List<Sample> scrape(int port) {
    String body;
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics"))
                  .timeout(Duration.ofSeconds(30))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        return List.of();
      }
      body = r.body();
    } catch (IOException e) {
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return parse(body);
  }

  static List<Sample> parse(String text) {
    List<Sample> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line.trim());
      if (m.matches()) {
        out.add(
            new Sample(
                m.group(1), m.group(2) == null ? "" : m.group(2), Double.parseDouble(m.group(3))));
      }
    }
    return out;
  }

  /**
   * The sum of the samples whose name ends with {@code _suffix} (the metric's own name, after
   * Flink's scope).
   */
  static double sum(List<Sample> samples, String suffix) {
    return samples.stream()
        .filter(s -> s.name().endsWith("_" + suffix))
        .mapToDouble(Sample::value)
        .sum();
  }

  /** How many samples have a name ending with {@code _suffix}. */
  static long count(List<Sample> samples, String suffix) {
    return samples.stream().filter(s -> s.name().endsWith("_" + suffix)).count();
  }
}
