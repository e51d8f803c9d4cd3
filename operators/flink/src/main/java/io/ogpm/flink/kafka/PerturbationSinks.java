package io.ogpm.flink.kafka;

import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.PerturbedRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * The exactly-once Kafka sinks of a perturbation's outputs: Kafka transactions committed on
 * checkpoints (so the job must checkpoint), read by consumers with {@code
 * isolation.level=read_committed}. Each sink's transactional ids start with the job's prefix and
 * the sink's own suffix ({@code <prefix>-perturbed}, {@code <prefix>-dead-letters}); the prefix
 * must be unique per job on a Kafka cluster.
 *
 * <pre>{@code
 * result.perturbed().sinkTo(PerturbationSinks.perturbed(kafka, "ogpm.perturbed", "ogpm-perturb"));
 * result.deadLetters().sinkTo(PerturbationSinks.deadLetters(kafka, "ogpm.dead-letters", "ogpm-perturb"));
 * }</pre>
 */
@PublicEvolving
public final class PerturbationSinks {
  private PerturbationSinks() {}

  /**
   * Perturbed records to {@code topic}: key the record id when passed through, value the output
   * JSON, headers the record's privacy cost and configuration fingerprint ({@link
   * PerturbedRecordSerializer}).
   */
  public static KafkaSink<PerturbedRecord> perturbed(
      KafkaSettings kafka, String topic, String transactionalIdPrefix) {
    return TransactionalSinks.exactlyOnce(
        kafka, topic, PerturbedRecordSerializer::new, transactionalIdPrefix, "perturbed");
  }

  /**
   * Dead letters to {@code topic}, with their reason code as a header ({@link
   * DeadLetterSerializer}).
   */
  public static KafkaSink<DeadLetterRecord> deadLetters(
      KafkaSettings kafka, String topic, String transactionalIdPrefix) {
    return TransactionalSinks.exactlyOnce(
        kafka, topic, DeadLetterSerializer::new, transactionalIdPrefix, "dead-letters");
  }
}
