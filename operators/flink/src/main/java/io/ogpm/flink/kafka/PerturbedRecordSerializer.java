package io.ogpm.flink.kafka;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.flink.PerturbedRecord;
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
 *
 * <p>A record read from Kafka goes to the perturbed partition of its raw partition's number (modulo
 * the perturbed topic's partitions), not to its key's: each perturbed partition then holds one raw
 * partition's records in their order (several raw partitions' in theirs, when the perturbed topic
 * has fewer). Why: after a restore the job's source subtasks catch up at their own speeds;
 * partitioned by key, every perturbed partition would take records of all of them, stepping back in
 * event time by as much as one subtask trails another, and the aggregation's windows would drop
 * those records as late. The key stays the id, for readers that use it.
 */
@PublicEvolving
public final class PerturbedRecordSerializer
    implements KafkaRecordSerializationSchema<PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  /** The header holding a record's epsilon, as a decimal string. */
  public static final String EPSILON_HEADER = "ogpm-epsilon";

  private final String topic;

  /**
   * The last epsilon and fingerprint written, and their header bytes: every record of a job has the
   * same ones, so they are converted once instead of once per record. Each sink writer has its own
   * copy of this object.
   */
  private transient double lastEpsilon = Double.NaN;

  private transient byte[] lastEpsilonBytes;
  private transient String lastFingerprint;
  private transient byte[] lastFingerprintBytes;

  public PerturbedRecordSerializer(String topic) {
    this.topic = topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      PerturbedRecord r, KafkaSinkContext context, Long timestamp) {
    RecordHeaders headers = new RecordHeaders();
    if (lastEpsilonBytes == null
        || Double.doubleToRawLongBits(r.getEpsilon()) != Double.doubleToRawLongBits(lastEpsilon)) {
      lastEpsilon = r.getEpsilon();
      lastEpsilonBytes = Double.toString(lastEpsilon).getBytes(StandardCharsets.UTF_8);
    }
    headers.add(EPSILON_HEADER, lastEpsilonBytes);
    if (r.getFingerprint() != null) {
      if (!r.getFingerprint().equals(lastFingerprint)) {
        lastFingerprint = r.getFingerprint();
        lastFingerprintBytes = lastFingerprint.getBytes(StandardCharsets.UTF_8);
      }
      headers.add(ConfigFingerprint.HEADER, lastFingerprintBytes);
    }
    return new ProducerRecord<>(
        topic,
        partition(r, context),
        r.getTimestamp() > 0 ? r.getTimestamp() : null,
        r.getKey(),
        r.getValue(),
        headers);
  }

  /**
   * The raw partition's number modulo the perturbed topic's partitions; null (the key's) for a
   * record not from Kafka.
   */
  private Integer partition(PerturbedRecord r, KafkaSinkContext context) {
    if (r.getSourceTopic() == null || r.getSourcePartition() < 0) {
      return null;
    }
    int[] partitions = context.getPartitionsForTopic(topic);
    return partitions.length == 0 ? null : partitions[r.getSourcePartition() % partitions.length];
  }
}
