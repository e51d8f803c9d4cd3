package io.ogpm.mechanism;

import io.ogpm.annotation.PublicEvolving;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A probability distribution on the real line made of uniform pieces and point masses: the output
 * distribution of a piecewise mechanism for one input. Pieces are sorted, do not overlap, and the
 * total mass (piece densities times lengths plus atom masses) is 1.
 *
 * <p>Everything here is exact arithmetic on the pieces: the pdf and cdf are sums, the inverse cdf
 * is linear inside a piece, and the expected error {@code E[dist(Y, x)^k]} integrates {@code |y -
 * c|^k} in closed form on each piece (the circular distance is split at the points where the
 * nearest image of {@code x} changes, so it is linear on every part).
 *
 * <p>Instances are immutable.
 */
@PublicEvolving
public final class PiecewiseDistribution {
  /**
   * Tolerated deviation of the total mass from 1, besides the rounding of the piece boundaries: see
   * {@link #massTolerance}.
   */
  public static final double MASS_TOLERANCE = 1e-9;

  /** A uniform piece {@code [from, to)} of constant density. */
  public record Piece(double from, double to, double density) {
    /** The probability mass of the piece. */
    public double mass() {
      return density * (to - from);
    }
  }

  /** A point mass. */
  public record Atom(double at, double mass) {}

  private final double[] from;
  private final double[] to;
  private final double[] density;
  private final double[] atomAt;
  private final double[] atomMass;

  private PiecewiseDistribution(
      double[] from, double[] to, double[] density, double[] atomAt, double[] atomMass) {
    this.from = from;
    this.to = to;
    this.density = density;
    this.atomAt = atomAt;
    this.atomMass = atomMass;
  }

  /** A distribution of pieces only. */
  public static PiecewiseDistribution ofPieces(List<Piece> pieces) {
    return of(pieces, List.of());
  }

  /**
   * Builds and validates a distribution. Empty pieces (zero length) are dropped, adjacent pieces of
   * equal density are kept as given.
   *
   * @throws IllegalArgumentException if a piece is empty or reversed, pieces overlap or are
   *     unsorted, a density or mass is negative or not finite, or the total mass is not 1
   */
  public static PiecewiseDistribution of(List<Piece> pieces, List<Atom> atoms) {
    List<Piece> kept = new ArrayList<>();
    for (Piece p : pieces) {
      Checks.finite("piece.from", p.from());
      Checks.finite("piece.to", p.to());
      Checks.finite("piece.density", p.density());
      if (p.to() < p.from()) {
        throw new IllegalArgumentException("piece must have from <= to, got " + p);
      }
      if (p.density() < 0) {
        throw new IllegalArgumentException("piece density must be >= 0, got " + p);
      }
      if (p.to() > p.from()) {
        kept.add(p);
      }
    }
    for (int i = 1; i < kept.size(); i++) {
      if (kept.get(i).from() < kept.get(i - 1).to()) {
        throw new IllegalArgumentException(
            "pieces must be sorted and not overlap, got "
                + kept.get(i - 1)
                + " then "
                + kept.get(i));
      }
    }
    List<Atom> sortedAtoms = new ArrayList<>(atoms);
    sortedAtoms.removeIf(a -> a.mass() == 0);
    for (Atom a : sortedAtoms) {
      Checks.finite("atom.at", a.at());
      Checks.finite("atom.mass", a.mass());
      if (a.mass() < 0) {
        throw new IllegalArgumentException("atom mass must be >= 0, got " + a);
      }
    }
    sortedAtoms.sort((a, b) -> Double.compare(a.at(), b.at()));
    int n = kept.size();
    double[] f = new double[n];
    double[] t = new double[n];
    double[] d = new double[n];
    double total = 0;
    for (int i = 0; i < n; i++) {
      f[i] = kept.get(i).from();
      t[i] = kept.get(i).to();
      d[i] = kept.get(i).density();
      total += kept.get(i).mass();
    }
    int m = sortedAtoms.size();
    double[] at = new double[m];
    double[] am = new double[m];
    for (int i = 0; i < m; i++) {
      at[i] = sortedAtoms.get(i).at();
      am[i] = sortedAtoms.get(i).mass();
      total += am[i];
    }
    PiecewiseDistribution dist = new PiecewiseDistribution(f, t, d, at, am);
    if (!(Math.abs(total - 1) <= dist.massTolerance())) {
      throw new IllegalArgumentException("total mass must be 1, got " + total);
    }
    return dist;
  }

