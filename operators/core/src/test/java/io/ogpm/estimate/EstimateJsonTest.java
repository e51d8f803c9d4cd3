package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JSON of an estimate, as docs/aggregation.md, "Reading the stats", documents it, for hand-made
 * estimates whose every number is distinct: which value lands under which key, for both methods,
 * classical and circular fields, intervals that are null or cross the seam, the distribution with
 * and without exceedances, and an empty window.
 */
class EstimateJsonTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final double[] RAW = {0.25, 0.5, 0.25};
  static final double[] EM = {0.125, 0.75, 0.125};

  /** Both sides read by one parser, so that only keys and values count (not number node types). */
  private static void assertRendersAs(FieldEstimate e, boolean reconstructed, String expected)
      throws Exception {
    JsonNode actual = JSON.readTree(EstimateJson.render(e, reconstructed).toString());
    assertThat(actual).isEqualTo(JSON.readTree(expected));
  }

  /** A classical field with every estimator: the unbiased headline for raw, the EM one for em. */
  static final FieldEstimate CLASSICAL =
      new FieldEstimate(
          1000,
          RAW,
          EM,
          17,
          new LinearMeans(
              new Interval(0.375, -0.5, 0.75),
              new Interval(0.0625, -0.5, 0.75),
              0.1,
              0.375,
              -1.5,
              1.5,
              0.0625,
              MeanIntervalMethod.OUTPUT_MEAN_AND_TAILS,
              0.5,
              new MeanAlternative(MechanismType.HM, 0.25)),
          null,
          new DistributionEstimate(
              new CumulativeBand(
                  new double[] {-1.5, 0, 1.5},
                  new double[] {0.0625, 0.375, 1},
                  new double[] {0.25, 0.875, 1}),
              List.of(new QuantileEstimate(0.5, new Interval(0.125, -0.75, 0.5))),
              List.of(new ExceedanceEstimate(1.0, new Interval(0.1875, 0.03125, 0.3125)))));

  /** The distribution of {@link #CLASSICAL}, the same for both methods. */
  static final String CLASSICAL_DISTRIBUTION =
      """
      "distribution":{"cdf":{"points":[-1.5,0.0,1.5],"lower":[0.0625,0.375,1.0],"upper":[0.25,0.875,1.0]},
       "quantiles":[{"p":0.5,"estimate":0.125,"lower":-0.75,"upper":0.5}],
       "exceedances":[{"threshold":1.0,"estimate":0.1875,"lower":0.03125,"upper":0.3125}]}""";

  @Test
  void aClassicalFieldWithRawMethod() throws Exception {
    assertRendersAs(
        CLASSICAL,
        false,
        """
        {"count":1000,"method":"raw","histogram":[0.25,0.5,0.25],
         "mean":0.375,"meanInterval":[-0.5,0.75],"meanIntervalMethod":"output-mean-and-tails",
         "meanIdentifiedWidth":0.5,"meanAlternative":{"mechanism":"hm","expectedWidth":0.25},
         "means":{"raw":{"estimate":0.1},
                  "unbiased":{"estimate":0.375,"exactForInputsFrom":-1.5,"exactForInputsTo":1.5},
                  "reconstructed":{"estimate":0.0625}},
         "histograms":{"raw":[0.25,0.5,0.25],"reconstructed":[0.125,0.75,0.125]},"emIterations":17,
         """
            + CLASSICAL_DISTRIBUTION
            + "}");
  }

  @Test
  void aClassicalFieldWithEmMethodHeadlinesTheReconstruction() throws Exception {
    assertRendersAs(
        CLASSICAL,
        true,
        """
        {"count":1000,"method":"em","histogram":[0.125,0.75,0.125],
         "mean":0.0625,"meanInterval":[-0.5,0.75],"meanIntervalMethod":"output-mean-and-tails",
         "meanIdentifiedWidth":0.5,"meanAlternative":{"mechanism":"hm","expectedWidth":0.25},
         "means":{"raw":{"estimate":0.1},
                  "unbiased":{"estimate":0.375,"exactForInputsFrom":-1.5,"exactForInputsTo":1.5},
                  "reconstructed":{"estimate":0.0625}},
         "histograms":{"raw":[0.25,0.5,0.25],"reconstructed":[0.125,0.75,0.125]},"emIterations":17,
         """
            + CLASSICAL_DISTRIBUTION
            + "}");
  }

  /**
   * No reconstruction (none asked for, or the mechanism has no transition matrix), no unbiased
   * estimator and no valid interval: method raw whatever was asked, the raw mean as headline and an
   * explicit null interval.
   */
  @Test
  void whatAnEstimateLacksIsLeftOutAndAMissingIntervalIsNull() throws Exception {
    FieldEstimate e =
        new FieldEstimate(
            40,
            RAW,
            null,
            0,
            new LinearMeans(
                Interval.pointOnly(0.1),
                null,
                0.1,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                MeanIntervalMethod.OUTPUT_MEAN,
                Double.NaN,
                null),
            null,
            null);
    String expected =
        """
        {"count":40,"method":"raw","histogram":[0.25,0.5,0.25],"mean":0.1,"meanInterval":null,
         "meanIntervalMethod":"output-mean","means":{"raw":{"estimate":0.1}},"histograms":{"raw":[0.25,0.5,0.25]}}""";
    assertRendersAs(e, false, expected);
    assertRendersAs(e, true, expected);
  }

  /**
   * A circular field: direction and resultant length instead of a mean; this interval crosses the
   * seam.
   */
  static final FieldEstimate CIRCULAR =
      new FieldEstimate(
          500,
          RAW,
          EM,
          9,
          null,
          new CircularMeans(
              new Interval(3.0, 2.5, -2.875),
              new Interval(-3.0, 2.5, -2.875),
              new Interval(0.5, 0.25, 0.75),
              -3.0),
          new DistributionEstimate(
              new CumulativeBand(
                  new double[] {-Math.PI, 0, Math.PI},
                  new double[] {0.125, 0.5, 1},
                  new double[] {0.375, 0.625, 1}),
              List.of(
                  new QuantileEstimate(0.1, new Interval(-2.5, -3.0, -1.5)),
                  new QuantileEstimate(0.9, new Interval(2.5, 1.25, 2.75))),
              List.of()));

  /**
   * The distribution of {@link #CIRCULAR}: its quantiles along the arc from -pi, no exceedances.
   */
  static final String CIRCULAR_DISTRIBUTION =
      """
      "distribution":{"cdf":{"points":[-3.141592653589793,0.0,3.141592653589793],
       "lower":[0.125,0.5,1.0],"upper":[0.375,0.625,1.0]},
       "quantiles":[{"p":0.1,"estimate":-2.5,"lower":-3.0,"upper":-1.5},
                    {"p":0.9,"estimate":2.5,"lower":1.25,"upper":2.75}],
       "exceedances":[]}""";

  @Test
  void aCircularFieldWithRawMethod() throws Exception {
    assertRendersAs(
        CIRCULAR,
        false,
        """
        {"count":500,"method":"raw","histogram":[0.25,0.5,0.25],
         "circularMean":3.0,"circularMeanInterval":[2.5,-2.875],
         "resultantLength":0.5,"resultantLengthInterval":[0.25,0.75],
         "means":{"raw":{"estimate":3.0},"reconstructed":{"estimate":-3.0}},
         "histograms":{"raw":[0.25,0.5,0.25],"reconstructed":[0.125,0.75,0.125]},"emIterations":9,"""
            + CIRCULAR_DISTRIBUTION
            + "}");
  }

  @Test
  void aCircularFieldWithEmMethodHeadlinesTheReconstruction() throws Exception {
    assertRendersAs(
        CIRCULAR,
        true,
        """
        {"count":500,"method":"em","histogram":[0.125,0.75,0.125],
         "circularMean":-3.0,"circularMeanInterval":[2.5,-2.875],
         "resultantLength":0.5,"resultantLengthInterval":[0.25,0.75],
         "means":{"raw":{"estimate":3.0},"reconstructed":{"estimate":-3.0}},
         "histograms":{"raw":[0.25,0.5,0.25],"reconstructed":[0.125,0.75,0.125]},"emIterations":9,"""
            + CIRCULAR_DISTRIBUTION
            + "}");
  }

  /** A mechanism that is not rotation invariant: no valid interval of direction or length. */
  @Test
  void aCircularFieldWithoutValidIntervals() throws Exception {
    FieldEstimate e =
        new FieldEstimate(
            60,
            RAW,
            null,
            0,
            null,
            new CircularMeans(
                Interval.pointOnly(1.25), null, Interval.pointOnly(0.375), Double.NaN),
            null);
    assertRendersAs(
        e,
        true,
        """
        {"count":60,"method":"raw","histogram":[0.25,0.5,0.25],
         "circularMean":1.25,"circularMeanInterval":null,"resultantLength":0.375,"resultantLengthInterval":null,
         "means":{"raw":{"estimate":1.25}},"histograms":{"raw":[0.25,0.5,0.25]}}""");
  }

  /**
   * An estimator's own estimate: the band's points from the domain's start to its end, one quantile
   * per default probability and one exceedance per threshold asked for, each with the keys above.
   */
  @Test
  void anEstimatorsDistributionHasTheDocumentedShape() {
    FieldEstimator estimator =
        FieldEstimator.of(
            MechanismCatalog.of(
                MechanismSpec.builder().epsilon(2).domain(Domain.classical(-2, 2)).build()),
            8,
            DistributionQuery.DEFAULT.withThresholds(-1, 0.5));
    FieldAccumulator acc = estimator.newAccumulator();
    for (int i = 0; i < 200; i++) {
      acc.add(-2 + 4 * ((i * 0.618034) % 1), estimator.binning());
    }
    JsonNode d = EstimateJson.render(estimator.estimate(acc, true), true).get("distribution");
    JsonNode points = d.get("cdf").get("points");
    assertThat(points.get(0).asDouble()).isEqualTo(-2);
    assertThat(points.get(points.size() - 1).asDouble()).isEqualTo(2);
    assertThat(d.get("cdf").get("lower")).hasSameSizeAs(points);
    assertThat(d.get("cdf").get("upper")).hasSameSizeAs(points);
    assertThat(d.get("quantiles").findValuesAsText("p")).containsExactly("0.1", "0.5", "0.9");
    assertThat(d.get("exceedances").findValuesAsText("threshold")).containsExactly("-1.0", "0.5");
    for (JsonNode q : d.get("quantiles")) {
      assertThat(q.get("estimate").asDouble())
          .isBetween(q.get("lower").asDouble(), q.get("upper").asDouble());
    }
  }

  /**
   * An empty window, as the estimators give it: its count and all-zero histogram, and no mean, band
   * or distribution of any kind.
   */
  @Test
  void anEmptyWindow() throws Exception {
    for (Domain domain : new Domain[] {Domain.classical(-2, 2), Domain.circular(0, 360)}) {
      FieldEstimator estimator =
          FieldEstimator.of(
              MechanismCatalog.of(MechanismSpec.builder().epsilon(1).domain(domain).build()), 3);
      for (boolean em : new boolean[] {false, true}) {
        assertRendersAs(
            estimator.estimate(estimator.newAccumulator(), em),
            em,
            """
            {"count":0,"method":"raw","histogram":[0.0,0.0,0.0],"histograms":{"raw":[0.0,0.0,0.0]}}""");
      }
    }
  }
}
