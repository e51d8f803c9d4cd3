package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.jobs.cli.CommandRun;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EstimateCommandTest {
  static final String CONFIG =
      """
      id-field: id
      passthrough: [ts]
      fields:
        - name: accel_x
          min: -2.0
          max: 2.0
          epsilon: 2.0
        - name: attitude.roll
          domain: circular
          min: -3.141592653589793
          max: 3.141592653589793
          epsilon: 2.0
      """;

  static CommandRun withStdin(String input, String... args) {
    InputStream saved = System.in;
    try {
      System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
      return CliRunner.run(args);
    } finally {
      System.setIn(saved);
    }
  }

  /** What {@code perturb} wrote: its records on stdout, its summary on stderr. */
  record Perturbed(String stdout, String stderr) {}

  /** Runs {@code perturb} (which writes to the process's stdout and stderr) on {@code raw}. */
  static Perturbed perturb(Path config, String raw, String... more) {
    java.io.ByteArrayOutputStream stdout = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream stderr = new java.io.ByteArrayOutputStream();
    java.io.PrintStream savedOut = System.out;
    java.io.PrintStream savedErr = System.err;
    CommandRun run;
    try {
      System.setOut(new java.io.PrintStream(stdout, true, StandardCharsets.UTF_8));
      System.setErr(new java.io.PrintStream(stderr, true, StandardCharsets.UTF_8));
      String[] args = {"perturb", "--config", config.toString(), "--seed", "3"};
      run = withStdin(raw, concat(args, more));
    } finally {
      System.setOut(savedOut);
      System.setErr(savedErr);
    }
    assertThat(run.status()).as(run.err()).isZero();
    return new Perturbed(
        stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
  }

  /**
   * Lines as perturb writes them under {@code config}: every JSON object starts with the
   * configuration's fingerprint.
   */
  private static String labelled(Path config, CharSequence lines) {
    String opening =
        "{\"ogpm-config\":\"" + ConfigFingerprint.of(PrivacyConfig.load(config)).value() + "\",";
    return lines
        .toString()
        .replaceAll("(?m)^\\{", java.util.regex.Matcher.quoteReplacement(opening));
  }

  /**
   * perturb then estimate with field sampling (1 of 2 fields per record): each field is estimated
   * over the records that reported it, and the others are counted as unreported, not skipped.
   */
  @Test
  void withFieldSamplingEachFieldIsEstimatedOverTheRecordsThatReportedIt(@TempDir Path dir)
      throws Exception {
    Path config =
        Files.writeString(dir.resolve("c.yaml"), CONFIG + "sampling: {fields-per-record: 1}\n");
    StringBuilder raw = new StringBuilder();
    for (int i = 0; i < 4_000; i++) {
      raw.append("{\"id\":\"r")
          .append(i)
          .append("\",\"ts\":")
          .append(i)
          .append(",\"accel_x\":0.5,\"attitude\":{\"roll\":1.0}}\n");
    }
    Perturbed perturbed = perturb(config, raw.toString());
    assertThat(perturbed.stderr())
        .contains(
            "sampling: each record reports 1 of its 2 fields, each at 2 times its"
                + " configured epsilon",
            "perturbed 4000 records at epsilon at most 4 each (16000 in all)",
            "ogpm: each user: at most 4 per record; no budget, so a user's records add up without"
                + " bound");
    CommandRun r =
        withStdin(
            perturbed.stdout() + "not json\n",
            "estimate",
            "--config",
            config.toString(),
            "--field",
            "accel_x",
            "--method",
            "raw");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode out = new ObjectMapper().readTree(r.out());
    long count = out.get("count").asLong();
    assertThat(count + out.get("unreported").asLong()).isEqualTo(4_000);
    // Half of the records, within 4 standard deviations (sqrt(4000 / 4) = 31.6).
    assertThat(count).isBetween(2_000L - 127, 2_000L + 127);
    assertThat(out.get("skipped").asLong()).isEqualTo(1);
    assertThat(out.get("meanInterval").get(0).asDouble()).isLessThan(0.5);
    assertThat(out.get("meanInterval").get(1).asDouble()).isGreaterThan(0.5);
  }

  /**
   * The mix-ups a file allows: records perturbed under one configuration estimated under another,
   * or raw readings estimated as if perturbed. Each is refused with one line naming both
   * fingerprints; the matching configuration estimates the same file.
   */
  @Test
  void refusesRecordsPerturbedUnderAnotherConfigurationOrNotAtAll(@TempDir Path dir)
      throws Exception {
    String field = "fields:\n  - {name: x, min: 0, max: 1, epsilon: 1";
    Path eps1 = Files.writeString(dir.resolve("eps1.yaml"), field + "}\n");
    StringBuilder raw = new StringBuilder();
    for (int i = 0; i < 2_000; i++) {
      raw.append("{\"x\":").append(i % 4 == 0 ? 1.0 : 0.0).append("}\n");
    }
    String byEps1 = perturb(eps1, raw.toString()).stdout();
    assertThat(byEps1).startsWith("{\"ogpm-config\":\"" + fingerprint(eps1) + "\",\"x\":");
    CommandRun same = withStdin(byEps1, "estimate", "--config", eps1.toString(), "--field", "x");
    assertThat(same.status()).as(same.err()).isZero();
    assertThat(new ObjectMapper().readTree(same.out()).get("count").asLong()).isEqualTo(2_000);

    String[][] others = {
      {"eps4", field.replace("epsilon: 1", "epsilon: 4") + "}\n"},
      {"pm", field + ", mechanism: pm}\n"},
      {"circular", field + ", domain: circular}\n"},
    };
    for (String[] other : others) {
      Path config = Files.writeString(dir.resolve(other[0] + ".yaml"), other[1]);
      assertRefused(
          withStdin(byEps1, "estimate", "--config", config.toString(), "--field", "x"),
          "ogpm: line 1 was perturbed under configuration "
              + fingerprint(eps1)
              + ", not "
              + fingerprint(config)
              + " (--config "
              + config
              + "): estimate it with the configuration that perturbed it");
    }
    Path wide =
        Files.writeString(dir.resolve("wide.yaml"), field.replace("max: 1", "max: 2") + "}\n");
    assertRefused(
        withStdin(
            perturb(wide, raw.toString()).stdout(),
            "estimate",
            "--config",
            eps1.toString(),
            "--field",
            "x"),
        "ogpm: line 1 was perturbed under configuration "
            + fingerprint(wide)
            + ", not "
            + fingerprint(eps1));
    String expected =
        "ogpm: line 1 has no ogpm-config fingerprint: not written by ogpm perturb (raw readings?);"
            + " expected "
            + fingerprint(eps1)
            + ", the fingerprint of --config "
            + eps1;
    assertRefused(
        withStdin(raw.toString(), "estimate", "--config", eps1.toString(), "--field", "x"),
        expected);
    // A forged fingerprint is named as unreadable, never echoed: it could carry a reading.
    CommandRun forged =
        withStdin(
            "{\"ogpm-config\":\"0.7341\",\"x\":0.5}\n",
            "estimate",
            "--config",
            eps1.toString(),
            "--field",
            "x");
    assertRefused(
        forged, "ogpm: line 1 was perturbed under configuration (an unreadable fingerprint), not");
    assertThat(forged.err()).doesNotContain("0.7341");
    // A bad line is refused wherever it is: the first 2,000 lines are fine.
    assertRefused(
        withStdin(
            byEps1 + "{\"x\":0.5}\n", "estimate", "--config", eps1.toString(), "--field", "x"),
        "ogpm: line 2001 has no ogpm-config fingerprint");
  }

  private static String fingerprint(Path config) {
    return ConfigFingerprint.of(PrivacyConfig.load(config)).value();
  }

  /** Refused with a usage error: one line on stderr, starting as given; nothing on stdout. */
  private static void assertRefused(CommandRun r, String message) {
    assertThat(r.status()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).startsWith(message);
    assertThat(r.err().strip()).doesNotContain("\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void estimatesAClassicalField(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG);
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.classical(-2, 2)).build());
    AesCtrSource bits = AesCtrSource.seeded(1);
    StringBuilder in = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      double x = i % 2 == 0 ? -0.5 : 1.0; // true mean 0.25
      in.append("{\"id\":\"r")
          .append(i)
          .append("\",\"accel_x\":")
          .append(m.perturb(x, bits))
          .append("}\n");
    }
    in.append("not json\n{\"accel_x\":\"x\"}\n{\"other\":1}\n");
    for (String method : new String[] {"raw", "em"}) {
      CommandRun r =
          withStdin(
              labelled(config, in),
              "estimate",
              "--config",
              config.toString(),
              "--field",
              "accel_x",
              "--bins",
              "20",
              "--method",
              method);
      assertThat(r.status()).as(r.err()).isZero();
      JsonNode out = new ObjectMapper().readTree(r.out());
      assertThat(out.get("count").asLong()).isEqualTo(20_000);
      assertThat(out.get("skipped").asLong()).isEqualTo(3);
      double total = 0;
      for (JsonNode f : out.get("histogram")) {
        total += f.asDouble();
      }
      assertThat(out.get("histogram")).hasSize(20);
      assertThat(total).isCloseTo(1, within(1e-9));
      // Both inputs lie where OGPM's mean function is affine (|x| < 1.5 at eps 2), so the unbiased
      // estimate's standard deviation is at most sd = sqrt(maxVar / n) / slope: within 3.89 sd of
      // the truth at a 1e-4 level. The 95 % interval (shared by both methods) widened by 3.89 -
      // 1.96 sd on each side holds the truth as often (widening [L, U] by d moves the consistent
      // means out by at least d / slope); the em estimate lies in the interval.
      double slope = m.outputMean(0.5) - m.outputMean(-0.5);
      double sd = Math.sqrt(m.maxOutputVariance() / 20_000) / slope;
      double lower = out.get("meanInterval").get(0).asDouble();
      double upper = out.get("meanInterval").get(1).asDouble();
      assertThat(0.25).as(method).isBetween(lower - (3.89 - 1.96) * sd, upper + (3.89 - 1.96) * sd);
      assertThat(out.get("mean").asDouble()).as(method).isBetween(lower, upper);
      if (method.equals("raw")) {
        assertThat(out.get("mean").asDouble()).isCloseTo(0.25, within(3.89 * sd));
      }
      assertThat(out.get("means").get("raw")).isNotNull();
    }
  }

  @Test
  void estimatesACircularFieldAcrossTheSeam(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG);
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(-Math.PI, Math.PI)).build());
    AesCtrSource bits = AesCtrSource.seeded(2);
    StringBuilder in = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      double x = i % 2 == 0 ? 3.0 : -3.0; // circular mean pi
      in.append("{\"attitude\":{\"roll\":").append(m.perturb(x, bits)).append("}}\n");
    }
    CommandRun r =
        withStdin(
            labelled(config, in),
            "estimate",
            "--config",
            config.toString(),
            "--field",
            "attitude.roll",
            "--method",
            "raw");
    JsonNode out = new ObjectMapper().readTree(r.out());
    assertThat(
            Math.abs(Math.IEEEremainder(out.get("circularMean").asDouble() - Math.PI, 2 * Math.PI)))
        .isLessThan(0.05);
    assertThat(out.get("resultantLength").asDouble())
        .isCloseTo(Math.cos(3.0 - Math.PI), within(0.05));
    assertThat(out.get("histogram")).hasSize(50);
  }

  /**
   * The distribution: the default quantiles, those of {@code --quantiles}, the field's configured
   * exceedances, and {@code --exceed} in their stead; each interval holds the truth of these inputs
   * (half at -0.5, half at 1).
   */
  @Test
  void reportsTheQuantilesAndExceedancesAskedFor(@TempDir Path dir) throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("c.yaml"),
            CONFIG.replace(
                "epsilon: 2.0\n  - name: attitude.roll",
                "epsilon: 2.0\n    exceedances: [0]\n  - name: attitude.roll"));
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.classical(-2, 2)).build());
    AesCtrSource bits = AesCtrSource.seeded(5);
    StringBuilder in = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      in.append("{\"accel_x\":").append(m.perturb(i % 2 == 0 ? -0.5 : 1.0, bits)).append("}\n");
    }
    String[] base = {"estimate", "--config", config.toString(), "--field", "accel_x"};
    String lines = labelled(config, in);
    JsonNode byDefault = distribution(withStdin(lines, base));
    assertThat(byDefault.get("quantiles").findValuesAsText("p"))
        .containsExactly("0.1", "0.5", "0.9");
    assertThat(byDefault.get("exceedances").findValuesAsText("threshold")).containsExactly("0.0");
    assertHolds(byDefault.get("exceedances").get(0), 0.5);
    assertHolds(byDefault.get("quantiles").get(1), -0.5); // the least t with F(t) >= 0.5
    JsonNode cdf = byDefault.get("cdf");
    assertThat(cdf.get("points").get(0).asDouble()).isEqualTo(-2);
    assertThat(cdf.get("lower")).hasSameSizeAs(cdf.get("points"));

    JsonNode asked =
        distribution(
            withStdin(
                lines,
                concat(base, "--quantiles", "0.25,0.75", "--exceed", "-1,1.5", "--method", "raw")));
    assertThat(asked.get("quantiles").findValuesAsText("p")).containsExactly("0.25", "0.75");
    assertHolds(asked.get("quantiles").get(0), -0.5);
    assertHolds(asked.get("quantiles").get(1), 1.0);
    assertThat(asked.get("exceedances").findValuesAsText("threshold"))
        .containsExactly("-1.0", "1.5");
    assertHolds(asked.get("exceedances").get(0), 1.0);
    assertHolds(asked.get("exceedances").get(1), 0.0);
    // Without a reconstruction (raw), an estimate is its interval's middle.
    JsonNode median = asked.get("quantiles").get(0);
    assertThat(median.get("estimate").asDouble())
        .isEqualTo((median.get("lower").asDouble() + median.get("upper").asDouble()) / 2);
  }

  private static JsonNode distribution(CommandRun r) throws Exception {
    assertThat(r.status()).as(r.err()).isZero();
    return new ObjectMapper().readTree(r.out()).get("distribution");
  }

  /** An interval object ({@code estimate}, {@code lower}, {@code upper}) that holds the truth. */
  private static void assertHolds(JsonNode interval, double truth) {
    assertThat(truth)
        .as("%s", interval)
        .isBetween(interval.get("lower").asDouble(), interval.get("upper").asDouble());
    assertThat(interval.get("estimate").asDouble())
        .isBetween(interval.get("lower").asDouble(), interval.get("upper").asDouble());
  }

  static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** A contribution bound needs a running job's windows: perturb refuses it with one line. */
  @Test
  void perturbRefusesAContributionBound(@TempDir Path dir) throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("c.yaml"),
            "user-field: u\nfields: [{name: x, min: 0, max: 1, epsilon: 1}]\n"
                + "contribution: {window: 10s}\n");
    CommandRun r = withStdin("{\"u\":\"a\",\"x\":0.5}\n", "perturb", "--config", config.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo(
            "ogpm: --config "
                + config
                + ": contribution: a bound holds each window's records until the window closes,"
                + " on a clock of the running job: run perturb-job; ogpm perturb cannot apply it");
  }

  @Test
  void badArgumentsNameTheOption(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG);
    assertThat(withStdin("", "estimate", "--config", config.toString(), "--field", "nope").err())
        .contains("--field 'nope' is not in");
    assertThat(
            withStdin(
                    "",
                    "estimate",
                    "--config",
                    config.toString(),
                    "--field",
                    "accel_x",
                    "--method",
                    "ml")
                .err())
        .contains("--method must be raw or em, got 'ml'");
    String[] accel = {"estimate", "--config", config.toString(), "--field", "accel_x"};
    CommandRun quantiles = withStdin("", concat(accel, "--quantiles", "0.5,0.5"));
    assertThat(quantiles.status()).isEqualTo(2);
    assertThat(quantiles.err())
        .contains(
            "--quantiles: quantile probabilities must increase without repeats, got 0.5 after 0.5");
    assertThat(withStdin("", concat(accel, "--quantiles", "0")).err())
        .contains("--quantiles: a quantile's probability must be in (0, 1), got 0.0");
    CommandRun exceed = withStdin("", concat(accel, "--exceed", "1,3"));
    assertThat(exceed.status()).isEqualTo(2);
    assertThat(exceed.err())
        .contains("--exceed: exceedance threshold 3.0 is outside the domain [-2.0, 2.0]");
    Path outside =
        Files.writeString(
            dir.resolve("outside.yaml"),
            "fields:\n  - {name: a, min: 0, max: 1, epsilon: 1, exceedances: [2]}\n");
    assertThat(withStdin("", "estimate", "--config", outside.toString(), "--field", "a").err())
        .contains("field 'a': exceedance threshold 2.0 is outside the domain [0.0, 1.0]");
    Path bad =
        Files.writeString(
            dir.resolve("bad.yaml"),
            "fields:\n  - name: a\n    min: 0\n    max: 1\n    epsilon: -1\n");
    CommandRun r = withStdin("", "estimate", "--config", bad.toString(), "--field", "a");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("field 'a': epsilon must be > 0, got -1.0");
  }
}
