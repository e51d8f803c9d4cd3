package io.ogpm.estimate;

import io.ogpm.mechanism.random.RandomBits;

/**
 * Poisson variates for the bootstrap: inversion below a mean of 30, a rounded normal above (its
 * error is far below the bootstrap's own Monte Carlo error there).
 */
final class Poisson {
  private Poisson() {}

  static long sample(RandomBits bits, double mean) {
    if (mean <= 0) {
      return 0;
    }
    if (mean < 30) {
      double u = bits.nextUniform();
      double p = Math.exp(-mean);
      double cdf = p;
      long k = 0;
      while (u > cdf && k < 1000) {
        k++;
        p *= mean / k;
        cdf += p;
      }
      return k;
    }
    // Box-Muller from two uniforms.
    double u1 = 1 - bits.nextUniform();
    double u2 = bits.nextUniform();
    double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return Math.max(0, Math.round(mean + Math.sqrt(mean) * z));
  }
}
