package io.ogpm.cli;

import io.ogpm.config.MechanismChoice;
import io.ogpm.estimate.MechanismAdvisor;
import io.ogpm.estimate.OptimizeFor;
import io.ogpm.jobs.cli.UsageError;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The options that select a mechanism, shared by every mechanism command. */
public final class MechanismOptions {
  @Option(
      names = "--mechanism",
      paramLabel = "NAME",
      defaultValue = "ogpm",
      converter = MechanismConverter.class,
      description =
          "Mechanism: auto (chosen for --optimize-for at --records-per-window, as `advise`"
              + " does) or one of ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.",
      completionCandidates = MechanismNames.class)
  MechanismName mechanism;

  @Option(
      names = "--optimize-for",
      paramLabel = "Q",
      description =
          "With --mechanism auto: values, means, distributions or aggregation (means and"
              + " distributions). Default: aggregation.")
  String optimizeFor;

  @Option(
      names = "--records-per-window",
      paramLabel = "N",
      description =
          "With --mechanism auto: the reports per window to plan for. Default: "
              + MechanismChoice.DEFAULT_RECORDS_PER_WINDOW
              + ".")
  Long recordsPerWindow;

  @Option(
      names = "--domain",
      paramLabel = "KIND",
      defaultValue = "classical",
      converter = DomainKindConverter.class,
      description = "classical or circular. Default: ${DEFAULT-VALUE}.")
  Domain.Kind domain;

  @Option(names = "--lo", paramLabel = "A", description = "Lower end of the domain (default 0).")
  Double lo;

  @Option(
      names = "--hi",
      paramLabel = "B",
      description =
          "Upper end of the domain (default 1 classical, 2*pi circular; a circle's period is B - A).")
  Double hi;

  @Option(
      names = "--epsilon",
      paramLabel = "E",
      required = true,
      description = "Privacy parameter, > 0.")
  double epsilon;

  @Option(
      names = "--objective",
      paramLabel = "l1|l2",
      defaultValue = "l1",
      converter = ObjectiveConverter.class,
      description =
          "Error the mechanism is optimal for (ogpm): l1 is the paper's closed form, l2 the"
              + " true square-error optimum. Default: ${DEFAULT-VALUE}.")
  Objective objective;

  @Option(
      names = "--optimize-at",
      paramLabel = "X0",
      description =
          "ogpm on a classical domain: minimise the objective's error at input X0 instead of"
              + " the worst case (see `solve --x0`).")
  Double optimizeAt;

  @Option(
      names = "--grid-bits",
      paramLabel = "B",
      defaultValue = "" + OutputGrid.DEFAULT_BITS,
      description = "Outputs snap to cells of (hi - lo) * 2^-B. Default: ${DEFAULT-VALUE}.")
  int gridBits;

  /** The domain these options describe. */
  Domain domain() {
    double l = lo != null ? lo : 0;
    double h = hi != null ? hi : domain == Domain.Kind.CIRCULAR ? 2 * Math.PI : 1;
    try {
      Checks.ordered("--lo", l, "--hi", h);
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    return Domain.of(domain, l, h);
  }

  /** The validated mechanism specification; for {@code auto}, the spec it chooses. */
  MechanismSpec spec() {
    try {
      Checks.positive("--epsilon", epsilon);
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    Domain d = domain();
    boolean auto = mechanism.type() == null;
    if (!auto && (optimizeFor != null || recordsPerWindow != null)) {
      throw new UsageError(
          (optimizeFor != null ? "--optimize-for" : "--records-per-window")
              + " applies to --mechanism auto only, not to "
              + mechanism.type().id());
    }
    MechanismSpec spec;
    try {
      spec =
          MechanismSpec.builder()
              .type(auto ? MechanismType.autoPlaceholder(epsilon) : mechanism.type())
              .domain(d)
              .epsilon(epsilon)
              .objective(objective)
              .optimizeAt(optimizeAt != null ? optimizeAt : Double.NaN)
              .gridBits(gridBits)
              .build();
    } catch (IllegalArgumentException e) {
      // The builder names the parameter first ("epsilon must be ...", "mechanism ... is not ...").
      throw new UsageError("--" + e.getMessage());
    }
    return auto ? chosen(spec) : spec;
  }

  private MechanismSpec chosen(MechanismSpec spec) {
    OptimizeFor question;
    try {
      question =
          optimizeFor == null
              ? OptimizeFor.AGGREGATION
              : OptimizeFor.parse(optimizeFor).requireWeighableOn(spec.domain());
    } catch (IllegalArgumentException e) {
      throw new UsageError("--" + e.getMessage());
    }
    long records =
        recordsPerWindow == null ? MechanismChoice.DEFAULT_RECORDS_PER_WINDOW : recordsPerWindow;
    if (records < 1) {
      throw new UsageError("--records-per-window must be at least 1, got " + records);
    }
    return MechanismAdvisor.advise(spec, question, records).spec();
  }

  /** The mechanism these options describe. */
  Mechanism build() {
    MechanismSpec spec = spec();
    try {
      return MechanismCatalog.of(spec);
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
  }

  /** Validates an input value for the option {@code --x}. */
  double input(Domain d, double x) {
    try {
      return d.requireInput("--x", x);
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
  }

  /** A mechanism's name on the command line: {@code auto} (no type yet) or a catalog type. */
  record MechanismName(MechanismType type) {
    static final MechanismName AUTO = new MechanismName(null);

    @Override
    public String toString() {
      return type == null ? MechanismType.AUTO : type.id();
    }
  }

  /** Mechanism names for the help text. */
  static final class MechanismNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return java.util.Arrays.stream(MechanismType.values()).map(MechanismType::id).iterator();
    }
  }

  static final class MechanismConverter implements ITypeConverter<MechanismName> {
    @Override
    public MechanismName convert(String value) {
      try {
        MechanismType type = MechanismType.parseOrAuto(value);
        return type == null ? MechanismName.AUTO : new MechanismName(type);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class DomainKindConverter implements ITypeConverter<Domain.Kind> {
    @Override
    public Domain.Kind convert(String value) {
      try {
        return Domain.Kind.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class ObjectiveConverter implements ITypeConverter<Objective> {
    @Override
    public Objective convert(String value) {
      try {
        return Objective.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class MetricConverter implements ITypeConverter<ErrorMetric> {
    @Override
    public ErrorMetric convert(String value) {
      try {
        return ErrorMetric.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class DistanceConverter implements ITypeConverter<Distance> {
    @Override
    public Distance convert(String value) {
      try {
        return Distance.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
