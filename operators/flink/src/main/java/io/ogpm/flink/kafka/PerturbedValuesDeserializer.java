package io.ogpm.flink.kafka;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.aggregate.AggregationFields;
import io.ogpm.flink.aggregate.PerturbedRecordReader;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Reads perturbed Kafka records for the aggregation, parsing each one once: its configured values,
 * its group and its event time (from the time field, epoch milliseconds or ISO-8601, else the Kafka
 * timestamp). Never throws on what a producer wrote:
 *
 * <ul>
 *   <li>a record whose {@value ConfigFingerprint#HEADER} header is not the configuration's
 *       fingerprint, or that has none, is skipped and counted ({@code recordsSkipped} by {@code
 *       reason}), with one WARN line per distinct fingerprint;
 *   <li>a value that is missing, not a number or outside its mechanism's output domain is skipped
 *       and counted ({@code valuesSkipped}); a record that is not a JSON object (or a tombstone)
 *       counts once there; a record with no usable value gives nothing.
 * </ul>
 *
 * <p>Metrics are registered on the source's {@code deserializer} metric group. {@link
 * AggregationKafka#deserializer} makes one for an aggregation (its configuration and group-by
 * field).
 */
@PublicEvolving
public final class PerturbedValuesDeserializer
    implements KafkaRecordDeserializationSchema<PerturbedValues> {
  private static final long serialVersionUID = 1L;

  private final AggregationFields spec;
  private transient PerturbedRecordReader reader;

  /**
   * @param groupField dotted name of a passthrough field to group by, or null
   * @param timeField dotted name of a passthrough field with the event time, or null for the Kafka
   *     timestamp
   * @throws IllegalArgumentException naming the option if a field is not passed through
   */
  public PerturbedValuesDeserializer(PrivacyConfig config, String groupField, String timeField) {
    this(AggregationFields.checked(config, groupField, timeField));
  }

  private PerturbedValuesDeserializer(AggregationFields spec) {
    this.spec = spec;
  }

  @Override
  public void open(DeserializationSchema.InitializationContext context) {
    reader = new PerturbedRecordReader(spec, context.getMetricGroup());
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<PerturbedValues> out) {
    Header h = record.headers().lastHeader(ConfigFingerprint.HEADER);
    String fingerprint =
        h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    PerturbedValues values = reader.read(fingerprint, record.value(), record.timestamp());
    if (values != null) {
      out.collect(values);
    }
  }

  @Override
  public TypeInformation<PerturbedValues> getProducedType() {
    return TypeInformation.of(PerturbedValues.class);
  }
}
