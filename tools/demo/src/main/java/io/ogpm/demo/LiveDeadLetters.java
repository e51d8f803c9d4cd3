package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The dead letters the live demo has read: their number per reason since the start, and the raw
 * records they stand for ({@code partition/offset}, as {@link LiveReplay} knows what it sent) over
 * a recent horizon, so the truth of a window leaves out what was never perturbed (a budget spent, a
 * value rejected) and only records lost or late make the accounting red.
 */
final class LiveDeadLetters {
  private final long horizonMs;
  private final Map<String, Long> byReason = new TreeMap<>();

  /**
   * Source {@code partition/offset} to when its dead letter was read; insertion ordered by that
   * time.
   */
  private final Map<String, Long> recentSources = new LinkedHashMap<>();

  /**
   * @param horizonMs how long a dead letter's source is kept: at least the replay's horizon (a dead
   *     letter is read after its record was sent, so once it is older than that, its record is too)
   */
  LiveDeadLetters(long horizonMs) {
    this.horizonMs = horizonMs;
  }

  /** Adds one dead letter (the JSON the perturb job writes), read at {@code nowMs}. */
  void add(JsonNode deadLetter, long nowMs) {
    byReason.merge(DeadLetterJson.reason(deadLetter), 1L, Long::sum);
    DeadLetterJson.source(deadLetter).ifPresent(source -> recentSources.put(source, nowMs));
    for (Iterator<Long> read = recentSources.values().iterator(); read.hasNext(); ) {
      if (read.next() >= nowMs - horizonMs) {
        break;
      }
      read.remove();
    }
  }

  /** Dead letters per reason code since the start. */
  Map<String, Long> byReason() {
    return new HashMap<>(byReason);
  }

  /**
   * The sources ({@code partition/offset} in the raw topic) of the dead letters read within the
   * horizon.
   */
  Set<String> recentSources() {
    return Collections.unmodifiableSet(recentSources.keySet());
  }
}
