package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseUnitMechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.RandomBits;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The grid of cells: how many, for which mechanisms, and that every window's range over a run of
 * cells holds the window's probability for every input in the run (checked against the kernel's own
 * output-bin probabilities at the run's ends and between them), no wider than the inputs' spread
 * allows.
 */
class KernelCellsTest {
  private static final int BINS = 20;

  private static Mechanism mechanism(String type, double eps, Domain domain) {
    return MechanismCatalog.of(
        MechanismSpec.builder()
            .type(MechanismType.parse(type))
            .epsilon(eps)
            .domain(domain)
            .build());
  }

  @Test
  void theCellsPerBinAreTheFewestMultipleOfThePointsThatCoverTheGrid() {
    int step = CumulativeBands.POINTS_PER_BIN;
    for (int bins = 1; bins <= 2 * KernelCells.CELLS; bins++) {
      int perBin = KernelCells.perBin(bins);
      assertThat(perBin % step).as("bins %s", bins).isZero();
      assertThat(perBin).as("bins %s", bins).isGreaterThanOrEqualTo(step);
      assertThat(bins * perBin).as("bins %s", bins).isGreaterThanOrEqualTo(KernelCells.CELLS);
      if (perBin > step) {
        assertThat(bins * (perBin - step)).as("bins %s", bins).isLessThan(KernelCells.CELLS);
      }
    }
  }

  @Test
  void onlyResolvingMechanismsBetweenTwoAndTheMostBinsAreBounded() {
    Mechanism ogpm = mechanism("ogpm", 2, Domain.classical(0, 1));
    assertThat(KernelCells.bounds(ogpm, FieldBinning.of(ogpm, 1))).isFalse();
    assertThat(KernelCells.bounds(ogpm, FieldBinning.of(ogpm, 2))).isTrue();
    assertThat(KernelCells.bounds(ogpm, FieldBinning.of(ogpm, KernelCells.MAX_BINS))).isTrue();
    assertThat(KernelCells.bounds(ogpm, FieldBinning.of(ogpm, KernelCells.MAX_BINS + 1))).isFalse();
    // On a circle only a rotation-invariant mechanism: circular OGPM, not PM wrapped around.
    Mechanism circular = mechanism("ogpm", 2, Domain.circular(0, 1));
    assertThat(KernelCells.bounds(circular, FieldBinning.of(circular, 2))).isTrue();
    Mechanism pm = mechanism("pm", 2, Domain.circular(0, 1));
    assertThat(KernelCells.bounds(pm, FieldBinning.of(pm, BINS))).isFalse();
    Mechanism laplace = mechanism("t-laplace", 2, Domain.classical(0, 1));
    assertThat(KernelCells.bounds(laplace, FieldBinning.of(laplace, BINS))).isFalse();
  }

  /** Output bins [from, from + length) on an interval, from at-or-beyond probabilities. */
  private static double intervalWindow(BinnedKernel kernel, double x, int from, int length) {
    double[] tails = kernel.upperTails(x);
    return tails[from] - tails[from + length];
  }

