package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.CumulativeBand;
import io.ogpm.estimate.DistributionEstimate;
import io.ogpm.estimate.Interval;
import io.ogpm.estimate.QuantileEstimate;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The report rendered and parsed back (it is well-formed XML): the accounting first, mismatches
 * flagged; every chart titled with unit and epsilon; round ticks, multiples of pi/2 on angles; the
 * legend outside the plot; one look per kind of series across all charts; an interval across the
 * seam of a circle drawn in two pieces, and no other interval upside down; the only band the
 * cumulative distribution's, never a histogram's, with the true distribution counted against it;
 * the median charted per window and the quantiles tabled.
 */
class DemoReportTest {
  static final PrivacyConfig CONFIG = PrivacyConfig.parse(SampleData.config(null));
  static final Duration WINDOW = Duration.ofSeconds(10);
  static final int BINS = 20;
  static final long T0 = 1767225600000L;
  static final Pattern ROUND = Pattern.compile("-?\\d+(\\.\\d{1,3})?");
  static final Pattern PI = Pattern.compile("0|-?(\\d*)π(/[24])?");

  @Test
  void theReportOpensWithTheAccountingAndItsChartsFollowTheRules(@TempDir Path dir)
      throws Exception {
    Document doc = render(dir, 5_000L, Map.of("out-of-range", 3L), false);

    Element body = (Element) doc.getElementsByTagName("body").item(0);
    Element firstSection = (Element) body.getElementsByTagName("section").item(0);
    assertThat(firstSection.getAttribute("class")).isEqualTo("accounting");
    String accounting = firstSection.getTextContent();
    assertThat(accounting)
        .contains(
            "in (replayed into ogpm.raw)5003",
            "perturbed (in ogpm.perturbed)5000",
            "dead-lettered (in ogpm.dead-letters)3",
            "reason out-of-range3",
            "= records in",
            "values of attitude.roll in window statistics");
    assertThat(rows(firstSection, "mismatch")).isEmpty();

    List<Element> svgs = elements(doc, "svg");
    // Per field: histogram, cumulative distribution, means and medians; circular fields also the
    // circle.
    long circular = CONFIG.fields().stream().filter(f -> f.domain().isCircular()).count();
    assertThat(svgs).hasSize(4 * CONFIG.fields().size() + (int) circular);
    Map<String, io.ogpm.estimate.FieldEstimate> overall = overall();

    Map<String, Set<String>> looks = new HashMap<>();
    int seamSplits = 0;
    int bands = 0;
    for (Element svg : svgs) {
      String title = child(svg, "text", "title").getTextContent();
      FieldConfig field =
          CONFIG.fields().stream()
              .filter(f -> title.startsWith(f.name() + " ("))
              .findFirst()
              .orElseThrow();
      assertThat(title)
          .as("title names unit and epsilon")
          .contains("ε = " + io.ogpm.config.FieldSampling.rounded(field.epsilon()))
          .containsAnyOf("(g)", "(rad)");
      boolean angle = title.contains("(rad)");
      for (Element axis : byClass(svg, "g", "axis")) {
        for (Element tick : byClass(axis, "g", "tick")) {
          String label = tick.getElementsByTagName("text").item(0).getTextContent();
          boolean valueAxisOfAngle =
              angle
                  && (axis.getAttribute("class").equals("axis angle")
                      || (axis.getAttribute("class").equals("axis x")
                          && title.contains("distribution"))
                      || (axis.getAttribute("class").equals("axis y")
                          && (title.contains("mean per") || title.contains("median per"))));
          assertThat(label)
              .as("%s: tick on %s", title, axis.getAttribute("class"))
              .matches(valueAxisOfAngle ? PI : ROUND);
        }
      }
      Element legend = byClass(svg, "g", "legend").get(0);
      double legendX = translateX(legend);
      if (!svg.getAttribute("class").contains("polar")) {
        Element frame = child(svg, "rect", "frame");
        assertThat(legendX)
            .as("%s: legend right of the plot", title)
            .isGreaterThan(
                Double.parseDouble(frame.getAttribute("x"))
                    + Double.parseDouble(frame.getAttribute("width")));
      }
      for (Element series : byClass(svg, "g", "series")) {
        looks
            .computeIfAbsent(series.getAttribute("data-kind"), k -> new HashSet<>())
            .add(
                series.getAttribute("stroke")
                    + " "
                    + series.getAttribute("stroke-dasharray")
                    + " "
                    + series.getAttribute("data-marker"));
        if ("INTERVAL".equals(series.getAttribute("data-kind"))) {
          for (Element bar : byClass(series, "line", "bar")) {
            boolean split =
                ((Element) bar.getParentNode()).getAttribute("class").equals("seam-split");
            if (!split) {
              // SVG's y grows downwards: a lower end must not be drawn above the upper end.
              assertThat(Double.parseDouble(bar.getAttribute("y1")))
                  .as("%s: interval upright", title)
                  .isGreaterThanOrEqualTo(Double.parseDouble(bar.getAttribute("y2")));
            }
          }
          seamSplits += byClass(series, "g", "seam-split").size();
        }
        boolean inLegend = ((Element) series.getParentNode()).getAttribute("class").equals("entry");
        if ("BAND".equals(series.getAttribute("data-kind")) && !inLegend) {
          assertThat(title)
              .as("a band shades a cumulative distribution, never a histogram")
              .contains("cumulative distribution of the whole replay with 95 % band");
          List<Element> shaded = byClass(series, "rect", "band");
          int points = overall.get(field.name()).distribution().cdf().points().length;
          assertThat(shaded)
              .as("%s: one shaded step between each two of the band's points", title)
              .hasSize(points - 1);
          double lower = 0;
          double upper = 0;
          double right = Double.NEGATIVE_INFINITY;
          for (Element r : shaded) {
            double l = Double.parseDouble(r.getAttribute("data-lower"));
            double u = Double.parseDouble(r.getAttribute("data-upper"));
            assertThat(l).isLessThanOrEqualTo(u).isGreaterThanOrEqualTo(lower);
            assertThat(u).as("%s: the steps never go down", title).isGreaterThanOrEqualTo(upper);
            lower = l;
            upper = u;
            assertThat(Double.parseDouble(r.getAttribute("height"))).isGreaterThanOrEqualTo(0);
            double x = Double.parseDouble(r.getAttribute("x"));
            if (right != Double.NEGATIVE_INFINITY) {
              assertThat(x).as("%s: steps side by side", title).isCloseTo(right, within(0.11));
            }
            right = x + Double.parseDouble(r.getAttribute("width"));
          }
          assertThat(upper).as("%s: F reaches 1 at the domain's end", title).isEqualTo(1.0);
          bands++;
        }
      }
    }
    assertThat(looks)
        .containsKeys("TRUE", "PERTURBED", "RECONSTRUCTED", "ESTIMATE", "INTERVAL", "BAND");
    assertThat(bands)
        .as("every field's cumulative distribution of the whole replay has its band")
        .isEqualTo(CONFIG.fields().size());
    // The test's whole replay is 200 values spread evenly, its truth the sample's first 400: the
    // true distribution lies outside the band, and the caption says at how many points.
    assertThat(byClass(body, "p", "cdf-check"))
        .hasSize(CONFIG.fields().size())
        .allSatisfy(
            p ->
                assertThat(p.getTextContent())
                    .matches(
                        "The true cumulative distribution lies outside the band at \\d+ of its"
                            + " \\d+ points \\(the band holds at all of them in at least 95 % of"
                            + " windows\\)\\."));
    long medians =
        svgs.stream()
            .filter(svg -> child(svg, "text", "title").getTextContent().contains("median per 10 s"))
            .count();
    assertThat(medians).as("a median chart per field").isEqualTo(CONFIG.fields().size());
    assertThat(byClass(body, "table", "quantiles"))
        .hasSize(CONFIG.fields().size())
        .allSatisfy(
            t ->
                assertThat(t.getTextContent())
                    .contains("true p10", "p10 with 95 % interval", "true median", "true p90"));
    assertThat(body.getTextContent()).contains("-2.4000 [-2.6000, -2.1000]");
    looks.forEach(
        (kind, styles) -> assertThat(styles).as("looks of %s across the charts", kind).hasSize(1));
    assertThat(seamSplits)
        .as("the one interval across the seam (attitude.roll), in two pieces")
        .isEqualTo(1);
    long linear = CONFIG.fields().stream().filter(f -> !f.domain().isCircular()).count();
    assertThat(byClass(body, "span", "hint"))
        .as("each linear field's first window names the narrower mechanism")
        .hasSize((int) linear)
        .allSatisfy(
            hint ->
                assertThat(hint.getTextContent())
                    .contains(
                        " of it unidentified: readings where the mechanism cannot place them;")
                    .contains("hm would give about"));
    assertThat(doc.getElementsByTagName("meta").getLength())
        .as("no refresh: a finished run")
        .isEqualTo(1);
  }

