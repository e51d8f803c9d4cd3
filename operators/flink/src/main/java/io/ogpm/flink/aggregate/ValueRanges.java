package io.ogpm.flink.aggregate;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;

/**
 * Which numbers can be perturbed values of each field: those in its mechanism's output domain
 * {@code [outputLo, outputHi)} (both of whose ends are where a value stops being possible) and
 * within the field's reach ({@link FieldBinning#reachOf}, which only bounds unbounded outputs).
 */
final class ValueRanges {
  private final double[] lo;
  private final double[] hi;
  private final double[] reach;

  ValueRanges(PrivacyConfig config) {
    int n = config.fields().size();
    lo = new double[n];
    hi = new double[n];
    reach = new double[n];
    for (int i = 0; i < n; i++) {
      Mechanism m = MechanismCatalog.of(config.fields().get(i).spec());
      lo[i] = m.outputLo();
      hi[i] = m.outputHi();
      reach[i] = FieldBinning.reachOf(m);
    }
  }

  /** The value if a perturbed value of field i could be it, else NaN. */
  double usable(int i, double y) {
    return y >= lo[i] && y < hi[i] && Math.abs(y) <= reach[i] ? y : Double.NaN;
  }
}
