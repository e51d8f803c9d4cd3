package io.ogpm.cli;

import static io.ogpm.cli.EstimateCommandTest.perturb;
import static io.ogpm.cli.EstimateCommandTest.withStdin;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.cli.CommandRun;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.audit.ClopperPearson;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command at every epsilon a user may type, from a tenth to 700: below each mechanism's
 * largest epsilon ({@link MechanismType#maxEpsilon}) it answers, above it it refuses with one line
 * naming the value. Where it answers, {@code perturb} then {@code estimate} on a point mass in the
 * middle, one at each end and uniform readings give intervals and bands that are there and hold the
 * truth (no more misses than 95 % intervals allow), and a point mass's headline lies within the
 * outputs' spread of it: when every output sits within a hair of its input, so does the answer.
 */
class EveryEpsilonCommandsTest {
  /** A log grid, each limit, and the epsilons where estimates once broke. */
  static final double[] EPSILONS =
      DoubleStream.concat(
              DoubleStream.of(0.1, 0.25, 0.5, 1, 2, 4, 8, 12, 16, 20, 30, 36, 44, 46),
              DoubleStream.concat(
                  IntStream.rangeClosed(56, 75).asDoubleStream(),
                  DoubleStream.of(80, 100, 300, 700)))
          .toArray();

  private static final int N = 1_000;

  private final ObjectMapper json = new ObjectMapper();

  @Test
  void everyMechanismCommandAnswersUpToItsLargestEpsilonAndRefusesAboveIt() {
    for (MechanismType type : MechanismType.values()) {
      for (String domain : List.of("classical", "circular")) {
        if (domain.equals("circular") ? !type.supportsCircular() : !type.supportsClassical()) {
          continue;
        }
        for (double eps : EPSILONS) {
          String[] spec = {
            "--mechanism", type.id(), "--domain", domain, "--hi", "1", "--epsilon", number(eps)
          };
          String[][] commands = {
            EstimateCommandTest.concat(new String[] {"mechanism", "--x", "0.5"}, spec),
            EstimateCommandTest.concat(new String[] {"error", "--worst"}, spec),
            EstimateCommandTest.concat(
                new String[] {"sample", "--x", "0.5", "--n", "20", "--seed", "1"}, spec)
          };
          for (String[] command : commands) {
            CommandRun r = CliRunner.run(command);
            String label = String.join(" ", command);
            if (eps <= type.maxEpsilon() && command[0].equals("mechanism") && !piecewise(type)) {
              // Its output distribution is not pieces and atoms: refused whatever the epsilon.
              assertThat(r.err())
                  .as(label)
                  .isEqualTo(
                      "ogpm: --mechanism "
                          + type.id()
                          + " has no piecewise-uniform output distribution"
                          + System.lineSeparator());
            } else if (eps <= type.maxEpsilon()) {
              assertThat(r.status()).as("%s: %s", label, r.err()).isZero();
              assertThat(r.out()).as(label).isNotBlank();
            } else {
              assertThat(r.status()).as(label).isEqualTo(2);
              assertThat(r.err())
                  .as(label)
                  .isEqualTo(
                      "ogpm: --epsilon must be <= "
                          + type.maxEpsilon()
                          + " for "
                          + type.id()
                          + " (above it its moments and bands are not exact in doubles), got "
                          + eps
                          + System.lineSeparator());
            }
          }
        }
      }
    }
  }

  private static boolean piecewise(MechanismType type) {
    return MechanismCatalog.of(
            MechanismSpec.builder()
                .type(type)
                .epsilon(1)
                .domain(type.supportsClassical() ? Domain.classical(0, 1) : Domain.circular(0, 1))
                .build())
        .isPiecewise();
  }

  /** What a sweep of perturb and estimate found: windows checked and missed, per statistic. */
  private int means;

  private int meanMisses;
  private int bands;
  private int bandMisses;
  private int headlines;
  private int step;

  /**
   * The product's mechanism and those offered up to 700, on both domains, at every epsilon of the
   * grid: above the limit, the configuration is refused with one line; below, every window answers.
   * ogpm takes each of the four inputs at each epsilon; the others one input an epsilon, in turn.
   */
  @Test
  @Tag("slow") // hundreds of perturb and estimate runs: run by surefire
  void perturbAndEstimateAnswerAtEveryEpsilonWithIntervalsThatHoldTheTruth(@TempDir Path dir)
      throws Exception {
    String[][] fields = {
      {"ogpm", "classical"}, {"ogpm", "circular"},
      {"t-laplace", "classical"}, {"t-laplace", "circular"},
      {"b-laplace", "classical"}, {"b-laplace", "circular"},
      {"purkayastha", "circular"}
    };
    for (String[] field : fields) {
      MechanismType type = MechanismType.parse(field[0]);
      boolean circular = field[1].equals("circular");
      for (double eps : EPSILONS) {
        Path config =
            Files.writeString(
                dir.resolve(field[0] + "-" + field[1] + "-" + eps + ".yaml"),
                "fields:\n  - {name: x, min: 0, max: 1, domain: "
                    + field[1]
                    + ", mechanism: "
                    + field[0]
                    + ", epsilon: "
                    + number(eps)
                    + "}\n");
        if (eps > type.maxEpsilon()) {
          CommandRun refused = withStdin("{\"x\":0.5}\n", "perturb", "--config", config.toString());
          assertThat(refused.status()).isEqualTo(2);
          assertThat(refused.err().strip())
              .isEqualTo(
                  "ogpm: --config "
                      + config
                      + ": field 'x': epsilon must be <= "
                      + type.maxEpsilon()
                      + " for "
                      + type.id()
                      + " (above it its moments and bands are not exact in doubles), got "
                      + eps);
          continue;
        }
        double end = circular ? 0.999 : 1;
        List<String> inputs = List.of("middle", "start", "end", "uniform");
        if (type != MechanismType.OGPM) {
          // An estimator of these takes up to a second to build at large epsilon (the mean
          // function by quadrature): each epsilon takes one input, in turn along the grid.
          inputs = List.of(inputs.get(step++ % inputs.size()));
        }
        for (String input : inputs) {
          double[] xs = new double[N];
          for (int i = 0; i < N; i++) {
            xs[i] =
                switch (input) {
                  case "middle" -> 0.5;
                  case "start" -> 0;
                  case "end" -> end;
                  default -> (i + 0.5) / N;
                };
          }
          check(type.id() + " " + field[1] + " eps " + eps + " " + input, config, xs, circular);
        }
      }
    }
    assertThat(headlines).isPositive();
    assertConsistentWith95(meanMisses, means, "means");
    assertConsistentWith95(bandMisses, bands, "bands");
  }

  private void check(String label, Path config, double[] xs, boolean circular) throws Exception {
    StringBuilder raw = new StringBuilder();
    for (double x : xs) {
      raw.append("{\"x\":").append(x).append("}\n");
    }
    String perturbed = perturb(config, raw.toString()).stdout();
    double spread = 0;
    for (String line : perturbed.split("\n")) {
      double y = json.readTree(line).get("x").asDouble();
      spread = Math.max(spread, distance(y, xs[0], circular));
    }
    CommandRun r = withStdin(perturbed, "estimate", "--config", config.toString(), "--field", "x");
    assertThat(r.status()).as("%s: %s", label, r.err()).isZero();
    JsonNode out = json.readTree(r.out());
    assertThat(out.get("count").asLong()).as(label).isEqualTo(N);
    boolean pointMass = xs[0] == xs[N - 1];
    double headline;
    if (circular) {
      double truth = circularMean(xs);
      headline = out.get("circularMean").asDouble();
      JsonNode interval = out.get("circularMeanInterval");
      if (interval != null && interval.isArray() && interval.get(0).isNumber()) {
        means++;
        if (!onArc(truth, interval.get(0).asDouble(), interval.get(1).asDouble())) {
          meanMisses++;
        }
      }
    } else {
      double truth = Arrays.stream(xs).average().orElseThrow();
      headline = out.get("mean").asDouble();
      JsonNode interval = out.get("meanInterval");
      assertThat(interval.isArray()).as("%s: %s", label, out).isTrue();
      means++;
      if (!(interval.get(0).asDouble() <= truth && truth <= interval.get(1).asDouble())) {
        meanMisses++;
      }
    }
    if (pointMass && (circular || xs[0] == 0.5)) {
      headlines++;
      assertThat(distance(headline, xs[0], circular))
          .as("%s: headline %s, outputs within %s of the input", label, headline, spread)
          .isLessThanOrEqualTo(spread + 1e-12);
    }
    JsonNode cdf = out.path("distribution").path("cdf");
    if (!cdf.isMissingNode() && !cdf.isNull()) {
      bands++;
      double[] sorted = xs.clone();
      Arrays.sort(sorted);
      for (int k = 0; k < cdf.get("points").size(); k++) {
        double t = cdf.get("points").get(k).asDouble();
        long below = Arrays.stream(sorted).filter(x -> x <= t).count();
        double share = (double) below / N;
        if (!(cdf.get("lower").get(k).asDouble() - 1e-12 <= share
            && share <= cdf.get("upper").get(k).asDouble() + 1e-12)) {
          bandMisses++;
          break;
        }
      }
    }
  }

  /** At a 0.1 % level, the misses do not show a miss rate above 5 %. */
  private static void assertConsistentWith95(int misses, int windows, String what) {
    assertThat(windows).as(what).isPositive();
    assertThat(ClopperPearson.lower(misses, windows, 1e-3))
        .as("%s: %s misses in %s windows", what, misses, windows)
        .isLessThanOrEqualTo(0.05);
  }

  private static double circularMean(double[] xs) {
    double c = 0;
    double s = 0;
    for (double x : xs) {
      c += Math.cos(2 * Math.PI * x);
      s += Math.sin(2 * Math.PI * x);
    }
    double t = Math.atan2(s, c) / (2 * Math.PI);
    return t < 0 ? t + 1 : t;
  }

  /** Whether t lies on the arc from lower to upper (wrapped into [0, 1); [0, 1] is the circle). */
  private static boolean onArc(double t, double lower, double upper) {
    return lower <= upper ? lower <= t && t <= upper : t >= lower || t <= upper;
  }

  private static double distance(double a, double b, boolean circular) {
    return circular ? Math.abs(Math.IEEEremainder(a - b, 1)) : Math.abs(a - b);
  }

  private static String number(double eps) {
    return eps == Math.rint(eps) ? Long.toString((long) eps) : Double.toString(eps);
  }
}
