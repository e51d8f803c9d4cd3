package io.ogpm.flink.aggregate;

import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.PerturbedValues;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * {@link io.ogpm.flink.LdpAggregation#parser}: perturbed records of this job to their values, under
 * the rules of {@link io.ogpm.flink.kafka.PerturbedValuesDeserializer}, with the record's
 * fingerprint and timestamp in place of the Kafka header and timestamp.
 */
@Internal
public final class PerturbedRecordParser
    extends RichFlatMapFunction<PerturbedRecord, PerturbedValues> {
  private static final long serialVersionUID = 1L;

  private final AggregationFields spec;
  private transient PerturbedRecordReader reader;

  public PerturbedRecordParser(AggregationFields spec) {
    this.spec = spec;
  }

  @Override
  public void open(OpenContext context) {
    reader = new PerturbedRecordReader(spec, getRuntimeContext().getMetricGroup());
  }

  @Override
  public void flatMap(PerturbedRecord record, Collector<PerturbedValues> out) {
    PerturbedValues values =
        reader.read(record.getFingerprint(), record.getValue(), record.getTimestamp());
    if (values != null) {
      out.collect(values);
    }
  }
}
