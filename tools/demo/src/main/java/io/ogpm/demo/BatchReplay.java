package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.kafka.KafkaClients;
import io.ogpm.record.JsonFields;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The batch run's replay: the records written once into the raw topic, and where each landed, so
 * that the records behind the dead letters (which name their source) can be told from those the
 * perturbed topic holds.
 */
final class BatchReplay {
  private final List<String> records;
  private final List<RecordMetadata> landed;

  private BatchReplay(List<String> records, List<RecordMetadata> landed) {
    this.records = records;
    this.landed = landed;
  }

  /**
   * Writes the records keyed by user (so each user's records stay in order), stamped at their event
   * time; the raw topic replaces that stamp by the broker's append time (windows read the event
   * time from the time field). Returns once every record is acknowledged.
   */
  static BatchReplay write(String bootstrapServers, List<String> records) {
    ObjectMapper json = new ObjectMapper();
    List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(records.size());
    for (String r : records) {
      Long ts = null;
      byte[] key = null;
      try {
        JsonNode root = json.readTree(r);
        JsonNode t = JsonFields.at(root, List.of(Demo.TIME_FIELD));
        ts = t != null && t.canConvertToLong() ? t.asLong() : null;
        JsonNode user = root.get("user");
        key = user == null ? null : user.asText().getBytes(StandardCharsets.UTF_8);
      } catch (IOException e) {
        // Not JSON: replayed as it is, to show the dead-letter path.
      }
      out.add(
          new ProducerRecord<>(DemoTopics.RAW, null, ts, key, r.getBytes(StandardCharsets.UTF_8)));
    }
    return new BatchReplay(records, KafkaClients.produceRecords(bootstrapServers, out));
  }

  /**
   * The replayed records that were not dead-lettered ({@code deadSources}: the sources the dead
   * letters name): the inputs of the perturbed topic.
   */
  List<String> perturbedInputs(Set<String> deadSources) {
    List<String> out = new ArrayList<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      RecordMetadata at = landed.get(i);
      if (!deadSources.contains(DeadLetterJson.source(at.partition(), at.offset()))) {
        out.add(records.get(i));
      }
    }
    return out;
  }
}