  /**
   * How far the total mass may be from 1 because piece boundaries are doubles: each boundary is
   * within an ulp of its exact value, which moves a piece's mass by its density times that ulp
   * (significant only for the very high densities of eps above ~30), plus {@link #MASS_TOLERANCE}.
   */
  public double massTolerance() {
    double tolerance = MASS_TOLERANCE;
    for (int i = 0; i < from.length; i++) {
      tolerance += 2 * density[i] * (Math.ulp(from[i]) + Math.ulp(to[i]));
    }
    return tolerance;
  }

  /** The pieces, sorted by position. */
  public List<Piece> pieces() {
    List<Piece> out = new ArrayList<>(from.length);
    for (int i = 0; i < from.length; i++) {
      out.add(new Piece(from[i], to[i], density[i]));
    }
    return Collections.unmodifiableList(out);
  }

  /** The point masses, sorted by position. */
  public List<Atom> atoms() {
    List<Atom> out = new ArrayList<>(atomAt.length);
    for (int i = 0; i < atomAt.length; i++) {
      out.add(new Atom(atomAt[i], atomMass[i]));
    }
    return Collections.unmodifiableList(out);
  }

  /** The lowest point of the support. */
  public double supportLo() {
    double lo = Double.POSITIVE_INFINITY;
    if (from.length > 0) {
      lo = from[0];
    }
    if (atomAt.length > 0) {
      lo = Math.min(lo, atomAt[0]);
    }
    return lo;
  }

  /** The highest point of the support (the open end of the last piece, or the last atom). */
  public double supportHi() {
    double hi = Double.NEGATIVE_INFINITY;
    if (to.length > 0) {
      hi = to[to.length - 1];
    }
    if (atomAt.length > 0) {
      hi = Math.max(hi, atomAt[atomAt.length - 1]);
    }
    return hi;
  }

  /** Total mass: 1 up to {@link #MASS_TOLERANCE}. */
  public double totalMass() {
    double total = 0;
    for (int i = 0; i < from.length; i++) {
      total += density[i] * (to[i] - from[i]);
    }
    for (double m : atomMass) {
      total += m;
    }
    return total;
  }

  /** The density of the continuous part at {@code y} (pieces are closed on the left). */
  public double pdf(double y) {
    for (int i = 0; i < from.length; i++) {
      if (y >= from[i] && y < to[i]) {
        return density[i];
      }
    }
    return 0;
  }

  /** The point mass at exactly {@code y}, or 0. */
  public double atomMassAt(double y) {
    double m = 0;
    for (int i = 0; i < atomAt.length; i++) {
      if (atomAt[i] == y) {
        m += atomMass[i];
      }
    }
    return m;
  }

  /** {@code P(Y <= y)}. */
  public double cdf(double y) {
    double c = 0;
    for (int i = 0; i < from.length; i++) {
      if (y >= to[i]) {
        c += density[i] * (to[i] - from[i]);
      } else if (y > from[i]) {
        c += density[i] * (y - from[i]);
      }
    }
    for (int i = 0; i < atomAt.length; i++) {
      if (atomAt[i] <= y) {
        c += atomMass[i];
      }
    }
    return Math.min(1, c);
  }

  /** {@code P(a <= Y < b)} for {@code a <= b}, atoms at {@code a} included, at {@code b} not. */
  public double mass(double a, double b) {
    double c = 0;
    for (int i = 0; i < from.length; i++) {
      double lo = Math.max(a, from[i]);
      double hi = Math.min(b, to[i]);
      if (hi > lo) {
        c += density[i] * (hi - lo);
      }
    }
    for (int i = 0; i < atomAt.length; i++) {
      if (atomAt[i] >= a && atomAt[i] < b) {
        c += atomMass[i];
      }
    }
    return c;
  }

