package io.ogpm.flink.aggregate;

import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.PerturbedValues;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
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
  private transient PerturbedValuesReader reader;
  private transient ConfigCheck check;
  private transient Counter valuesSkipped;

  public PerturbedRecordParser(AggregationFields spec) {
    this.spec = spec;
  }

  @Override
  public void open(OpenContext context) {
    reader = new PerturbedValuesReader(spec);
    check = new ConfigCheck(spec.fingerprint());
    check.open(getRuntimeContext().getMetricGroup());
    valuesSkipped = getRuntimeContext().getMetricGroup().counter("valuesSkipped");
  }

  @Override
  public void flatMap(PerturbedRecord record, Collector<PerturbedValues> out) {
    if (!check.accepts(record.getFingerprint())) {
      return;
    }
    PerturbedValuesReader.Reading r = reader.read(record.getValue(), record.getTimestamp());
    valuesSkipped.inc(r.malformed() ? 1 : r.skipped());
    if (r.values() != null) {
      out.collect(r.values());
    }
  }
}
