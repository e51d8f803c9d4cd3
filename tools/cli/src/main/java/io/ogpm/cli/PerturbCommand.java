package io.ogpm.cli;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.config.UserGuarantee;
import io.ogpm.jobs.cli.ConfigFileOption;
import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Perturbs JSON lines from stdin: the same code path as the Flink operator. */
@Command(
    name = "perturb",
    mixinStandardHelpOptions = true,
    description = {
      "Reads JSON records (one per line) on stdin; writes perturbed records (one per line, each"
          + " starting with the configuration's fingerprint, ogpm-config) on stdout"
          + " and one dead letter per rejected line to --dlq (default stderr). Ends with one summary line"
          + " on stderr: records perturbed, dead-lettered, and each record's epsilon."
    })
final class PerturbCommand implements Callable<Integer> {
  @Mixin ConfigFileOption config;

  @Option(
      names = "--dlq",
      paramLabel = "FILE",
      description = "Where dead letters go (JSON lines). Default: stderr.")
  Path dlq;

  @Mixin RandomnessOptions randomness;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrivacyConfig cfg = config.load();
    if (cfg.contribution().isPresent()) {
      throw new UsageError(
          config.origin()
              + ": contribution: a bound holds each window's records until the window closes, on"
              + " a clock of the running job: run perturb-job; ogpm perturb cannot apply it");
    }
    RandomnessMode mode = randomness.mode();
    RecordPerturber perturber;
    try {
      perturber = new RecordPerturber(cfg, mode);
    } catch (IllegalArgumentException e) {
      throw new UsageError(config.origin() + ": " + e.getMessage());
    } finally {
      mode.destroy();
    }
    FingerprintedLines lines = new FingerprintedLines(ConfigFingerprint.of(cfg), config.origin());
    boolean sampled = cfg.samplesFields();
    cfg.sampling().ifPresent(s -> System.err.println("ogpm: " + s.describe()));
    System.err.println("ogpm: " + UserGuarantee.of(cfg).describe());
    OutputStream out = new java.io.BufferedOutputStream(System.out, 1 << 16);
    OutputStream dlqStream = dlq != null ? Files.newOutputStream(dlq) : System.err;
    PrintStream dead = new PrintStream(dlqStream, false, StandardCharsets.UTF_8);
    long perturbed = 0;
    double spent = 0;
    long rejected = 0;
    long line = 0;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      String text;
      while ((text = in.readLine()) != null) {
        line++;
        Outcome o = perturber.perturb(text.getBytes(StandardCharsets.UTF_8), Source.line(line));
        if (o instanceof Outcome.Perturbed p) {
          lines.write(p.value(), out);
          perturbed++;
          spent += p.epsilon();
        } else if (o instanceof Outcome.Rejected r) {
          dead.println(r.deadLetter().toJson().toString());
          rejected++;
        }
      }
    }
    out.flush();
    dead.flush();
    if (dlq != null) {
      dead.close();
    }
    // With field sampling a record spends the epsilons of the fields it reports: at most the most.
    // Those are a hair below round figures (FieldSampling.rounded).
    System.err.printf(
        java.util.Locale.ROOT,
        "ogpm: perturbed %d records at epsilon %s%s each (%s in all); dead-lettered %d%n",
        perturbed,
        sampled ? "at most " : "",
        shown(perturber.epsilonPerRecord(), sampled),
        shown(sampled ? spent : perturbed * perturber.epsilonPerRecord(), sampled),
        rejected);
    return 0;
  }

  private static String shown(double epsilon, boolean rounded) {
    return rounded ? FieldSampling.rounded(epsilon) : Double.toString(epsilon);
  }
}
