package io.ogpm.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.KeyedPrf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Perturbed values per second, one thread, per mechanism (OGPM on an interval, on a circle, OGPM-U)
 * and randomness mode: {@code secure} (AES-CTR from SecureRandom, the default), {@code seeded}
 * (AES-CTR from a seed) and {@code keyed} (a SipHash PRF of key, field, mechanism, id, user and
 * value per value, as the record path does it). The project's one sampler benchmark: it runs from
 * the shipped {@code ogpm.jar} ({@code ogpm bench samplers}), so a user measures their own machine
 * with the command the documented figures come from.
 */
final class SamplerBench {
  static final int BATCH = 1024;
  static final String[] MECHANISMS = {"ogpm-classical", "ogpm-circular", "ogpm-u"};
  static final String[] MODES = {"secure", "seeded", "keyed"};

  private SamplerBench() {}

  /**
   * Every mechanism in a JVM of its own (as JMH forks), so that each is measured with its own code
   * inlined at the perturbation's call site: in one JVM the second and third mechanism would run
   * through a call site the first one's profile had already shaped.
   */
  static ObjectNode run(Duration warmUp, Duration measure) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("unit", "values per second, one thread; per CPU second: of the thread's own CPU time");
    ObjectNode values = out.putObject("valuesPerSecond");
    ObjectNode cpu = out.putObject("valuesPerCpuSecond");
    for (String name : MECHANISMS) {
      String java = ProcessHandle.current().info().command().orElse("java");
      ProcessBuilder pb =
          new ProcessBuilder(
              java,
              "-cp",
              System.getProperty("java.class.path"),
              SamplerBench.class.getName(),
              name,
              Long.toString(warmUp.toMillis()),
              Long.toString(measure.toMillis()));
      pb.redirectError(ProcessBuilder.Redirect.INHERIT);
      try {
        Process p = pb.start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
          throw new IllegalStateException(
              "the sampler bench of " + name + " failed (exit " + p.exitValue() + ")");
        }
        for (String line : text.strip().split("\n")) {
          String[] f = line.split(" ");
          values.put(name + "." + f[0], Long.parseLong(f[1]));
          cpu.put(name + "." + f[0], Long.parseLong(f[2]));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start a JVM for the sampler bench", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    return out;
  }

  /** One mechanism's forked JVM: prints "mode valuesPerSecond valuesPerCpuSecond" per mode. */
  public static void main(String[] args) {
    Mechanism m = mechanism(args[0]);
    Duration warmUp = Duration.ofMillis(Long.parseLong(args[1]));
    Duration measure = Duration.ofMillis(Long.parseLong(args[2]));
    double[] inputs = new double[BATCH];
    Identifier[] ids = new Identifier[BATCH];
    Identifier[] users = new Identifier[BATCH];
    AesCtrSource data = AesCtrSource.seeded(2);
    for (int i = 0; i < BATCH; i++) {
      inputs[i] = m.domain().lo() + m.domain().width() * data.nextUniform();
      ids[i] = Identifier.string("user-" + (i % 24) + "-" + (1_000_000 + i));
      users[i] = Identifier.string("user-" + (i % 24));
    }
    for (String mode : MODES) {
      Stopwatch.Run run = Stopwatch.run(warmUp, measure, batch(mode, m, inputs, ids, users));
      System.out.println(
          mode + " " + Math.round(run.perSecond()) + " " + Math.round(run.perCpuSecond()));
    }
  }

  /**
   * One batch of perturbations in a mode; a loop of its own per mode, so no call site is shared.
   */
  private static LongSupplier batch(
      String mode, Mechanism m, double[] inputs, Identifier[] ids, Identifier[] users) {
    double[] sink = new double[1];
    if (mode.equals("keyed")) {
      KeyedPrf.RecordBits keyed =
          KeyedPrf.fromSecret(
                  "bench key, 32 bytes long........".getBytes(StandardCharsets.US_ASCII))
              .forField("accel_x", m.spec().toString())
              .newBits();
      return () -> {
        double sum = 0;
        for (int i = 0; i < BATCH; i++) {
          sum += m.perturb(inputs[i], keyed.load(ids[i], users[i], inputs[i]));
        }
        sink[0] += sum;
        return BATCH;
      };
    }
    AesCtrSource bits = mode.equals("secure") ? AesCtrSource.secure() : AesCtrSource.seeded(1);
    return () -> {
      double sum = 0;
      for (int i = 0; i < BATCH; i++) {
        sum += m.perturb(inputs[i], bits);
      }
      sink[0] += sum;
      return BATCH;
    };
  }

  static Mechanism mechanism(String name) {
    MechanismSpec.Builder b = MechanismSpec.builder().epsilon(2).objective(Objective.L1);
    switch (name) {
      case "ogpm-classical" -> b.domain(Domain.classical(-2, 2));
      case "ogpm-circular" -> b.domain(Domain.circular(-Math.PI, Math.PI));
      default -> b.type(MechanismType.OGPM_U).domain(Domain.classical(-2, 2));
    }
    return MechanismCatalog.of(b.build());
  }
}
