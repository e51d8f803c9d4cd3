package io.ogpm.record;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.annotation.Internal;

/**
 * A rejected input: a reason code, the field at fault (or null), a message and where the input came
 * from. Never the input's values: the message is built from field names and configuration only, so
 * a dead-letter topic can be read by people who may not see raw readings.
 */
@Internal
public record DeadLetter(ReasonCode reason, String field, String message, Source source) {
  /** The dead letter as a JSON object. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("reason", reason.code());
    if (field != null) {
      o.put("field", field);
    }
    o.put("message", message);
    ObjectNode from = o.putObject("source");
    if (source.topic() != null) {
      from.put("topic", source.topic());
      from.put("partition", source.partition());
      from.put("offset", source.offset());
    }
    if (source.line() >= 0) {
      from.put("line", source.line());
    }
    return o;
  }
}