  @Test
  void onAnIntervalEveryWindowsRangeHoldsItsProbabilityOverTheRun() {
    Mechanism m = mechanism("ogpm", 2, Domain.classical(-180, 180));
    FieldBinning binning = FieldBinning.of(m, BINS);
    BinnedKernel kernel = new BinnedKernel(m, binning);
    KernelCells.IntervalCells cells = (KernelCells.IntervalCells) KernelCells.of(kernel, binning);
    int total = BINS * KernelCells.perBin(BINS);
    double cell = binning.width() / total;
    double tolerance = cells.tolerance();
    // Each tail a rounding of a distribution's masses away, three times: at least three times the
    // least rounding any distribution has.
    assertThat(tolerance).isGreaterThanOrEqualTo(3 * PiecewiseDistribution.MASS_TOLERANCE);
    double[][] tails = cells.tails();
    assertThat(tails.length).isEqualTo(total + 1);
    for (int g = 0; g <= total; g += 97) {
      double x = g == total ? binning.lo() + binning.width() : binning.lo() + g * cell;
      double[] exact = kernel.upperTails(x);
      for (int o = 0; o < exact.length; o++) {
        assertThat(tails[g][o]).isCloseTo(exact[o], org.assertj.core.data.Offset.offset(tolerance));
        if (g > 0) {
          assertThat(tails[g][o]).isGreaterThanOrEqualTo(tails[g - 1][o]);
        }
      }
    }
    int outputs = binning.outputBins();
    Random random = new Random(17);
    for (int trial = 0; trial < 300; trial++) {
      int from = random.nextInt(outputs + 1);
      int length = trial % 10 == 0 ? 0 : random.nextInt(outputs - from + 1);
      int first = random.nextInt(total);
      int last = first + 1 + (trial % 3 == 0 ? random.nextInt(total - first) : 0);
      double[] range = cells.windowRange(from, length, first, last);
      // The largest at most a probability, give or take the tails' tolerance (the least may be
      // below 0: it is the window's lower tail at a cell's start less its upper tail at the end).
      assertThat(range[0]).isLessThanOrEqualTo(range[1]);
      assertThat(range[1]).isLessThanOrEqualTo(1 + 2 * tolerance);
      for (int s = 0; s <= 4; s++) {
        double x = binning.lo() + (first + (last - first) * s / 4.0) * cell;
        double p =
            intervalWindow(kernel, Math.min(x, binning.lo() + binning.width()), from, length);
        assertThat(p)
            .as("window %s+%s over cells [%s, %s) at %s", from, length, first, last, x)
            .isBetween(range[0], range[1]);
      }
    }
    // The whole output has probability 1 for every input: the range is 1 widened by the tolerance.
    double[] whole = cells.windowRange(0, outputs, 0, total);
    assertThat(whole[0]).isBetween(1 - 2 * tolerance - Math.ulp(1.0), 1.0);
    assertThat(whole[1]).isBetween(1.0, 1 + 2 * tolerance + Math.ulp(1.0));
  }

  /** Output bins [from, from + length) on a circle, wrapping. */
  private static double circleWindow(BinnedKernel kernel, double x, int from, int length) {
    double[] p = kernel.probabilities(x);
    double sum = 0;
    for (int i = 0; i < length; i++) {
      sum += p[(from + i) % p.length];
    }
    return sum;
  }

  /**
   * On a circle, with output bins on cell edges (resolution 1: the cumulative masses) and off them
   * (resolution 3 on 20 bins: 4,160 cells, 60 output bins), in a domain that does not start at 0.
   */
  @Test
  void onACircleEveryWindowsRangeHoldsItsProbabilityOverTheRunAndNoMore() {
    Mechanism m = mechanism("ogpm", 2, Domain.circular(-180, 180));
    checkCircle(m, 1, 0);
    checkCircle(m, 3, 0);
  }

  /**
   * An atom (no catalog mechanism that is rotation invariant has one) counts where it falls on the
   * circle, whichever turn of it the window's arc is read on.
   */
  @Test
  void onACircleAnAtomCountsWhereItFallsOnTheCircle() {
    Mechanism m = withAtom(mechanism("ogpm", 2, Domain.circular(-180, 180)), 0.37, 0.2);
    assertThat(m.distribution(-180).atoms()).hasSize(1);
    checkCircle(m, 1, 0.2);
    checkCircle(m, 3, 0.2);
  }

  private static void checkCircle(Mechanism m, int resolution, double atomMass) {
    FieldBinning binning = FieldBinning.of(m, BINS, resolution);
    BinnedKernel kernel = new BinnedKernel(m, binning);
    KernelCells.Cells cells = KernelCells.of(kernel, binning);
    assertThat(cells).isInstanceOf(KernelCells.CircleCells.class);
    int total = BINS * KernelCells.perBin(BINS);
    double cell = binning.width() / total;
    int outputs = binning.outputBins();
    // The masses' rounding, as the cells allow for it.
    double margin = kernel.distribution(binning.lo()).massTolerance() + 1e-12;
    // The reference sums up to every output bin's mass, each rounded: far below the margin.
    double rounding = outputs * Math.ulp(1.0);
    Random random = new Random(29 + resolution);
    for (int trial = 0; trial < 300; trial++) {
      int from = random.nextInt(outputs);
      int length =
          trial % 10 == 0 ? 0 : trial % 10 == 1 ? outputs : 1 + random.nextInt(outputs - 1);
      int first = random.nextInt(total);
      int last = first + 1 + (trial % 3 == 0 ? random.nextInt(total - first) : 0);
      double[] range = cells.windowRange(from, length, first, last);
      String what =
          String.format(
              "resolution %s window %s+%s over cells [%s, %s)",
              resolution, from, length, first, last);
      assertThat(range[0]).as(what).isBetween(0.0, range[1]);
      assertThat(range[1]).as(what).isLessThanOrEqualTo(1);
      // Every input in the run sees the window shifted by at most the run: the range is at most
      // the mass of the two arcs the window's ends sweep, each at most the largest density times
      // the run (and the atom), widened by the margin at both ends, and each arc's mass computed
      // within the margin.
      assertThat(range[1] - range[0])
          .as(what)
          .isLessThanOrEqualTo(
              2 * kernel.maxDensity() * (last - first) * cell + 2 * atomMass + 4 * margin);
      for (int s = 0; s <= 4; s++) {
        double x = binning.lo() + (first + (last - first) * s / 4.0) * cell;
        double p = circleWindow(kernel, Math.min(x, binning.lo() + binning.width()), from, length);
        assertThat(p).as("%s at %s", what, x).isBetween(range[0] - rounding, range[1] + rounding);
      }
    }
  }

