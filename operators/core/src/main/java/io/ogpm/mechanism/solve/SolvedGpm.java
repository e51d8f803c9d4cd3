package io.ogpm.mechanism.solve;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.OgpmShape;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseDistribution.Piece;
import java.util.ArrayList;
import java.util.List;

/**
 * A solved m-piece GPM, held to the exact LDP check. The solver's optimum is first simplified as in
 * Lemma 2 ({@link #mergeEqualDensities}): slivers the search left behind are absorbed and adjacent
 * pieces of equal density merged. What remains must be the paper's three-piece form at the
 * optimised input (a high piece and low density around it, densities in the ratio {@code e^eps}),
 * which is the case whenever the m-piece optimum collapses to m = 3 (Solution 2); else {@link #of}
 * refuses it, naming what it found.
 *
 * <p>The mechanism kept is then rebuilt from the solver's high density alone, as the three-piece
 * shape {@link OgpmShape#withHighDensity} (low density {@code p e^-eps} exactly, central length by
 * normalisation): a mechanism that {@code io.ogpm.mechanism.Mechanism} accepts only if its exact
 * integer sampler certifies eps, and whose every density ratio is at most {@code e^eps}. The {@link
 * #error()} reported is that mechanism's exact error, never the search's own figure (kept as {@link
 * #searchError()}), so a search that bent a constraint within its tolerance could not report a
 * better error than a valid mechanism reaches.
 */
@Internal
public final class SolvedGpm {
  /**
   * A piece shorter than this (on the unit domain) is a sliver the search left behind (seen: 2.3e-7
   * long, at a density between the two levels), absorbed by a neighbour. A real piece is longer:
   * the high piece is at least about {@code e^(-eps/2)} long, 4.5e-5 at the solver's largest eps
   * ({@link GpmProblem#MAX_EPSILON}); a low piece can be shorter only when x0 is within a sliver of
   * where the high piece starts to clamp, and the rebuilt mechanism's pieces are simplified the
   * same way before they are compared.
   */
  static final double SLIVER = 1e-6;

  /** Densities whose logarithms differ by less than this times max(1, eps) are equal (Lemma 2). */
  static final double LOG_DENSITY_TOLERANCE = 1e-4;

  /**
   * How far the rebuilt mechanism's piece boundaries may be from the search's: the search resolves
   * boundaries to about 1e-6 (the optimum is flat in them, see {@link GpmSolver}); 1e-4 leaves room
   * and still tells a different mechanism apart.
   */
  static final double BOUNDARY_TOLERANCE = 1e-4;

  private final GpmProblem problem;
  private final List<Piece> searchPieces;
  private final double searchError;
  private final OgpmShape shape;
  private final ClassicalOgpm unitMechanism;
  private final double error;

  private SolvedGpm(
      GpmProblem problem, List<Piece> searchPieces, double searchError, OgpmShape shape) {
    this.problem = problem;
    this.searchPieces = List.copyOf(searchPieces);
    this.searchError = searchError;
    this.shape = shape;
    this.unitMechanism = ClassicalOgpm.withShape(shape);
    double z = problem.unitInput();
    double unitError =
        problem.isWorstCase()
            ? unitMechanism.worstCaseError(problem.metric(), Distance.LINEAR)
            : unitMechanism.expectedError(z, problem.metric(), Distance.LINEAR);
    this.error = unitError * Math.pow(problem.domain().width(), problem.metric().exponent());
  }

