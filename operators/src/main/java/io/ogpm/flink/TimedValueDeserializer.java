package io.ogpm.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.record.JsonFields;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads perturbed records for aggregation, taking each one's event time from a passthrough field
 * (epoch milliseconds or ISO-8601), or from the Kafka timestamp when no time field is configured or
 * the record lacks it. Never throws: a record that is not JSON keeps the Kafka timestamp and is
 * skipped (and counted) downstream.
 */
public final class TimedValueDeserializer implements KafkaRecordDeserializationSchema<TimedValue> {
  private static final long serialVersionUID = 1L;

  private final List<String> timePath;
  private transient ObjectMapper json;

  /** @param timeField dotted name of the event-time field, or null for the Kafka timestamp */
  public TimedValueDeserializer(String timeField) {
    this.timePath = timeField == null ? null : List.of(timeField.split("\\.", -1));
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<TimedValue> out) {
    long time = record.timestamp();
    if (timePath != null && record.value() != null) {
      if (json == null) {
        json = new ObjectMapper();
      }
      try {
        JsonNode root = json.readTree(record.value());
        time = EventTimes.of(JsonFields.at(root, timePath), time);
      } catch (java.io.IOException | RuntimeException e) {
        // Not JSON: counted as skipped when the values are extracted.
      }
    }
    out.collect(new TimedValue(record.value() == null ? new byte[0] : record.value(), time));
  }

  @Override
  public TypeInformation<TimedValue> getProducedType() {
    return TypeInformation.of(TimedValue.class);
  }
}