  /**
   * A stub of a rotation-invariant mechanism with an atom: the given circular mechanism's pieces
   * with {@code 1 - mass} of their mass, and an atom of the rest a fixed fraction of the period
   * past the input. Only its distributions are read here; its sampler is the given mechanism's.
   */
  private static Mechanism withAtom(Mechanism mechanism, double offset, double mass) {
    PiecewiseUnitMechanism unit = (PiecewiseUnitMechanism) mechanism.unit();
    return Mechanism.of(
        mechanism.spec(),
        new Delegating(unit, z -> z) {
          @Override
          public PiecewiseDistribution distribution(double z) {
            List<PiecewiseDistribution.Piece> pieces = new ArrayList<>();
            for (PiecewiseDistribution.Piece piece : unit.distribution(z).pieces()) {
              pieces.add(
                  new PiecewiseDistribution.Piece(
                      piece.from(), piece.to(), piece.density() * (1 - mass)));
            }
            double at = (z + offset) % 1;
            return PiecewiseDistribution.of(
                pieces, List.of(new PiecewiseDistribution.Atom(at, mass)));
          }
        });
  }

  @Test
  void tailsThatFallWithTheInputHaveNoCells() {
    Mechanism ogpm = mechanism("ogpm", 2, Domain.classical(0, 1));
    // Read backwards, the outputs fall as the input rises.
    Mechanism backwards = relabelled(ogpm, z -> 1 - z);
    FieldBinning binning = FieldBinning.of(backwards, BINS);
    assertThat(KernelCells.of(new BinnedKernel(backwards, binning), binning)).isNull();
    // Only the domain's end read as its start: the fall is between the last two grid points.
    Mechanism endAsStart = relabelled(ogpm, z -> z == 1 ? 0 : z);
    assertThat(KernelCells.of(new BinnedKernel(endAsStart, binning), binning)).isNull();
    assertThat(KernelCells.of(new BinnedKernel(ogpm, binning), binning)).isNotNull();
  }

  /**
   * A piecewise mechanism that gives input z the output distribution the given one gives {@code
   * relabel(z)}: as private (the same outputs for a relabelled input), certified by the given
   * mechanism's own sampler.
   */
  private static Mechanism relabelled(Mechanism mechanism, DoubleUnaryOperator relabel) {
    return Mechanism.of(
        mechanism.spec(), new Delegating((PiecewiseUnitMechanism) mechanism.unit(), relabel));
  }

  /** A unit mechanism that answers for input z as the given one does for {@code relabel(z)}. */
  private static class Delegating implements PiecewiseUnitMechanism {
    private final PiecewiseUnitMechanism unit;
    private final DoubleUnaryOperator relabel;

    Delegating(PiecewiseUnitMechanism unit, DoubleUnaryOperator relabel) {
      this.unit = unit;
      this.relabel = relabel;
    }

    @Override
    public PiecewiseDistribution distribution(double z) {
      return unit.distribution(relabel.applyAsDouble(z));
    }

    @Override
    public double epsilon() {
      return unit.epsilon();
    }

    @Override
    public boolean circular() {
      return unit.circular();
    }

    @Override
    public double outputLo() {
      return unit.outputLo();
    }

    @Override
    public double outputHi() {
      return unit.outputHi();
    }

    @Override
    public double inverseCdf(double z, double u) {
      return unit.inverseCdf(relabel.applyAsDouble(z), u);
    }

    @Override
    public CellSampler cellSampler(OutputGrid grid) {
      CellSampler sampler = unit.cellSampler(grid);
      return new CellSampler() {
        @Override
        public long sampleCell(double z, RandomBits bits) {
          return sampler.sampleCell(relabel.applyAsDouble(z), bits);
        }

        @Override
        public OptionalDouble certifiedEpsilon() {
          return sampler.certifiedEpsilon();
        }
      };
    }
  }
}
