package io.ogpm.bench;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.perturb.PerturbFunction;
import io.ogpm.record.Source;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The perturb job's operators with the privacy left out, for {@link PipelineBench}'s baselines: the
 * record path of {@link PerturbFunction} that writes each configured value as read ({@link
 * UnperturbedRecordPath}), and, in place of the budget, the same shuffle by user into an operator
 * that keeps no state. Compared with the perturbation, the difference is what the privacy costs:
 * the mechanisms, their randomness, the domain checks and the budget's state.
 */
final class Unperturbed {
  private Unperturbed() {}

  /**
   * {@link PerturbFunction}'s work but the privacy: the same output records, the same side output.
   */
  static final class RecordPath extends ProcessFunction<RawRecord, PerturbedRecord> {
    private static final long serialVersionUID = 1L;
    private final PrivacyConfig config;

    /**
     * The fingerprint set on the records this operator releases; null where {@link ByUser} follows.
     */
    private final String fingerprint;

    private transient UnperturbedRecordPath path;
    private transient double epsilon;

    RecordPath(PrivacyConfig config, String fingerprint) {
      this.config = config;
      this.fingerprint = fingerprint;
    }

    @Override
    public void open(OpenContext context) {
      path = new UnperturbedRecordPath(config);
      epsilon = config.epsilonPerRecord();
    }

    @Override
    public void processElement(RawRecord in, Context ctx, Collector<PerturbedRecord> out) {
      Source source = Source.kafka(in.getTopic(), in.getPartition(), in.getOffset());
      byte[] value = path.rewrite(in.getValue(), source);
      PerturbedRecord record =
          new PerturbedRecord(
                  path.key(), value, epsilon, path.user(), in.getTimestamp(), in.getTimestampType())
              .from(in.getTopic(), in.getPartition(), in.getOffset());
      record.setFingerprint(fingerprint);
      out.collect(record);
    }
  }

  /** Where the budget would be: each record released as it comes, its fingerprint set, no state. */
  static final class ByUser extends KeyedProcessFunction<String, PerturbedRecord, PerturbedRecord> {
    private static final long serialVersionUID = 1L;
    private final String fingerprint;

    ByUser(String fingerprint) {
      this.fingerprint = fingerprint;
    }

    @Override
    public void processElement(PerturbedRecord r, Context ctx, Collector<PerturbedRecord> out) {
      r.setFingerprint(fingerprint);
      out.collect(r);
    }
  }
}
