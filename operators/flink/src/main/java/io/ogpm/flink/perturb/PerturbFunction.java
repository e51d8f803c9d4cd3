package io.ogpm.flink.perturb;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.ReasonCode;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Perturbs each raw record with the configured field mechanisms ({@link RecordPerturber}, compiled
 * once per subtask in {@code open}); rejected records go to the {@link DeadLetters#TAG} side
 * output. Each subtask has its own random stream (secure) or derives the bits from the key, the
 * field, the record's id and user and the value (keyed: see {@code KeyedPrf}).
 *
 * <p>Without a budget, the output records are released and carry the configuration's fingerprint;
 * with one, they go to the budget operator ({@link io.ogpm.flink.budget.BudgetFunction}), which
 * sets the fingerprint on those it releases.
 *
 * <p>Metrics (operator scope): {@code recordsDeadLettered} under {@code reason=<code>}; and, when
 * no budget is configured (this operator's output is then what is released), {@code
 * recordsPerturbed} and the gauge {@code epsilonSpent} ({@link ReleasedRecords}). With a budget,
 * the budget operator counts those, since it may still refuse a record perturbed here.
 *
 * <p>Sequenced (a budget without a contribution bound, on Kafka records), it numbers each raw
 * partition's perturbed records ({@link RawPartitionSequences}, its only state) so that the order
 * is restored after the budget's shuffle; dead letters written here keep their place without a
 * number, since they do not cross that shuffle.
 *
 * <p>Internal: use {@link LdpPerturbation}.
 */
@Internal
public final class PerturbFunction extends ProcessFunction<RawRecord, PerturbedRecord>
    implements CheckpointedFunction {
  private static final long serialVersionUID = 1L;

  private final PrivacyConfig config;
  private final KeySource keySource;
  private final boolean sequenced;

  private transient RecordPerturber perturber;

  /** Each raw partition's numbering, when a later stage restores the partitions' order. */
  private transient RawPartitionSequences sequences;

  /**
   * The configuration's fingerprint, set on the records this operator releases (no budget); null
   * with a budget: the budget operator sets it on the records it releases, so that the same string
   * is not serialized into every record sent across the shuffle by user.
   */
  private transient String fingerprint;

  /** The released-record metrics, or null when a budget operator releases the records. */
  private transient ReleasedRecords released;

  private transient DeadLetterCounters deadLettered;

  /**
   * @param sequenced whether to number each raw partition's records ({@link
   *     PerturbedRecord#getSequence()}), for a stage after the budget that restores their order
   */
  public PerturbFunction(PrivacyConfig config, KeySource keySource, boolean sequenced) {
    this.config = config;
    this.keySource = keySource;
    this.sequenced = sequenced;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    if (sequenced) {
      sequences = new RawPartitionSequences();
      sequences.initialize(context);
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    if (sequences != null) {
      sequences.snapshot();
    }
  }

  @Override
  public void open(OpenContext context) {
    RandomnessMode mode = keySource.load();
    try {
      perturber = new RecordPerturber(config, mode);
    } finally {
      mode.destroy();
    }
    MetricGroup metrics = getRuntimeContext().getMetricGroup();
    deadLettered = new DeadLetterCounters(metrics, List.of(ReasonCode.values()));
    // The last stage before the sink counts what is released and stamps the fingerprint: the
    // budget, else the contribution bound, else this operator.
    boolean later = config.budget().isPresent() || config.contribution().isPresent();
    released = later ? null : ReleasedRecords.register(metrics);
    fingerprint = released == null ? null : ConfigFingerprint.of(config).value();
  }

  @Override
  public void processElement(RawRecord in, Context ctx, Collector<PerturbedRecord> out) {
    Source source = Source.kafka(in.getTopic(), in.getPartition(), in.getOffset());
    Outcome outcome = perturber.perturb(in.getValue(), source);
    if (outcome instanceof Outcome.Perturbed p) {
      PerturbedRecord record =
          new PerturbedRecord(
                  p.key(),
                  p.value(),
                  p.epsilon(),
                  p.user(),
                  in.getTimestamp(),
                  in.getTimestampType())
              .from(in.getTopic(), in.getPartition(), in.getOffset());
      record.setFingerprint(fingerprint);
      if (sequences != null) {
        record.setSequence(sequences.next(in.getTopic(), in.getPartition()));
      }
      out.collect(record);
      if (released != null) {
        released.add(p.epsilon());
      }
    } else if (outcome instanceof Outcome.Rejected r) {
      ctx.output(DeadLetters.TAG, DeadLetters.record(r.deadLetter(), in.getTimestamp()));
      deadLettered.inc(r.deadLetter().reason());
    }
  }
}
