package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.estimate.DistributionEstimate;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.flink.aggregate.WindowEstimates;
import io.ogpm.flink.kafka.WindowEstimateSerializer;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A stats-topic record read back as the aggregate job writes it: its cumulative band and quantiles
 * as the estimate has them; none for a mechanism without a band. The console prints the median and
 * its interval beside the mean.
 */
class WindowStatTest {
  private static FieldEstimate estimate(MechanismType type, int n) {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().type(type).domain(Domain.classical(-3, 3)).epsilon(1).build());
    FieldEstimator estimator = FieldEstimator.of(m, 20);
    FieldAccumulator acc = estimator.newAccumulator("x");
    AesCtrSource bits = AesCtrSource.seeded(3);
    for (int i = 0; i < n; i++) {
      acc.add(m.perturb(-1 + bits.nextUniform(), bits), estimator.binning());
    }
    return estimator.estimate(acc, estimator.canReconstruct());
  }

  private static WindowStat read(FieldEstimate e) throws Exception {
    byte[] json =
        WindowEstimateSerializer.toJson(WindowEstimates.of(0, 10_000, "x", "walking", 20, e, true));
    return WindowStat.of(new ObjectMapper().readTree(json));
  }

  @Test
  void theDistributionIsReadBackAsTheEstimateHasIt() throws Exception {
    FieldEstimate e = estimate(MechanismType.OGPM, 2_000);
    WindowStat s = read(e);
    DistributionEstimate d = s.distribution();
    assertThat(d).isNotNull();
    assertThat(d.cdf().points()).containsExactly(e.distribution().cdf().points());
    assertThat(d.cdf().lower()).containsExactly(e.distribution().cdf().lower());
    assertThat(d.cdf().upper()).containsExactly(e.distribution().cdf().upper());
    assertThat(d.quantiles()).isEqualTo(e.distribution().quantiles());
    assertThat(s.quantile(0.5)).isEqualTo(e.distribution().quantiles().get(1));
    assertThat(s.quantile(0.25)).as("a quantile the aggregation did not ask for").isNull();

    WindowStat noBand = read(estimate(MechanismType.T_LAPLACE, 300));
    assertThat(noBand.distribution()).isNull();
    assertThat(noBand.quantile(0.5)).isNull();
  }

  @Test
  void theConsolePrintsTheMedianAndItsIntervalBesideTheMean() throws Exception {
    WindowStat s = read(estimate(MechanismType.OGPM, 2_000));
    var config =
        io.ogpm.config.PrivacyConfig.parse(
            "fields:\n  - {name: x, min: -3.0, max: 3.0, epsilon: 1.0}\n");
    List<String> records = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      records.add("{\"ts\": 1, \"g\": \"walking\", \"x\": " + (-1 + i / 100.0) + "}");
    }
    GroundTruth truth = GroundTruth.of(records, config, "ts", "g", 10_000, 20);
    StringWriter text = new StringWriter();
    WindowTable.print(new PrintWriter(text, true), config, List.of(s), truth);
    List<String> lines = text.toString().lines().toList();
    assertThat(lines.get(0))
        .containsSubsequence(
            "true mean", "estimate", "95% interval", "true med", "median", "95% interval");
    var median = s.quantile(0.5).interval();
    assertThat(lines.get(1))
        .contains(
            String.format(
                java.util.Locale.ROOT,
                "%10.4f %10.4f  [%9.4f, %9.4f]",
                truth.cell(0, "walking", "x").quantile(0.5),
                median.estimate(),
                median.lower(),
                median.upper()));
  }
}
