package io.ogpm.flink;

import io.ogpm.config.ConfigFingerprint;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes perturbed records: value the output JSON, key the record id when passed through, the
 * input's timestamp, the record's privacy cost in the header {@value #EPSILON_HEADER} and the
 * fingerprint of the configuration that perturbed it in the header {@value
 * io.ogpm.config.ConfigFingerprint#HEADER}.
 */
@PublicEvolving
public final class PerturbedRecordSerializer implements KafkaRecordSerializationSchema<PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  /** The header holding a record's epsilon, as a decimal string. */
  public static final String EPSILON_HEADER = "ogpm-epsilon";

  private final String topic;

  public PerturbedRecordSerializer(String topic) {
    this.topic = topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(PerturbedRecord r, KafkaSinkContext context, Long timestamp) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(EPSILON_HEADER, Double.toString(r.getEpsilon()).getBytes(StandardCharsets.UTF_8));
    if (r.getFingerprint() != null) {
      headers.add(ConfigFingerprint.HEADER, r.getFingerprint().getBytes(StandardCharsets.UTF_8));
    }
    return new ProducerRecord<>(topic, null, r.getTimestamp() > 0 ? r.getTimestamp() : null, r.getKey(), r.getValue(), headers);
  }
}
