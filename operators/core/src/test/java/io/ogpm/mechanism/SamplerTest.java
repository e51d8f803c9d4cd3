package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.KeyedPrf;
import io.ogpm.mechanism.random.RandomBits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The samplers against the exact errors: Monte Carlo means within a confidence bound, every
 * randomness mode, inputs at the ends and inside; outputs always inside the output domain.
 */
class SamplerTest {
  /**
   * Two-sided normal quantile for the confidence bound of each Monte Carlo comparison: 4.0 sigma (p
   * = 6.3e-5), so that the ~100 comparisons in this class have a family-wise false alarm rate below
   * 1 % (Bonferroni); seeds are fixed, so a run is reproducible either way.
   */
  static final double Z = 4.0;

  /**
   * The same for the secure (unseeded) mode, which draws a new sample on every run: 5.3 sigma (p =
   * 1.2e-7), so its 30 comparisons falsely fail a CI run about once in 300,000.
   */
  static final double Z_UNSEEDED = 5.3;

  static final int DRAWS = 400_000;

  /** A randomness mode: the random bits for draw number i. */
  record Mode(String name, LongFunction<RandomBits> factory) {}

  static List<Mode> modes() {
    AesCtrSource secure = AesCtrSource.secure();
    AesCtrSource seeded = AesCtrSource.seeded(20261122L);
    KeyedPrf.Field keyed =
        KeyedPrf.fromSecret("a test key of thirty-two bytes!!".getBytes(StandardCharsets.US_ASCII))
            .forField("accel_x", "test");
    return List.of(
        new Mode("secure", i -> secure),
        new Mode("seeded", i -> seeded),
        // A fresh id per draw; the value the bits are bound to does not change their distribution.
        new Mode(
            "keyed", i -> keyed.forRecord(Identifier.string("record-" + i), Identifier.NONE, 0.5)));
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    List<MechanismSpec> specs =
        List.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.classical(-2, 2)).build(),
            MechanismSpec.builder()
                .epsilon(4)
                .objective(Objective.L2)
                .domain(Domain.classical(0, 1))
                .build(),
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(-Math.PI, Math.PI)).build(),
            MechanismSpec.builder()
                .epsilon(0.5)
                .objective(Objective.L2)
                .domain(Domain.circular(0, 360))
                .build(),
            MechanismSpec.builder()
                .type(MechanismType.OGPM_U)
                .epsilon(2)
                .domain(Domain.classical(10, 20))
                .build());
    for (Mode mode : modes()) {
      for (MechanismSpec spec : specs) {
        out.add(Arguments.of(mode.name(), spec, mode));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void monteCarloErrorMatchesExactError(String modeName, MechanismSpec spec, Mode mode) {
    Mechanism m = MechanismCatalog.of(spec);
    Distance distance = spec.domain().naturalDistance();
    double lo = spec.domain().lo();
    double hi = spec.domain().hi();
    for (double x : new double[] {lo, lo + 0.3 * (hi - lo), hi}) {
      for (ErrorMetric metric : ErrorMetric.values()) {
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < DRAWS; i++) {
          double y = m.perturb(x, mode.factory().apply(i));
          double d = distance == Distance.LINEAR ? Math.abs(y - x) : circular(y, x, hi - lo);
          double loss = metric == ErrorMetric.L1 ? d : d * d;
          sum += loss;
          sumSq += loss * loss;
        }
        double mean = sum / DRAWS;
        double sd = Math.sqrt(Math.max(0, sumSq / DRAWS - mean * mean));
        // Snapping moves an output by at most half a cell: a deterministic bias bound on the loss.
        double snap =
            m.cellWidth() * (metric == ErrorMetric.L1 ? 1 : 2 * (m.outputHi() - m.outputLo()));
        double z = modeName.equals("secure") ? Z_UNSEEDED : Z;
        double bound = z * sd / Math.sqrt(DRAWS) + snap;
        assertThat(mean)
            .as("%s x=%s %s", spec, x, metric)
            .isCloseTo(m.expectedError(x, metric, distance), within(bound));
      }
    }
  }

  @Test
  void unbiasedMechanismIsUnbiasedByMonteCarlo() {
    // 99.9 % two-sided bound: z = 3.29, with the exact variance (the L2 error: E[y] = x).
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.OGPM_U)
                .epsilon(1)
                .domain(Domain.classical(0, 1))
                .build());
    AesCtrSource source = AesCtrSource.seeded(7);
    int n = 2_000_000;
    for (double x : new double[] {0, 0.25, 1}) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += m.perturb(x, source);
      }
      double variance = m.expectedError(x, ErrorMetric.L2, Distance.LINEAR);
      double bound = 3.29 * Math.sqrt(variance / n) + m.cellWidth();
      assertThat(sum / n).as("x=%s", x).isCloseTo(x, within(bound));
    }
  }

  @Test
  void tenMillionDrawsAtBothEndsStayInTheDomain() {
    AesCtrSource source = AesCtrSource.seeded(99);
    List<MechanismSpec> specs =
        List.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.classical(-2, 2)).build(),
            MechanismSpec.builder()
                .epsilon(8)
                .objective(Objective.L2)
                .domain(Domain.classical(0, 1))
                .build(),
            MechanismSpec.builder().epsilon(1).domain(Domain.circular(-Math.PI, Math.PI)).build());
    for (MechanismSpec spec : specs) {
      Mechanism m = MechanismCatalog.of(spec);
      double lo = spec.domain().lo();
      double hi = spec.domain().hi();
      for (double x : new double[] {lo, hi}) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 10_000_000; i++) {
          double y = m.perturb(x, source);
          min = Math.min(min, y);
          max = Math.max(max, y);
        }
        assertThat(min).as("%s x=%s min", spec, x).isGreaterThanOrEqualTo(lo);
        assertThat(max).as("%s x=%s max", spec, x).isLessThan(hi);
      }
    }
  }

  @Test
  void extremeRandomBitsStayInTheDomain() {
    long[] words = {0, -1, 1, Long.MAX_VALUE, Long.MIN_VALUE};
    for (double eps : Mechanisms.EPSILONS) {
      if (eps > MechanismType.OGPM.maxEpsilon()) {
        continue; // not offered
      }
      for (MechanismSpec spec :
          List.of(
              MechanismSpec.builder().epsilon(eps).domain(Domain.classical(-1, 3)).build(),
              MechanismSpec.builder().epsilon(eps).domain(Domain.circular(0, 2 * Math.PI)).build(),
              MechanismSpec.builder().type(MechanismType.OGPM_U).epsilon(eps).build())) {
        Mechanism m = MechanismCatalog.of(spec);
        for (double x : new double[] {spec.domain().lo(), spec.domain().hi()}) {
          for (long first : words) {
            for (long second : words) {
              // Two chosen words, then (should Lemire's method reject) ordinary random ones.
              long[] chosen = {first, second};
              int[] next = {0};
              AesCtrSource rest = AesCtrSource.seeded(first ^ second);
              double y = m.perturb(x, () -> next[0] < 2 ? chosen[next[0]++] : rest.nextLong());
              assertThat(y)
                  .as("%s x=%s bits=%s,%s", spec, x, first, second)
                  .isGreaterThanOrEqualTo(m.outputLo())
                  .isLessThan(m.outputHi());
            }
          }
        }
      }
    }
  }

  @Test
  void extremeUniformsStayInTheDomainUnsnapped() {
    double[] us = {0, Math.nextUp(0.0), 0x1.0p-53, 0.5, 1 - 0x1.0p-53};
    for (double eps : Mechanisms.EPSILONS) {
      if (eps > MechanismType.OGPM.maxEpsilon()) {
        continue; // not offered
      }
      for (MechanismSpec spec :
          List.of(
              MechanismSpec.builder().epsilon(eps).domain(Domain.classical(-1, 3)).build(),
              MechanismSpec.builder().epsilon(eps).domain(Domain.circular(0, 2 * Math.PI)).build(),
              MechanismSpec.builder().type(MechanismType.OGPM_U).epsilon(eps).build())) {
        Mechanism m = MechanismCatalog.of(spec);
        for (double x : new double[] {spec.domain().lo(), spec.domain().hi()}) {
          for (double u : us) {
            double y = m.perturbUnsnapped(x, u);
            assertThat(y)
                .as("%s x=%s u=%s", spec, x, u)
                .isGreaterThanOrEqualTo(m.outputLo())
                .isLessThan(m.outputHi());
            if (spec.domain().isCircular()) {
              assertThat(y).isLessThan(spec.domain().hi());
            }
          }
        }
      }
    }
  }

  @Test
  void fastSamplerAgreesWithTheGenericInverseCdf() {
    AesCtrSource source = AesCtrSource.seeded(3);
    for (Mechanisms.Named named : Mechanisms.allEpsilons()) {
      PiecewiseUnitMechanism m = named.mechanism();
      for (int i = 0; i < 2000; i++) {
        double z = i < 2 ? i : source.nextUniform();
        double u = source.nextUniform();
        double fast = m.inverseCdf(z, u);
        PiecewiseDistribution d = m.distribution(z);
        if (m.circular()) {
          // The fast sampler walks the circle from the start of the high arc: the mass from there
          // to its output, going round, must be u.
          double start = CircularOgpm.wrap(z - 0.5 * ((CircularOgpm) m).shape().central());
          double walked = fast >= start ? d.mass(start, fast) : d.mass(start, 1) + d.mass(0, fast);
          double tolerance = 1e-12 + 4 * ((CircularOgpm) m).shape().high() * Math.ulp(1.0);
          assertThat(walked).as("%s z=%s u=%s", named, z, u).isCloseTo(u, within(tolerance));
        } else {
          // Compared in probability: an output error of delta moves the cdf by density * delta,
          // which is well conditioned, while the output itself is not (du / q at low density q).
          double high =
              d.pieces().stream()
                  .mapToDouble(PiecewiseDistribution.Piece::density)
                  .max()
                  .orElseThrow();
          double tolerance =
              1e-12 + 8 * high * Math.ulp(Math.max(Math.abs(m.outputLo()), Math.abs(m.outputHi())));
          assertThat(d.mass(m.outputLo(), fast))
              .as("%s z=%s u=%s", named, z, u)
              .isCloseTo(u, within(tolerance));
        }
      }
    }
  }

  private static double circular(double y, double x, double period) {
    double d = Math.abs(y - x) % period;
    return Math.min(d, period - d);
  }
}