  @Test
  void aMismatchIsFlaggedInRed(@TempDir Path dir) throws Exception {
    Document doc = render(dir, 4_990L, Map.of(), false);
    Element accounting = (Element) doc.getElementsByTagName("section").item(0);
    List<Element> flagged = rows(accounting, "mismatch");
    assertThat(flagged).hasSize(1);
    assertThat(flagged.get(0).getTextContent()).contains("mismatch: 13 records unaccounted for");
    assertThat(doc.getElementsByTagName("style").item(0).getTextContent())
        .contains("tr.mismatch td{color:#b00000");
  }

  @Test
  void aLiveReportReloadsItselfAndCountsDeadLetters(@TempDir Path dir) throws Exception {
    Document doc = render(dir, null, Map.of("budget-exhausted", 7L), true);
    List<Element> metas = elements(doc, "meta");
    assertThat(metas)
        .anySatisfy(m -> assertThat(m.getAttribute("http-equiv")).isEqualTo("refresh"));
    Element accounting = (Element) doc.getElementsByTagName("section").item(0);
    assertThat(accounting.getTextContent())
        .as("a live report counts dead letters by reason, perturbed not re-read")
        .contains("reason budget-exhausted7")
        .contains("not re-read while live");
    assertThat(rows(accounting, "mismatch")).isEmpty();
  }

