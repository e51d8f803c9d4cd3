package io.ogpm.flink.perturb;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.DeadLetter;
import io.ogpm.record.PerturbationPlan;
import io.ogpm.record.ReasonCode;
import io.ogpm.record.RecordValues;
import io.ogpm.record.Source;
import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Perturbs the user's own records (POJOs or Rows): the values are read and the output record built
 * through a {@link RecordShape}, compiled with the {@link PerturbationPlan} once per subtask in
 * {@code open}; rejected records go to the {@link DeadLetters#TAG} side output, with the same
 * reasons and messages as JSON records (their source is unknown) and the record's timestamp, if it
 * has one. Same metrics as {@link PerturbFunction}.
 *
 * <p>{@code O} is the record itself ({@link #released}) or, when a budget follows, the triple
 * (user, what the record spends, record) ({@link #forBudget}): the budget is kept by user, a field
 * the output may not hold, and charges what each record spends (with field sampling, the epsilons
 * of the fields it reports). Internal: use {@link LdpPerturbation}.
 */
@Internal
public final class ObjectPerturbFunction<T, O> extends ProcessFunction<T, O> {
  private static final long serialVersionUID = 1L;

  /** What to emit for a perturbed record whose values (user included) are in {@code values}. */
  @FunctionalInterface
  private interface Emit<T, O> extends Serializable {
    O emit(T record, RecordValues values);
  }

  private final PrivacyConfig config;
  private final KeySource keySource;
  private final TypeInformation<T> type;
  private final Emit<T, O> emit;

  /** Whether this operator's output is what is released (no budget follows). */
  private final boolean releases;

  private transient PerturbationPlan plan;
  private transient RecordShape<T> shape;
  private transient RecordValues values;
  private transient ReleasedRecords releasedRecords;
  private transient DeadLetterCounters deadLettered;

  private ObjectPerturbFunction(
      PrivacyConfig config,
      KeySource keySource,
      TypeInformation<T> type,
      Emit<T, O> emit,
      boolean releases) {
    this.config = config;
    this.keySource = keySource;
    this.type = type;
    this.emit = emit;
    this.releases = releases;
  }

  /** Released records are counted here (no budget follows). */
  public static <T> ObjectPerturbFunction<T, T> released(
      PrivacyConfig config, KeySource keySource, TypeInformation<T> type) {
    return new ObjectPerturbFunction<>(config, keySource, type, (record, values) -> record, true);
  }

  /** The budget operator that follows counts the released records. */
  public static <T> ObjectPerturbFunction<T, Tuple3<String, Double, T>> forBudget(
      PrivacyConfig config, KeySource keySource, TypeInformation<T> type) {
    return new ObjectPerturbFunction<>(
        config,
        keySource,
        type,
        (record, values) -> Tuple3.of(values.user().text(), values.epsilon(), record),
        false);
  }

  @Override
  public void open(OpenContext context) {
    RandomnessMode mode = keySource.load();
    try {
      plan = PerturbationPlan.compile(config, mode);
    } finally {
      mode.destroy();
    }
    shape = RecordShape.compile(type, config, getRuntimeContext()::createSerializer);
    values = plan.newValues();
    MetricGroup metrics = getRuntimeContext().getMetricGroup();
    deadLettered = new DeadLetterCounters(metrics, List.of(ReasonCode.values()));
    releasedRecords = releases ? ReleasedRecords.register(metrics) : null;
  }

  @Override
  public void processElement(T in, Context ctx, Collector<O> out) {
    shape.read(in, values);
    DeadLetter refused = plan.perturb(values, Source.unknown());
    if (refused != null) {
      Long time = ctx.timestamp();
      ctx.output(DeadLetters.TAG, DeadLetters.record(refused, time == null ? 0 : time));
      deadLettered.inc(refused.reason());
      return;
    }
    out.collect(emit.emit(shape.write(in, values), values));
    if (releasedRecords != null) {
      releasedRecords.add(values.epsilon());
    }
  }
}
