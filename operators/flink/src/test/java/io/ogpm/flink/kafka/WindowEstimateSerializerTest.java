package io.ogpm.flink.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.estimate.DistributionQuery;
import io.ogpm.estimate.EstimateJson;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.flink.aggregate.WindowEstimates;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The stats topic's JSON (docs/aggregation.md, "Reading the stats") is byte for byte what a
 * tree-built reference writes (the window, group, field and bins, then {@link EstimateJson}), for
 * classical and circular fields, with and without reconstruction, without a valid interval, with
 * the distribution's quantiles and exceedances, and for a mechanism that cannot be reconstructed.
 * (Its doubles are the shortest decimals that read back as the same double: for rare values outside
 * [1e-3, 1e7), one digit fewer than Java 17's {@code Double.toString}, none of them among these.)
 */
class WindowEstimateSerializerTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** The reference: an ObjectNode of the window and the estimate's JSON, written as a string. */
  static String before(
      long start,
      long end,
      String group,
      String field,
      int bins,
      double userBound,
      FieldEstimate e,
      boolean em)
      throws Exception {
    ObjectNode o = JSON.createObjectNode();
    o.put("windowStart", Instant.ofEpochMilli(start).toString());
    o.put("windowEnd", Instant.ofEpochMilli(end).toString());
    if (group == null) {
      o.putNull("group");
    } else {
      o.put("group", group);
    }
    o.put("field", field);
    o.put("bins", bins);
    if (Double.isInfinite(userBound)) {
      o.putNull("userEpsilonBound");
    } else {
      o.put("userEpsilonBound", userBound);
    }
    o.setAll(EstimateJson.render(e, em));
    return JSON.writeValueAsString(o);
  }

  static Mechanism mechanism(MechanismType type, double eps, Domain domain) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(domain).build());
  }

  @Test
  void theJsonIsTodaysByteForByte() throws Exception {
    List<Mechanism> mechanisms =
        List.of(
            mechanism(MechanismType.OGPM, 1, Domain.classical(-3, 3)),
            mechanism(MechanismType.OGPM, 2, Domain.circular(-Math.PI, Math.PI)),
            mechanism(MechanismType.PM, 2, Domain.circular(0, 360)),
            mechanism(MechanismType.PM, 1, Domain.classical(0, 10)),
            mechanism(MechanismType.parse("b-laplace"), 1, Domain.classical(-1, 1)));
    AesCtrSource bits = AesCtrSource.seeded(11);
    int compared = 0;
    int alternatives = 0;
    int distributions = 0;
    for (Mechanism m : mechanisms) {
      double lo = m.domain().lo();
      FieldEstimator estimator =
          FieldEstimator.of(
              m,
              12,
              DistributionQuery.DEFAULT.withThresholds(
                  lo + 0.1 * m.domain().width(), lo + 0.5 * m.domain().width()));
      for (int n : new int[] {1, 30, 2_000}) {
        FieldAccumulator acc = estimator.newAccumulator("f");
        for (int i = 0; i < n; i++) {
          acc.add(
              m.perturb(m.domain().lo() + m.domain().width() * bits.nextUniform() * 0.3, bits),
              estimator.binning());
        }
        for (boolean em : new boolean[] {true, false}) {
          FieldEstimate e = estimator.estimate(acc, em && estimator.canReconstruct());
          for (String group : new String[] {null, "walk \"fast\""}) {
            WindowEstimate w =
                WindowEstimates.of(
                    1_767_225_600_000L, 1_767_225_610_000L, "att.roll", group, 12, e, em);
            double userBound = group == null ? Double.POSITIVE_INFINITY : 11.0;
            w.setUserEpsilonBound(userBound);
            String json = new String(WindowEstimateSerializer.toJson(w), StandardCharsets.UTF_8);
            assertThat(json)
                .isEqualTo(
                    before(
                        1_767_225_600_000L,
                        1_767_225_610_000L,
                        group,
                        "att.roll",
                        12,
                        userBound,
                        e,
                        em));
            compared++;
            alternatives += json.contains("\"meanAlternative\"") ? 1 : 0;
            distributions += json.contains("\"exceedances\":[{\"threshold\"") ? 1 : 0;
          }
        }
      }
    }
    assertThat(compared).isEqualTo(5 * 3 * 2 * 2);
    // ogpm's readings in the first 30 % of [-3, 3] reach into its end band
    assertThat(alternatives).isPositive();
    // ogpm on both domains and pm on the interval have a cumulative band, at each of 3 counts
    assertThat(distributions).isEqualTo(3 * 3 * 2 * 2);
  }

  @Test
  void recordsGoToTheTopicStampedWithTheWindowsLastMillisecondWithoutAKey() throws Exception {
    FieldEstimator estimator =
        FieldEstimator.of(mechanism(MechanismType.OGPM, 1, Domain.classical(0, 1)), 4);
    FieldAccumulator acc = estimator.newAccumulator().add(0.5, estimator.binning());
    WindowEstimate w =
        WindowEstimates.of(0, 10_000, "x", null, 4, estimator.estimate(acc, false), false);
    ProducerRecord<byte[], byte[]> r =
        new WindowEstimateSerializer("ogpm.stats").serialize(w, null, 123L);
    assertThat(r.topic()).isEqualTo("ogpm.stats");
    assertThat(r.key()).isNull();
    assertThat(r.timestamp()).isEqualTo(9_999L);
    assertThat(r.value()).isEqualTo(WindowEstimateSerializer.toJson(w));
    assertThat(JSON.readTree(r.value()).get("count").asLong()).isEqualTo(1);
  }

  @Test
  void theEstimateCarriesWhatTheJsonHolds() {
    FieldEstimator estimator =
        FieldEstimator.of(mechanism(MechanismType.OGPM, 2, Domain.circular(0, 360)), 6);
    AesCtrSource bits = AesCtrSource.seeded(2);
    FieldAccumulator acc = estimator.newAccumulator("dir");
    for (int i = 0; i < 500; i++) {
      acc.add(estimator.binning().lo() + 40 * bits.nextUniform(), estimator.binning());
    }
    FieldEstimate e = estimator.estimate(acc, true);
    WindowEstimate w = WindowEstimates.of(5, 15, "dir", "g", 6, e, true);
    assertThat(w.isCircular()).isTrue();
    assertThat(w.getMethod()).isEqualTo(EstimationMethod.EM);
    assertThat(w.getHistogram()).isEqualTo(e.reconstructedHistogram());
    assertThat(w.getCircularMean()).isEqualTo(e.circular().reconstructedDirection().estimate());
    assertThat(w.getCircularMeanLower()).isEqualTo(e.circular().reconstructedDirection().lower());
    assertThat(w.getResultantLength()).isEqualTo(e.circular().resultantLength().estimate());
    assertThat(w.getRawMean()).isEqualTo(e.circular().direction().estimate());
    assertThat(w.getMean()).isNaN();
    assertThat(w.getEmIterations()).isEqualTo(e.iterations());
    assertThat(w.getDistribution().getCdfPoints()).containsExactly(e.distribution().cdf().points());
    assertThat(w.getDistribution().getQuantileEstimates()[1])
        .isEqualTo(e.distribution().quantiles().get(1).interval().estimate());
    assertThat(w.getDistribution().getExceedanceThresholds()).isEmpty();
    assertThat(w.toString())
        .isEqualTo(
            "WindowEstimate{[5, 15) dir group=g n=500 em circularMean="
                + w.getCircularMean()
                + "}");
    WindowEstimate copy = WindowEstimates.of(5, 15, "dir", "g", 6, e, true);
    assertThat(copy).isEqualTo(w).hasSameHashCodeAs(w);
    copy.setResultantLengthUpper(0.5);
    assertThat(copy).isNotEqualTo(w);
  }
}
