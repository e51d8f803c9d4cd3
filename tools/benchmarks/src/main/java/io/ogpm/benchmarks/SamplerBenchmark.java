package io.ogpm.benchmarks;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.KeyedPrf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Perturbed samples per second, single thread, per randomness mode: each operation is one snapped
 * output for one input. Run: {@code java -jar tools/benchmarks/target/benchmarks.jar
 * SamplerBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class SamplerBenchmark {
  static final int BATCH = 1024;

  @Param({"ogpm-classical", "ogpm-circular", "ogpm-u"})
  public String mechanism;

  private Mechanism m;
  private AesCtrSource secure;
  private AesCtrSource seeded;
  private KeyedPrf.RecordBits keyed;
  private final double[] inputs = new double[BATCH];
  private final Identifier[] ids = new Identifier[BATCH];
  private final Identifier[] users = new Identifier[BATCH];
  private long weyl;

  @Setup(Level.Trial)
  public void setUp() {
    MechanismSpec.Builder b = MechanismSpec.builder().epsilon(2).objective(Objective.L1);
    switch (mechanism) {
      case "ogpm-classical" -> b.domain(Domain.classical(-2, 2));
      case "ogpm-circular" -> b.domain(Domain.circular(-Math.PI, Math.PI));
      case "ogpm-u" -> b.type(MechanismType.OGPM_U).domain(Domain.classical(-2, 2));
      default -> throw new IllegalArgumentException(mechanism);
    }
    m = MechanismCatalog.of(b.build());
    secure = AesCtrSource.secure();
    seeded = AesCtrSource.seeded(1);
    keyed =
        KeyedPrf.fromSecret("benchmark key, 32 bytes long....".getBytes(StandardCharsets.US_ASCII))
            .forField("accel_x", m.spec().toString())
            .newBits();
    AesCtrSource data = AesCtrSource.seeded(2);
    double lo = m.domain().lo();
    double width = m.domain().width();
    for (int i = 0; i < BATCH; i++) {
      inputs[i] = lo + width * data.nextUniform();
      // Realistic record ids: a user, a sequence number.
      ids[i] = Identifier.string("user-" + (i % 24) + "-" + (1_000_000 + i));
      users[i] = Identifier.string("user-" + (i % 24));
    }
  }

  /** The production default: AES-CTR keyed from SecureRandom. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public double secure() {
    double sum = 0;
    for (int i = 0; i < BATCH; i++) {
      sum += m.perturb(inputs[i], secure);
    }
    return sum;
  }

  /** Seeded AES-CTR (tests and experiments). */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public double seeded() {
    double sum = 0;
    for (int i = 0; i < BATCH; i++) {
      sum += m.perturb(inputs[i], seeded);
    }
    return sum;
  }

  /**
   * Keyed mode: SipHash-2-4 of (key, field, mechanism, record id, user, value), as RecordPerturber
   * does it.
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public double keyed() {
    double sum = 0;
    for (int i = 0; i < BATCH; i++) {
      sum += m.perturb(inputs[i], keyed.load(ids[i], users[i], inputs[i]));
    }
    return sum;
  }

  /** The mechanism alone, bits from a Weyl sequence (not random): the cost without randomness. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public double mechanismOnly() {
    double sum = 0;
    for (int i = 0; i < BATCH; i++) {
      sum += m.perturb(inputs[i], this::weyl);
    }
    return sum;
  }

  private long weyl() {
    weyl += 0x9E3779B97F4A7C15L;
    return weyl;
  }

  /** The keyed PRF alone: one record's two words. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long keyedBitsOnly() {
    long sum = 0;
    for (int i = 0; i < BATCH; i++) {
      io.ogpm.mechanism.random.RandomBits b = keyed.load(ids[i], users[i], inputs[i]);
      sum += b.nextLong() ^ b.nextLong();
    }
    return sum;
  }

  /** The secure source alone: uniforms per second. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public double secureUniformsOnly() {
    double sum = 0;
    for (int i = 0; i < BATCH; i++) {
      sum += secure.nextUniform();
    }
    return sum;
  }
}
