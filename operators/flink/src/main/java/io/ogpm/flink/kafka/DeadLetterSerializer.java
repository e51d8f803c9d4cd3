package io.ogpm.flink.kafka;

import io.ogpm.flink.DeadLetterRecord;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Writes dead letters, with their reason code in the header {@value #REASON_HEADER}. */
@PublicEvolving
public final class DeadLetterSerializer
    implements KafkaRecordSerializationSchema<DeadLetterRecord> {
  private static final long serialVersionUID = 1L;

  public static final String REASON_HEADER = "ogpm-reason";

  private final String topic;

  public DeadLetterSerializer(String topic) {
    this.topic = topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      DeadLetterRecord r, KafkaSinkContext context, Long timestamp) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(REASON_HEADER, r.getReason().getBytes(StandardCharsets.UTF_8));
    return new ProducerRecord<>(
        topic, null, r.getTimestamp() > 0 ? r.getTimestamp() : null, null, r.getValue(), headers);
  }
}