  /**
   * The inverse cdf: the output for a uniform draw {@code u} in [0, 1). Pieces and atoms are
   * visited in order of position; an atom at a piece's left end comes before the piece, one at its
   * right end after it. A result inside a piece stays strictly below the piece's right end.
   */
  public double inverseCdf(double u) {
    Checks.unitInterval("u", u);
    double cum = 0;
    int a = 0;
    for (int i = 0; i < from.length; i++) {
      while (a < atomAt.length && atomAt[a] <= from[i]) {
        cum += atomMass[a];
        if (u < cum) {
          return atomAt[a];
        }
        a++;
      }
      double m = density[i] * (to[i] - from[i]);
      if (u < cum + m) {
        double y = from[i] + (u - cum) / density[i];
        return Math.min(Math.max(y, from[i]), Math.nextDown(to[i]));
      }
      cum += m;
    }
    while (a < atomAt.length) {
      cum += atomMass[a];
      if (u < cum) {
        return atomAt[a];
      }
      a++;
    }
    // u beyond the accumulated mass by rounding: the highest point of the support.
    if (atomAt.length > 0 && (to.length == 0 || atomAt[atomAt.length - 1] >= to[to.length - 1])) {
      return atomAt[atomAt.length - 1];
    }
    return Math.nextDown(to[to.length - 1]);
  }

  /** The mean {@code E[Y]}. */
  public double mean() {
    double s = 0;
    for (int i = 0; i < from.length; i++) {
      s += density[i] * (to[i] - from[i]) * 0.5 * (from[i] + to[i]);
    }
    for (int i = 0; i < atomAt.length; i++) {
      s += atomMass[i] * atomAt[i];
    }
    return s;
  }

  /** The second moment {@code E[Y^2]}. */
  public double secondMoment() {
    double s = 0;
    for (int i = 0; i < from.length; i++) {
      double a = from[i];
      double b = to[i];
      s += density[i] * (b - a) * (a * a + a * b + b * b) / 3;
    }
    for (int i = 0; i < atomAt.length; i++) {
      s += atomMass[i] * atomAt[i] * atomAt[i];
    }
    return s;
  }

  /** The variance of Y. */
  public double variance() {
    double m = mean();
    return Math.max(0, secondMoment() - m * m);
  }

  /**
   * {@code E[cos(omega (Y - x))]}, exactly: {@code (sin(omega (b - x)) - sin(omega (a - x))) /
   * omega} per piece. With {@code omega = 2 pi k / period} this is the k-th trigonometric moment of
   * the noise on a circle.
   */
  public double cosineMoment(double x, double omega) {
    double s = 0;
    for (int i = 0; i < from.length; i++) {
      s += density[i] * (Math.sin(omega * (to[i] - x)) - Math.sin(omega * (from[i] - x))) / omega;
    }
    for (int i = 0; i < atomAt.length; i++) {
      s += atomMass[i] * Math.cos(omega * (atomAt[i] - x));
    }
    return s;
  }

  /**
   * The exact expected error {@code E[dist(Y, x)^k]}.
   *
   * @param x the input
   * @param metric k = 1 (absolute) or k = 2 (square)
   * @param distance linear, or circular with the given period
   * @param period the circle's period (ignored for linear distance)
   */
  public double expectedError(double x, ErrorMetric metric, Distance distance, double period) {
    int k = metric.exponent();
    double e = 0;
    for (int i = 0; i < from.length; i++) {
      if (density[i] == 0) {
        continue;
      }
      double integral =
          distance == Distance.LINEAR
              ? LossIntegrals.linear(from[i], to[i], x, k)
              : LossIntegrals.circular(from[i], to[i], x, k, period);
      e += density[i] * integral;
    }
    for (int i = 0; i < atomAt.length; i++) {
      double d =
          distance == Distance.LINEAR
              ? Math.abs(atomAt[i] - x)
              : LossIntegrals.circularDistance(atomAt[i], x, period);
      e += atomMass[i] * (k == 1 ? d : d * d);
    }
    return e;
  }

  /**
   * The image of this distribution under {@code y -> offset + scale * y} (scale > 0): pieces and
   * atoms move, densities divide by the scale (Theorem "Transformation invariants").
   */
  public PiecewiseDistribution affine(double offset, double scale) {
    Checks.positive("scale", scale);
    int n = from.length;
    double[] f = new double[n];
    double[] t = new double[n];
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      f[i] = offset + scale * from[i];
      t[i] = offset + scale * to[i];
      d[i] = density[i] / scale;
    }
    double[] at = new double[atomAt.length];
    for (int i = 0; i < at.length; i++) {
      at[i] = offset + scale * atomAt[i];
    }
    return new PiecewiseDistribution(f, t, d, at, atomMass.clone());
  }

  @Override
  public String toString() {
    return "PiecewiseDistribution{pieces=" + pieces() + ", atoms=" + atoms() + "}";
  }
}