  /** A report over the sample's first 2 s (one window) and a second window without truth. */
  static Document render(Path dir, Long perturbed, Map<String, Long> dead, boolean live)
      throws Exception {
    List<String> records = SampleData.records(null, 400);
    GroundTruth truth = GroundTruth.of(records, CONFIG, "ts", "activity", WINDOW.toMillis(), BINS);
    List<WindowStat> stats = new ArrayList<>();
    Map<String, Long> counts = new HashMap<>();
    for (FieldConfig f : CONFIG.fields()) {
      double lo = f.domain().lo();
      double w = f.domain().width();
      for (long window : new long[] {T0, T0 + WINDOW.toMillis()}) {
        double[] h = new double[BINS];
        h[BINS / 2] = 1;
        boolean seam = f.name().equals("attitude.roll") && window != T0;
        // attitude.roll's second window: an interval across the seam (lower above upper).
        double lower = seam ? lo + 0.9 * w : lo + 0.3 * w;
        double upper = seam ? lo + 0.1 * w : lo + 0.7 * w;
        stats.add(
            new WindowStat(
                window,
                window + WINDOW.toMillis(),
                "downstairs",
                f.name(),
                window == T0 ? 400 : 100,
                lo + 0.5 * w,
                lower,
                upper,
                h,
                h,
                f.domain().isCircular(),
                0.5,
                distribution(f),
                f.domain().isCircular() ? Double.NaN : 0.3 * w,
                // the first window's linear intervals mostly unidentified: an alternative named
                window == T0 && !f.domain().isCircular() ? "hm" : null,
                0.05 * w));
        counts.put(GroundTruth.key(window, "downstairs", f.name()), window == T0 ? 400L : 100L);
      }
    }
    Map<String, Long> expected = new HashMap<>(truth.counts());
    stats.stream()
        .filter(s -> s.windowStart() != T0)
        .forEach(
            s -> expected.put(GroundTruth.key(s.windowStart(), "downstairs", s.field()), 100L));
    var estimators = new HashMap<String, io.ogpm.estimate.FieldEstimator>();
    var overall = new HashMap<String, io.ogpm.estimate.FieldEstimate>();
    overall(estimators, overall);
    long in = 5_003;
    Path file =
        DemoReport.write(
            dir,
            new DemoReport.Content(
                "test report",
                CONFIG,
                WINDOW,
                ReportAccounting.of(in, perturbed, dead, expected, counts),
                truth,
                stats,
                live ? null : overall,
                live ? null : estimators,
                live));
    byte[] html = Files.readAllBytes(file);
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(html));
  }

  /** The whole replay's estimates: of 200 values spread evenly over each field's domain. */
  static Map<String, io.ogpm.estimate.FieldEstimate> overall() {
    var overall = new HashMap<String, io.ogpm.estimate.FieldEstimate>();
    overall(new HashMap<>(), overall);
    return overall;
  }

  private static void overall(
      Map<String, io.ogpm.estimate.FieldEstimator> estimators,
      Map<String, io.ogpm.estimate.FieldEstimate> overall) {
    for (FieldConfig f : CONFIG.fields()) {
      var e =
          io.ogpm.estimate.FieldEstimator.of(
              io.ogpm.mechanism.catalog.MechanismCatalog.of(f.spec()), BINS);
      var acc = e.newAccumulator();
      for (int i = 0; i < 200; i++) {
        acc.add(f.domain().lo() + f.domain().width() * (i + 0.5) / 200, e.binning());
      }
      estimators.put(f.name(), e);
      overall.put(f.name(), e.estimate(acc, e.canReconstruct()));
    }
  }

  /**
   * A window's distribution: a band over three points, the quantiles 0.1, 0.5 and 0.9 at that share
   * of the domain (on [-3, 3] the 10 % quantile at -2.4 [-2.6, -2.1]).
   */
  static DistributionEstimate distribution(FieldConfig f) {
    double lo = f.domain().lo();
    double w = f.domain().width();
    List<QuantileEstimate> quantiles = new ArrayList<>();
    for (double p : new double[] {0.1, 0.5, 0.9}) {
      double at = lo + w * p;
      quantiles.add(new QuantileEstimate(p, new Interval(at, at - w / 30, at + w / 20)));
    }
    return new DistributionEstimate(
        new CumulativeBand(
            new double[] {lo, lo + w / 2, lo + w},
            new double[] {0, 0.3, 1},
            new double[] {0.2, 0.7, 1}),
        quantiles,
        List.of());
  }

  static List<Element> elements(Document doc, String tag) {
    return list(doc.getElementsByTagName(tag));
  }

  static List<Element> list(NodeList nodes) {
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i) instanceof Element e) {
        out.add(e);
      }
    }
    return out;
  }

  static List<Element> byClass(Element root, String tag, String cls) {
    return list(root.getElementsByTagName(tag)).stream()
        .filter(e -> List.of(e.getAttribute("class").split(" ")).contains(cls))
        .toList();
  }

  static Element child(Element root, String tag, String cls) {
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e
          && e.getTagName().equals(tag)
          && e.getAttribute("class").equals(cls)) {
        return e;
      }
    }
    throw new AssertionError("no <" + tag + " class=\"" + cls + "\"> in " + root.getTagName());
  }

  static List<Element> rows(Element table, String cls) {
    return list(table.getElementsByTagName("tr")).stream()
        .filter(r -> r.getAttribute("class").equals(cls))
        .toList();
  }

  static double translateX(Element e) {
    Matcher m = Pattern.compile("translate\\(([-\\d.]+),").matcher(e.getAttribute("transform"));
    assertThat(m.find()).isTrue();
    return Double.parseDouble(m.group(1));
  }

  static {
    // The report's bytes are UTF-8 (π, ε): the parser reads the declared charset from the bytes.
    assertThat(StandardCharsets.UTF_8).isNotNull();
  }
}
