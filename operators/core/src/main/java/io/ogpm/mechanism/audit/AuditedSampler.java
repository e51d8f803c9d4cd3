package io.ogpm.mechanism.audit;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.random.RandomBits;

/**
 * A sampler under audit: draws outputs for an input, and says whether an output could have come
 * from an input at all. The second question is how floating-point leaks are found (Mironov, "On
 * significance of the least significant bits for differential privacy", CCS 2012): an unsnapped
 * inverse-cdf sampler reaches only some doubles for a given input, a different set for another, so
 * "this output cannot come from that input" is an event of probability zero under one input and not
 * under the other.
 */
@Internal
public interface AuditedSampler {
  /** One output for input x. */
  double sample(double x, RandomBits bits);

  /** Whether y can be an output for input x; by default every output can. */
  default boolean producible(double x, double y) {
    return true;
  }

  /** Lower end of the range used to bin outputs. */
  double outputLo();

  /** Upper end of the range used to bin outputs. */
  double outputHi();

  /** The inputs' domain: lower end. */
  double inputLo();

  /** The inputs' domain: upper end. */
  double inputHi();
}
