package io.ogpm.mechanism;

/** Exposes the chi-square helper of {@link GeometricTest} to tests in other packages. */
public final class GeometricTestAccess {
  private GeometricTestAccess() {}

  public static void assertChiSquare(long[] counts, double[] pmf, String label) {
    GeometricTest.assertChiSquare(counts, pmf, label);
  }
}
