package io.ogpm.flink.table;

import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.inference.TypeInference;

/**
 * Checks the mechanism arguments of a call that are literals when the query is planned, so that
 * {@code LDP_PERTURB(x, 0, 1, 0)} fails with a {@link
 * org.apache.flink.table.api.ValidationException} naming the function, the argument and its value
 * ({@code LDP_PERTURB: eps must be > 0, got 0.0}) instead of giving NULL for every row. Each
 * literal is checked on its own (not NULL; {@code lo}, {@code hi} finite; {@code eps} finite and >
 * 0; the names known; {@code bins} in [1, 10000]; {@code p} in (0, 1)); when every mechanism
 * argument is a literal, the mechanism is built as the task will build it, which checks the rest
 * ({@code lo < hi}, a mechanism defined on the domain, an output grid that doubles can represent).
 * Arguments that are not literals are checked per row on the task (NULL for the row, counted).
 *
 * <p>Wraps the input strategy that Flink extracted from the function's {@code eval} or {@code
 * accumulate} methods, which matches the overload and casts numbers to DOUBLE. (For aggregate
 * functions the planner keeps literal information only while it validates the query: the check runs
 * then.)
 */
final class ConstantArguments extends PlannedArguments {
  private final CallLayout layout;

  private ConstantArguments(InputTypeStrategy overloads, CallLayout layout) {
    super(overloads, layout.function);
    this.layout = layout;
  }

  /** The extracted type inference with its input strategy wrapped. */
  static TypeInference wrap(TypeInference extracted, CallLayout layout) {
    TypeInference.Builder b =
        TypeInference.newBuilder()
            .inputTypeStrategy(new ConstantArguments(extracted.getInputTypeStrategy(), layout))
            .stateTypeStrategies(extracted.getStateTypeStrategies())
            .outputTypeStrategy(extracted.getOutputTypeStrategy());
    extracted.getStaticArguments().ifPresent(b::staticArguments);
    return b.build();
  }

  /**
   * Checks the literal arguments.
   *
   * @throws IllegalArgumentException naming the argument and its value
   */
  @Override
  void check(CallContext call) {
    if (layout.polar()) {
      checkPolar(call);
      return;
    }
    Double lo = number(call, layout.lo, "lo");
    Double hi = number(call, layout.hi, "hi");
    Double eps = number(call, layout.eps, "eps");
    String domain = text(call, layout.domain, "domain", layout.defaultDomain());
    String mechanism = text(call, layout.mechanism, "mechanism", layout.defaultMechanism());
    String objective = text(call, layout.objective, "objective", SpecArguments.DEFAULT_OBJECTIVE);
    Double bins = number(call, layout.bins, "bins");
    Double probability = number(call, layout.probability, "p");
    if (probability != null) {
      LdpQuantile.query(probability);
    }
    if (lo != null) {
      Checks.finite("lo", lo);
    }
    if (hi != null) {
      Checks.finite("hi", hi);
    }
    if (eps != null) {
      Checks.epsilon("eps", eps);
    }
    if (domain != null) {
      Domain.Kind.parse(domain);
    }
    if (mechanism != null) {
      MechanismType.parseOrAuto(mechanism);
    }
    if (objective != null) {
      Objective.parse(objective);
    }
    if (bins != null && !(bins >= 1 && bins <= CallLayout.MAX_BINS)) {
      throw new IllegalArgumentException(
          "bins must be in [1, " + CallLayout.MAX_BINS + "], got " + bins.longValue());
    }
    if (lo != null
        && hi != null
        && eps != null
        && domain != null
        && mechanism != null
        && objective != null) {
      // Everything is known: build the mechanism as the task will.
      MechanismCatalog.of(new SpecArguments(lo, hi, eps, domain, mechanism, objective).spec());
    } else if (lo != null && hi != null) {
      Checks.ordered("lo", lo, "hi", hi);
    }
  }

  /**
   * Checks a polar call's literals: each on its own, then, when every argument is a literal, the
   * split and both mechanisms as the task will compile them.
   */
  private void checkPolar(CallContext call) {
    Double radiusMax = number(call, layout.radiusMax, "radius_max");
    Double eps = number(call, layout.eps, "eps");
    String objective = text(call, layout.objective, "objective", SpecArguments.DEFAULT_OBJECTIVE);
    boolean circle = CallLayout.holds(layout.angleMin, call.getArgumentDataTypes().size());
    // Boxed defaults: a ternary of Double and double would unbox a column's null.
    Double angleMin =
        circle
            ? number(call, layout.angleMin, "angle_min")
            : Double.valueOf(PolarArguments.DEFAULT_ANGLE_MIN);
    Double angleMax =
        circle
            ? number(call, layout.angleMax, "angle_max")
            : Double.valueOf(PolarArguments.DEFAULT_ANGLE_MAX);
    if (objective != null) {
      Objective.parse(objective);
    }
    PolarArguments.check(radiusMax, eps, angleMin, angleMax);
    if (radiusMax != null
        && eps != null
        && objective != null
        && angleMin != null
        && angleMax != null) {
      PolarArguments.Split split =
          new PolarArguments(radiusMax, eps, objective, angleMin, angleMax).split();
      MechanismCatalog.of(split.radius().spec());
      MechanismCatalog.of(split.angle().spec());
    }
  }

  /** The literal number at a position, or null when it is not a literal (or not in the call). */
  private static Double number(CallContext call, int position, String name) {
    Object v = literal(call, position, name);
    return v == null ? null : ((Number) v).doubleValue();
  }

  /**
   * The literal text at a position; the default when the call does not hold the position; null when
   * not a literal.
   */
  private static String text(CallContext call, int position, String name, String absent) {
    if (!CallLayout.holds(position, call.getArgumentDataTypes().size())) {
      return absent;
    }
    Object v = literal(call, position, name);
    return v == null ? null : v.toString();
  }

  private static Object literal(CallContext call, int position, String name) {
    if (!CallLayout.holds(position, call.getArgumentDataTypes().size())
        || !isLiteral(call, position)) {
      return null;
    }
    if (call.isArgumentNull(position)) {
      throw new IllegalArgumentException(name + " must not be NULL");
    }
    Class<?> type = call.getArgumentDataTypes().get(position).getConversionClass();
    return call.getArgumentValue(position, type).orElse(null);
  }

  /**
   * Whether the argument is a literal; false where the planner cannot say (it throws
   * UnsupportedOperationException when it derives an aggregate's types after validation).
   */
  private static boolean isLiteral(CallContext call, int position) {
    try {
      return call.isArgumentLiteral(position);
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }
}
