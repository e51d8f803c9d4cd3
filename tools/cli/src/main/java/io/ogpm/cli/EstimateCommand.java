package io.ogpm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.DistributionQuery;
import io.ogpm.estimate.EstimateJson;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.jobs.cli.ConfigFileOption;
import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.record.JsonFields;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Estimates one field's distribution and mean from perturbed records on stdin: the JSON of {@link
 * EstimateJson}, with the quantiles of {@code --quantiles} and the exceedance shares of {@code
 * --exceed} (else of the field's configured {@code exceedances}).
 */
@Command(
    name = "estimate",
    mixinStandardHelpOptions = true,
    description =
        "Reads the JSON lines ogpm perturb wrote under this configuration on stdin (a line under"
            + " another configuration's fingerprint, or none, is refused) and prints one JSON object: count,"
            + " histogram (K frequencies over the field's domain), mean or circularMean and resultantLength,"
            + " each with a 95%% interval; distribution (a 95%% band for the cumulative distribution, with"
            + " quantiles and exceedance shares read off it); skipped (records without a usable value) and, with field sampling,"
            + " unreported (records that reported other fields).")
final class EstimateCommand implements Callable<Integer> {
  @Mixin ConfigFileOption config;

  @Option(
      names = "--field",
      paramLabel = "NAME",
      required = true,
      description = "The field to estimate.")
  String field;

  @Mixin BinsOption binsOption;

  @Option(
      names = "--quantiles",
      paramLabel = "P[,P...]",
      split = ",",
      defaultValue = "0.1,0.5,0.9",
      description =
          "Quantiles to report with 95%% intervals, as probabilities in (0, 1), increasing."
              + " Default: ${DEFAULT-VALUE}.")
  double[] quantiles;

  @Option(
      names = "--exceed",
      paramLabel = "T[,T...]",
      split = ",",
      description =
          "Thresholds in the field's units, increasing, within its domain: the share of the inputs"
              + " above each is reported with a 95%% interval. Default: the field's exceedances in the"
              + " configuration, else none.")
  double[] exceed;

  @Option(
      names = "--method",
      paramLabel = "raw|em",
      description =
          "raw: frequencies of the perturbed values (the paper's); em: reconstructed by"
              + " expectation-maximisation (piecewise mechanisms). Default: em where the field's"
              + " mechanism has a reconstruction, else raw.")
  String method;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (method != null && !method.equals("raw") && !method.equals("em")) {
      throw new UsageError("--method must be raw or em, got '" + method + "'");
    }
    int bins = binsOption.bins();
    PrivacyConfig cfg = config.load();
    FieldConfig fc =
        cfg.field(field)
            .orElseThrow(
                () -> new UsageError("--field '" + field + "' is not in " + config.file()));
    Mechanism mechanism = MechanismCatalog.of(fc.spec());
    FieldEstimator estimator = FieldEstimator.of(mechanism, bins, query(fc, mechanism));
    if (method == null) {
      method = estimator.canReconstruct() ? "em" : "raw";
    } else if (method.equals("em") && !estimator.canReconstruct()) {
      throw new UsageError(
          "--method em needs a piecewise mechanism; field '"
              + field
              + "' uses "
              + fc.mechanism().id());
    }
    FingerprintedLines lines = new FingerprintedLines(ConfigFingerprint.of(cfg), config.origin());
    FieldAccumulator acc = estimator.newAccumulator();
    ObjectMapper json = new ObjectMapper();
    long skipped = 0;
    long unreported = 0;
    boolean sampled = cfg.samplesFields();
    double lo = mechanism.outputLo();
    double hi = mechanism.outputHi();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      String line;
      long number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode value;
        boolean object;
        try {
          JsonNode root = json.readTree(line);
          lines.check(root, number);
          object = root != null && root.isObject();
          value = JsonFields.at(root, fc.path());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          object = false;
          value = null;
        }
        if (sampled && object && value == null) {
          // Field sampling: this record reported other fields.
          unreported++;
          continue;
        }
        if (value == null
            || !value.isNumber()
            || !(value.asDouble() >= lo && value.asDouble() <= hi)) {
          skipped++;
          continue;
        }
        acc.add(value.asDouble(), estimator.binning());
      }
    }
    ObjectNode out = json.createObjectNode();
    out.put("field", field);
    out.put("bins", bins);
    out.setAll(
        EstimateJson.render(estimator.estimate(acc, method.equals("em")), method.equals("em")));
    out.put("skipped", skipped);
    if (sampled) {
      out.put("unreported", unreported);
    }
    spec.commandLine().getOut().println(json.writeValueAsString(out));
    return 0;
  }

  /**
   * The quantiles and thresholds asked for; a usage error naming the option and the bad value.
   * Without {@code --exceed}, the field's configured thresholds (already checked at load).
   */
  private DistributionQuery query(FieldConfig fc, Mechanism mechanism) {
    DistributionQuery query;
    try {
      query = DistributionQuery.of(quantiles, null);
    } catch (IllegalArgumentException e) {
      throw new UsageError("--quantiles: " + e.getMessage());
    }
    if (exceed == null) {
      return query.withThresholds(fc.exceedances());
    }
    try {
      return query.withThresholds(exceed).requireWithin(mechanism.domain());
    } catch (IllegalArgumentException e) {
      throw new UsageError("--exceed: " + e.getMessage());
    }
  }
}