  /**
   * Merges and holds a search result (unit domain pieces at {@link GpmProblem#unitInput()}).
   *
   * @throws IllegalStateException if the merged optimum is not a three-piece mechanism with its
   *     densities in the ratio e^eps
   */
  static SolvedGpm of(GpmProblem problem, List<Piece> unitPieces, double unitSearchError) {
    double eps = problem.epsilon();
    List<Piece> merged = mergeEqualDensities(unitPieces, LOG_DENSITY_TOLERANCE * Math.max(1, eps));
    double high = 0;
    double low = Double.POSITIVE_INFINITY;
    int highPieces = 0;
    for (Piece p : merged) {
      high = Math.max(high, p.density());
      low = Math.min(low, p.density());
    }
    double logTolerance = LOG_DENSITY_TOLERANCE * Math.max(1, eps);
    for (Piece p : merged) {
      boolean isHigh = Math.log(high / p.density()) <= logTolerance;
      boolean isLow = Math.log(p.density() / low) <= logTolerance;
      if (isHigh == isLow) {
        throw notThreePiece(problem, merged, "a density strictly between the lowest and highest");
      }
      highPieces += isHigh ? 1 : 0;
    }
    if (highPieces != 1 || merged.size() > 3) {
      throw notThreePiece(problem, merged, highPieces + " high pieces among " + merged.size());
    }
    if (Math.log(high / low) < eps - logTolerance) {
      throw notThreePiece(problem, merged, "densities in a ratio below e^eps");
    }
    double logHigh = Math.min(Math.max(Math.log(high), 0), eps);
    OgpmShape shape = OgpmShape.withHighDensity(eps, Math.exp(logHigh));
    PiecewiseDistribution rebuilt =
        ClassicalOgpm.withShape(shape).distribution(problem.unitInput());
    List<Piece> kept = mergeEqualDensities(rebuilt.pieces(), logTolerance);
    if (kept.size() != merged.size()) {
      throw notThreePiece(problem, merged, "pieces unlike the three-piece shape's " + kept);
    }
    for (int i = 0; i < kept.size(); i++) {
      double gap =
          Math.max(
              Math.abs(kept.get(i).from() - merged.get(i).from()),
              Math.abs(kept.get(i).to() - merged.get(i).to()));
      if (gap > BOUNDARY_TOLERANCE) {
        throw notThreePiece(
            problem, merged, "boundaries " + gap + " away from the three-piece shape's " + kept);
      }
    }
    double scale = Math.pow(problem.domain().width(), problem.metric().exponent());
    return new SolvedGpm(problem, merged, unitSearchError * scale, shape);
  }

  private static IllegalStateException notThreePiece(
      GpmProblem problem, List<Piece> merged, String why) {
    return new IllegalStateException(
        problem + ": the optimum found is not a three-piece GPM (" + why + "): " + merged);
  }

  /**
   * Lemma 2's simplification of a solved m-GPM: slivers ({@link #SLIVER}) are given to the piece
   * before them (the first to the piece after it), then adjacent pieces whose densities' logarithms
   * differ by at most {@code logTolerance} become one piece of their total mass.
   */
  static List<Piece> mergeEqualDensities(List<Piece> pieces, double logTolerance) {
    List<Piece> solid = new ArrayList<>();
    double pendingFrom = Double.NaN;
    for (Piece p : pieces) {
      if (p.to() - p.from() < SLIVER) {
        if (solid.isEmpty()) {
          pendingFrom = Double.isNaN(pendingFrom) ? p.from() : pendingFrom;
        } else {
          Piece last = solid.remove(solid.size() - 1);
          solid.add(new Piece(last.from(), p.to(), last.density()));
        }
        continue;
      }
      double from = Double.isNaN(pendingFrom) ? p.from() : pendingFrom;
      pendingFrom = Double.NaN;
      solid.add(new Piece(from, p.to(), p.density()));
    }
    if (solid.isEmpty()) {
      return List.copyOf(pieces);
    }
    List<Piece> merged = new ArrayList<>();
    for (Piece p : solid) {
      if (!merged.isEmpty()) {
        Piece last = merged.get(merged.size() - 1);
        if (Math.abs(Math.log(last.density() / p.density())) <= logTolerance) {
          double mass = last.mass() + p.mass();
          merged.set(
              merged.size() - 1, new Piece(last.from(), p.to(), mass / (p.to() - last.from())));
          continue;
        }
      }
      merged.add(p);
    }
    return merged;
  }

  public GpmProblem problem() {
    return problem;
  }

  /** The three-piece shape kept, on the unit domain. */
  public OgpmShape shape() {
    return shape;
  }

  /** The mechanism kept, on the unit domain ([lo, hi) by the affine map). */
  public ClassicalOgpm unitMechanism() {
    return unitMechanism;
  }

  /**
   * The kept mechanism's output pieces at the optimised input (x0, or lo for the worst case), in
   * the domain's units.
   */
  public List<Piece> pieces() {
    return unitMechanism
        .distribution(problem.unitInput())
        .affine(problem.domain().lo(), problem.domain().width())
        .pieces();
  }

  /** The search's own merged pieces, in the domain's units (for comparison; not held). */
  public List<Piece> searchPieces() {
    double lo = problem.domain().lo();
    double width = problem.domain().width();
    return searchPieces.stream()
        .map(p -> new Piece(lo + width * p.from(), lo + width * p.to(), p.density() / width))
        .toList();
  }

  /** The exact error of the kept mechanism: worst case, or at x0; in the domain's units. */
  public double error() {
    return error;
  }

  /** The search's value of the objective at its optimum, in the domain's units (not held). */
  public double searchError() {
    return searchError;
  }

  @Override
  public String toString() {
    return "SolvedGpm{" + problem + ", shape=" + shape + ", error=" + error + "}";
  }
}
