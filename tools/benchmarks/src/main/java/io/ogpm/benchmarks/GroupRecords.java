package io.ogpm.benchmarks;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;

/**
 * Records for the aggregation's benchmarks: one per group, every field's value perturbed from a
 * uniform input.
 */
final class GroupRecords {
  private GroupRecords() {}

  /**
   * The group of index g: {@code device-g}, a new string each time (as each deserialized record has
   * its own).
   */
  static String group(int g) {
    return "device-" + g;
  }

  /** One record of each of {@code groups} groups at this time, seeded by the time. */
  static PerturbedValues[] oneEach(PrivacyConfig config, int groups, long time) {
    int n = config.fields().size();
    Mechanism[] mechanisms = new Mechanism[n];
    for (int i = 0; i < n; i++) {
      mechanisms[i] = MechanismCatalog.of(config.fields().get(i).spec());
    }
    AesCtrSource bits = AesCtrSource.seeded(time + 1);
    PerturbedValues[] out = new PerturbedValues[groups];
    for (int g = 0; g < groups; g++) {
      double[] values = new double[n];
      for (int i = 0; i < n; i++) {
        Mechanism m = mechanisms[i];
        values[i] = m.perturb(m.domain().lo() + m.domain().width() * bits.nextUniform(), bits);
      }
      out[g] = new PerturbedValues(values, group(g), time);
    }
    return out;
  }
}
