package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;
import java.util.List;
import java.util.Objects;

/**
 * What a window says about the distribution of its inputs, beyond the histogram: a simultaneous 95
 * % band for their cumulative distribution, and the quantiles and exceedance shares a {@link
 * DistributionQuery} asks for, each with an interval read off that band. The band and every
 * interval hold together in at least 95 % of windows, whatever the inputs (one event, the band
 * holding, makes them all hold), so asking for more quantiles or thresholds widens none.
 *
 * @param cdf the band for {@code F(t)}, the share of the inputs at or below t (on a circle: in the
 *     arc from the domain's start to t)
 * @param quantiles one per probability asked for, in its order (increasing)
 * @param exceedances one per threshold asked for, in its order (increasing)
 */
@PublicEvolving
public record DistributionEstimate(
    CumulativeBand cdf, List<QuantileEstimate> quantiles, List<ExceedanceEstimate> exceedances) {
  /** Checks the parts and copies the lists: an estimate never changes once made. */
  public DistributionEstimate {
    if (cdf == null) {
      throw new IllegalArgumentException(
          "a distribution estimate needs a cumulative band, got null");
    }
    if (quantiles == null || quantiles.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException(
          "a distribution estimate's quantiles must be a list without nulls, got " + quantiles);
    }
    if (exceedances == null || exceedances.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException(
          "a distribution estimate's exceedances must be a list without nulls, got " + exceedances);
    }
    quantiles = List.copyOf(quantiles);
    exceedances = List.copyOf(exceedances);
  }
}
