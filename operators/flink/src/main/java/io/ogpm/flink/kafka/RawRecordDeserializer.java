package io.ogpm.flink.kafka;

import io.ogpm.flink.RawRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Wraps each Kafka message with its coordinates. Cannot fail: it does not parse. */
@PublicEvolving
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {
  private static final long serialVersionUID = 1L;

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
    out.collect(
        new RawRecord(
            record.value(),
            record.topic(),
            record.partition(),
            record.offset(),
            record.timestamp(),
            record.timestampType()));
  }

  @Override
  public TypeInformation<RawRecord> getProducedType() {
    return TypeInformation.of(RawRecord.class);
  }
}
