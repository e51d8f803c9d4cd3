package io.ogpm.flink;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.config.UserGuarantee;
import io.ogpm.flink.budget.BrokerTimeWatermarks;
import io.ogpm.flink.budget.BudgetFunction;
import io.ogpm.flink.budget.ContributionFunction;
import io.ogpm.flink.budget.KafkaRecordBudget;
import io.ogpm.flink.budget.ObjectBudgetFunction;
import io.ogpm.flink.budget.OrderedBudgetFunction;
import io.ogpm.flink.order.Placed;
import io.ogpm.flink.order.RawPartitionOrder;
import io.ogpm.flink.perturb.DeadLetters;
import io.ogpm.flink.perturb.ObjectPerturbFunction;
import io.ogpm.flink.perturb.PerturbFunction;
import io.ogpm.flink.perturb.RecordShape;
import io.ogpm.flink.typeutils.PerturbedRecordTypeInfo;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local differential privacy for a DataStream: every record is perturbed with the configured field
 * mechanisms as it enters, and only the perturbed fields and the passthrough fields leave (deny by
 * default); records that cannot be perturbed (malformed, a field missing, not a number, out of
 * range, over the user's budget) become dead letters that name the reason and never a value.
 *
 * <pre>{@code
 * LdpPerturbation ldp = LdpPerturbation.builder()
 *     .config(PrivacyConfig.load(Path.of("ogpm.yaml")))
 *     .randomness(KeySource.file(Path.of("/run/secrets/ogpm-key")))   // optional: replay-safe
 *     .uidPrefix("sensors")                                           // optional
 *     .build();
 * DataStream<RawRecord> raw = env.fromSource(rawRecordSource, ldp.rawWatermarks(), "raw records");
 * PerturbationResult<PerturbedRecord> json = ldp.apply(raw);
 * PerturbationResult<Reading> pojos = ldp.apply(readings, RecordAccess.pojo(Reading.class));
 * }</pre>
 *
 * <p>Two inputs: {@link RawRecord}s (the JSON bytes of Kafka records, from {@code
 * io.ogpm.flink.kafka.RawRecordSource}), giving {@link PerturbedRecord}s (output JSON, the record's
 * privacy cost, the configuration's fingerprint), or the user's own POJOs or Rows through a {@link
 * RecordAccess}, giving records of the same type. Both have the same rules, dead letters, metrics
 * ({@code recordsPerturbed}, {@code epsilonSpent} of released records; {@code recordsDeadLettered}
 * per {@code reason}) and per-user budget (keyed by the user field, after the perturbation, so raw
 * values are never sent over the network).
 *
 * <p>{@code apply} adds operators to the caller's stream and nothing else: checkpointing,
 * parallelism and restart strategy belong to the job. Operators have stable uids by the rule of
 * both builders of the library: the role alone without a uid prefix, {@code <prefix>-<role>} with
 * one. The roles are {@value #PERTURB} (each raw partition's next number), {@value #CONTRIBUTION}
 * (the contribution bound's state), {@value #BUDGET} (the budget's state) and {@value
 * #PARTITION_ORDER} (records waiting for their place after the budget); without a prefix (the
 * default) these are the uids of the perturb job, whose savepoints therefore restore. Two
 * perturbations in one job need two prefixes. Immutable.
 */
@PublicEvolving
public final class LdpPerturbation {
  /** The uid role of the perturb operator. */
  static final String PERTURB = "perturb";

  /** The uid role of the budget operator (its state: the spending per user and period). */
  static final String BUDGET = "budget-by-period";

  /** The uid role of the contribution bound (its state: each user's kept records per window). */
  static final String CONTRIBUTION = "contribution-by-window";

  /**
   * The uid role of the stage that restores each raw partition's order after the budget (its state:
   * the next number per raw partition, and records waiting for it).
   */
  static final String PARTITION_ORDER = "partition-order";

  private static final Logger LOG = LoggerFactory.getLogger(LdpPerturbation.class);

  private final PrivacyConfig config;
  private final KeySource randomness;
  private final String uidPrefix;
  private final boolean keepPartitionOrder;

  private LdpPerturbation(Builder b) {
    this.config = b.config;
    this.randomness = b.randomness;
    this.uidPrefix = b.uidPrefix;
    this.keepPartitionOrder = b.keepPartitionOrder;
  }

  public static Builder builder() {
    return new Builder();
  }

  public PrivacyConfig config() {
    return config;
  }

  public KeySource randomness() {
    return randomness;
  }

  /**
   * The watermarks to read the raw topic with: the broker's append times when a contribution bound
   * closes its windows on {@code log-append-time} (so a backlog is placed in its own windows), none
   * otherwise. A job whose raw source carries none with such a bound fails with one line.
   *
   * <pre>{@code
   * DataStream<RawRecord> raw = env.fromSource(source, ldp.rawWatermarks(), "raw records");
   * }</pre>
   */
  public WatermarkStrategy<RawRecord> rawWatermarks() {
    return config
        .contribution()
        .filter(bound -> bound.clock() == BudgetClock.LOG_APPEND_TIME)
        .map(BrokerTimeWatermarks::strategy)
        .orElseGet(WatermarkStrategy::noWatermarks);
  }

  /** The operators' uid of a role: {@code <prefix>-<role>}, or the role alone without a prefix. */
  public String uid(String role) {
    return Uids.uid(uidPrefix, role);
  }

  /**
   * Perturbs JSON records read from Kafka.
   *
   * @return the perturbed records (output JSON bytes, key, cost, fingerprint; Flink type {@link
   *     PerturbedRecordTypeInfo}) and the dead letters
   */
  public PerturbationResult<PerturbedRecord> apply(DataStream<RawRecord> records) {
    Objects.requireNonNull(records, "records: required");
    logGuarantee();
    // The budget's shuffle by user mixes each raw partition's order, which a stage after it
    // restores; a contribution bound releases by window instead, so there the order is the
    // windows'.
    boolean ordered =
        keepPartitionOrder && config.budget().isPresent() && config.contribution().isEmpty();
    SingleOutputStreamOperator<PerturbedRecord> perturbed =
        records
            .process(
                new PerturbFunction(config, randomness, ordered),
                TypeInformation.of(PerturbedRecord.class))
            .uid(uid(PERTURB))
            .name("perturb");
    DataStream<DeadLetterRecord> deadLetters = perturbed.getSideOutput(DeadLetters.TAG);
    DataStream<PerturbedRecord> chosen = perturbed;
    if (config.contribution().isPresent()) {
      // Before the budget: only the records chosen for their window spend it.
      SingleOutputStreamOperator<PerturbedRecord> bounded =
          perturbed
              .keyBy(new RecordUser(), Types.STRING)
              .process(
                  new ContributionFunction(
                      config.contribution().get(),
                      config.budget().isPresent() ? null : ConfigFingerprint.of(config).value()),
                  TypeInformation.of(PerturbedRecord.class))
              .uid(uid(CONTRIBUTION))
              .name("contribution bound");
      deadLetters = deadLetters.union(bounded.getSideOutput(DeadLetters.TAG));
      chosen = bounded;
    }
    if (config.budget().isEmpty()) {
      return new PerturbationResult<>(chosen, deadLetters);
    }
    String fingerprint = ConfigFingerprint.of(config).value();
    SingleOutputStreamOperator<PerturbedRecord> released =
        ordered
            ? budget(
                    chosen,
                    new OrderedBudgetFunction(config.budget().get(), fingerprint),
                    TypeInformation.of(Placed.class))
                .keyBy(new RawPartitionOrder.RawPartitionOf(), RawPartitionOrder.KEY_TYPE)
                .process(new RawPartitionOrder(), TypeInformation.of(PerturbedRecord.class))
                .uid(uid(PARTITION_ORDER))
                .name("raw partition order")
            : budget(
                chosen,
                new BudgetFunction(config.budget().get(), fingerprint),
                TypeInformation.of(PerturbedRecord.class));
    return new PerturbationResult<>(
        released, deadLetters.union(released.getSideOutput(DeadLetters.TAG)));
  }

  /** The budget operator, keyed by user, whichever it emits. */
  private <O> SingleOutputStreamOperator<O> budget(
      DataStream<PerturbedRecord> records, KafkaRecordBudget<O> budget, TypeInformation<O> type) {
    return records
        .keyBy(new RecordUser(), Types.STRING)
        .process(budget, type)
        .uid(uid(BUDGET))
        .name("privacy budget");
  }

  /**
   * Perturbs the user's own records: POJOs ({@link RecordAccess#pojo}) or Rows ({@link
   * RecordAccess#row}). The output stream has the input's type information.
   *
   * @throws IllegalArgumentException if the stream's type does not fit the configuration (a
   *     configured name it lacks, a perturbed field that is not a double...), or if the budget's
   *     clock is log-append-time, which only Kafka records carry
   */
  public <T> PerturbationResult<T> apply(DataStream<T> records, RecordAccess<T> access) {
    Objects.requireNonNull(records, "records: required");
    Objects.requireNonNull(
        access, "access: required (RecordAccess.pojo(type) or RecordAccess.row())");
    TypeInformation<T> type = records.getType();
    access.check(type);
    logGuarantee();
    RecordShape.compile(type, config, null); // checks the type against the configuration
    if (config.contribution().isPresent()) {
      throw new IllegalArgumentException(
          "contribution: bounds apply to Kafka records for now: perturb them with"
              + " apply(DataStream<RawRecord>)");
    }
    BudgetConfig budget = config.budget().orElse(null);
    if (budget != null && budget.clock() == BudgetClock.LOG_APPEND_TIME) {
      throw new IllegalArgumentException(
          "budget: clock log-append-time reads the time the Kafka broker appended a"
              + " record, which records of "
              + type.getTypeClass().getSimpleName()
              + " do not carry: use clock: ingestion-time, or perturb the Kafka"
              + " records themselves with apply(DataStream<RawRecord>)");
    }
    if (budget == null) {
      SingleOutputStreamOperator<T> perturbed =
          records
              .process(ObjectPerturbFunction.released(config, randomness, type), type)
              .uid(uid(PERTURB))
              .name("perturb");
      return new PerturbationResult<>(perturbed, perturbed.getSideOutput(DeadLetters.TAG));
    }
    SingleOutputStreamOperator<Tuple3<String, Double, T>> perturbed =
        records
            .process(
                ObjectPerturbFunction.forBudget(config, randomness, type),
                new TupleTypeInfo<>(Types.STRING, Types.DOUBLE, type))
            .uid(uid(PERTURB))
            .name("perturb");
    SingleOutputStreamOperator<T> withinBudget =
        perturbed
            .keyBy(new UserOf<>(), Types.STRING)
            .process(new ObjectBudgetFunction<T>(budget), type)
            .uid(uid(BUDGET))
            .name("privacy budget");
    return new PerturbationResult<>(
        withinBudget,
        perturbed
            .getSideOutput(DeadLetters.TAG)
            .union(withinBudget.getSideOutput(DeadLetters.TAG)));
  }

  @Override
  public String toString() {
    return "LdpPerturbation{" + config + ", " + randomness + ", uids " + uid("<role>") + "}";
  }

  /**
   * What a person is promised, beside what a record is: logged where the perturbation joins a job
   * (the client's log for flink run), not where it is configured, so that a job refused before it
   * starts says only why.
   */
  private void logGuarantee() {
    LOG.info("ogpm {}", UserGuarantee.of(config).describe());
  }

  /** A perturbed Kafka record's user: the budget's key. */
  private static final class RecordUser implements KeySelector<PerturbedRecord, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(PerturbedRecord r) {
      return r.getUser();
    }
  }

  /** The user of a (user, epsilon, record) triple: the budget's key. */
  private static final class UserOf<T> implements KeySelector<Tuple3<String, Double, T>, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(Tuple3<String, Double, T> r) {
      return r.f0;
    }
  }

  /** Builds an {@link LdpPerturbation}; {@link #build} validates. */
  @PublicEvolving
  public static final class Builder {
    private PrivacyConfig config;
    private KeySource randomness = KeySource.none();
    private String uidPrefix;
    private boolean keepPartitionOrder = true;

    private Builder() {}

    /** Required: the fields, mechanisms, passthrough fields, id, user and budget. */
    public Builder config(PrivacyConfig config) {
      this.config = config;
      return this;
    }

    /**
     * Where the randomness comes from: {@link KeySource#none()} (the default: secure random, a
     * fresh stream per subtask) or a key ({@link KeySource#file}, {@link KeySource#environment})
     * for replay-safe keyed randomness, which needs the configuration's id field.
     */
    public Builder randomness(KeySource randomness) {
      this.randomness = randomness;
      return this;
    }

    /**
     * Prefix of the operators' uids ({@code <prefix>-perturb}...); default none (null): the roles
     * alone, the perturb job's uids.
     */
    public Builder uidPrefix(String uidPrefix) {
      this.uidPrefix = uidPrefix;
      return this;
    }

    /**
     * Whether a per-user budget keeps each raw partition's order (default true): the budget's
     * subtasks, keyed by user, each release records of every raw partition; a stage keyed by raw
     * partition then puts them back in order, so one writer writes each partition's records in
     * order and the perturbed partition never steps back in event time (after a restore included).
     * False saves that stage's shuffle, for consumers that do not read by event time. Without a
     * budget, or with a contribution bound (which releases by window), there is no such stage. The
     * order restored is the one the perturbation receives each raw partition's records in: straight
     * from the Kafka source (or through operators chained to it), each partition is read by one
     * subtask in offset order; a rebalance before the perturbation would mix it.
     */
    public Builder keepPartitionOrder(boolean keepPartitionOrder) {
      this.keepPartitionOrder = keepPartitionOrder;
      return this;
    }

    /**
     * @throws NullPointerException if the configuration or the randomness is missing
     * @throws IllegalArgumentException for a blank uid prefix (or one that starts or ends with a
     *     space), or keyed randomness without an id field
     */
    public LdpPerturbation build() {
      Objects.requireNonNull(
          config, "config: required (PrivacyConfig.load(path) or PrivacyConfig.parse(yaml))");
      Objects.requireNonNull(
          randomness, "randomness: must not be null (KeySource.none() for secure randomness)");
      Uids.checkPrefix(uidPrefix);
      if (randomness.isKeyed() && config.idField().isEmpty()) {
        throw new IllegalArgumentException(
            "randomness: keyed randomness ("
                + randomness
                + ") needs an id-field in the configuration");
      }
      // Which fields a record reports is decided here, once: say so where the job is built (the
      // client's log for flink run, the JobManager's for the web UI and REST).
      // Also when auto chose every field: the line says which K it picked.
      config.sampling().ifPresent(s -> LOG.info("ogpm {}", s.describe()));
      // Likewise each mechanism: auto chose, with its reason.
      for (FieldConfig field : config.fields()) {
        field
            .choice()
            .ifPresent(
                c ->
                    LOG.info(
                        "ogpm field '{}': mechanism {} at epsilon {} for {} ({} reports per"
                            + " window): {}",
                        field.name(),
                        field.mechanism().id(),
                        field.epsilon(),
                        c.optimizeFor().id(),
                        c.recordsPerWindow(),
                        c.reason()));
      }
      return new LdpPerturbation(this);
    }
  }
}
