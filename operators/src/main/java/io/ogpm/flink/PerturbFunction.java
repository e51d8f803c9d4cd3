package io.ogpm.flink;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.ReasonCode;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Perturbs each raw record with the configured field mechanisms ({@link RecordPerturber}); rejected
 * records go to the {@link #DEAD_LETTERS} side output. Each subtask has its own random stream
 * (secure) or derives the bits from the key, the field, the record's id and user and the value
 * (keyed: see {@code KeyedPrf}).
 *
 * <p>Metrics (operator scope): {@code recordsDeadLettered} under {@code reason=<code>}; and, when no
 * budget is configured (this operator's output is then what is released), {@code recordsPerturbed}
 * and the gauge {@code epsilonSpent} ({@link ReleasedRecords}). With a budget, the budget operator
 * counts those, since it may still refuse a record perturbed here.
 */
public final class PerturbFunction extends ProcessFunction<RawRecord, PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  /** Dead letters, one per rejected record. */
  public static final OutputTag<DeadLetterRecord> DEAD_LETTERS =
      new OutputTag<>("dead-letters", TypeInformation.of(DeadLetterRecord.class));

  private final PrivacyConfig config;
  private final KeySource keySource;

  private transient RecordPerturber perturber;
  private transient String fingerprint;
  /** The released-record metrics, or null when a budget operator releases the records. */
  private transient ReleasedRecords released;
  private transient Map<ReasonCode, Counter> deadLettered;

  public PerturbFunction(PrivacyConfig config, KeySource keySource) {
    this.config = config;
    this.keySource = keySource;
  }

  @Override
  public void open(OpenContext context) {
    RandomnessMode mode = keySource.load();
    try {
      perturber = new RecordPerturber(config, mode);
    } finally {
      mode.destroy();
    }
    fingerprint = ConfigFingerprint.of(config).value();
    MetricGroup metrics = getRuntimeContext().getMetricGroup();
    deadLettered = new EnumMap<>(ReasonCode.class);
    for (ReasonCode reason : ReasonCode.values()) {
      deadLettered.put(reason, metrics.addGroup("reason", reason.code()).counter("recordsDeadLettered"));
    }
    released = config.budget().isPresent() ? null : ReleasedRecords.register(metrics);
  }

  @Override
  public void processElement(RawRecord in, Context ctx, Collector<PerturbedRecord> out) {
    Source source = Source.kafka(in.getTopic(), in.getPartition(), in.getOffset());
    Outcome outcome = perturber.perturb(in.getValue(), source);
    if (outcome instanceof Outcome.Perturbed p) {
      PerturbedRecord record = new PerturbedRecord(p.key(), p.value(), p.epsilon(), p.user(), in.getTimestamp(),
          in.getTimestampType()).from(in.getTopic(), in.getPartition(), in.getOffset());
      record.setFingerprint(fingerprint);
      out.collect(record);
      if (released != null) {
        released.add(p.epsilon());
      }
    } else if (outcome instanceof Outcome.Rejected r) {
      ctx.output(DEAD_LETTERS, deadLetter(r, in.getTimestamp()));
      deadLettered.get(r.deadLetter().reason()).inc();
    }
  }

  static DeadLetterRecord deadLetter(Outcome.Rejected r, long timestamp) {
    return new DeadLetterRecord(
        r.deadLetter().toJson().toString().getBytes(StandardCharsets.UTF_8), r.deadLetter().reason().code(), timestamp);
  }
}
