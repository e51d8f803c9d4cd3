package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveDeadLettersTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode deadLetter(String reason, int partition, long offset) throws Exception {
    return JSON.readTree(
        "{\"reason\":\""
            + reason
            + "\",\"field\":null,\"source\":{\"topic\":\"ogpm.raw\",\"partition\":"
            + partition
            + ",\"offset\":"
            + offset
            + "}}");
  }

  @Test
  void countsByReasonAndKeepsTheSourcesOfTheHorizon() throws Exception {
    LiveDeadLetters dead = new LiveDeadLetters(60_000);
    dead.add(deadLetter("budget-exhausted", 0, 17), 1_000);
    dead.add(deadLetter("budget-exhausted", 1, 17), 2_000);
    dead.add(deadLetter("out-of-range", 1, 18), 30_000);
    assertThat(dead.byReason()).isEqualTo(Map.of("budget-exhausted", 2L, "out-of-range", 1L));
    assertThat(dead.recentSources()).containsExactlyInAnyOrder("0/17", "1/17", "1/18");

    // Read past the horizon of the first two: their records have left the replay's horizon too.
    dead.add(deadLetter("budget-exhausted", 0, 40), 61_500);
    assertThat(dead.recentSources()).containsExactlyInAnyOrder("1/17", "1/18", "0/40");
    assertThat(dead.byReason())
        .as("counts are since the start")
        .containsEntry("budget-exhausted", 3L);
  }

  @Test
  void aDeadLetterWithoutASourceIsCountedOnly() throws Exception {
    LiveDeadLetters dead = new LiveDeadLetters(60_000);
    dead.add(JSON.readTree("{\"reason\":\"not-json\"}"), 1_000);
    dead.add(JSON.readTree("{}"), 1_000);
    assertThat(dead.byReason()).isEqualTo(Map.of("not-json", 1L, "(none)", 1L));
    assertThat(dead.recentSources()).isEmpty();
  }
}
