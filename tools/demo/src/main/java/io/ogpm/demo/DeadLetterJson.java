package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * What the demo reads of a dead letter (the JSON the perturb job writes): its reason code, and its
 * source in the raw topic as {@code partition/offset}, the form in which the replays remember where
 * each record landed.
 */
final class DeadLetterJson {
  private DeadLetterJson() {}

  static String reason(JsonNode deadLetter) {
    return deadLetter.path("reason").asText("(none)");
  }

  /** The raw record it stands for, where the dead letter names it. */
  static Optional<String> source(JsonNode deadLetter) {
    JsonNode source = deadLetter.get("source");
    return source != null && source.has("partition") && source.has("offset")
        ? Optional.of(source(source.get("partition").asInt(), source.get("offset").asLong()))
        : Optional.empty();
  }

  /** A record of the raw topic as dead letters name their source. */
  static String source(int partition, long offset) {
    return partition + "/" + offset;
  }
}
