package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Thousands of hostile inputs through the record perturber, under reject and clamp. */
class HostileInputTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Tagged slow: 10,000 hostile inputs, about a second. Surefire runs it; mutation testing leaves
   * it out, where every surviving mutant would rerun it (it kills no mutant that other tests do
   * not).
   */
  @Test
  @Tag("slow")
  void everyHostileInputEndsInExactlyOneOutcomeAndNoDeadLetterCarriesAValue() throws Exception {
    for (String yaml : new String[] {HostileInputs.CONFIG_REJECT, HostileInputs.CONFIG_CLAMP}) {
      RecordPerturber p =
          new RecordPerturber(PrivacyConfig.parse(yaml), RandomnessMode.seeded(5), 64 * 1024);
      List<byte[]> inputs = HostileInputs.generate(yaml.length(), 5_000);
      Map<ReasonCode, Integer> reasons = new EnumMap<>(ReasonCode.class);
      int perturbed = 0;
      for (int i = 0; i < inputs.size(); i++) {
        Outcome o = p.perturb(inputs.get(i), Source.line(i + 1));
        if (o instanceof Outcome.Perturbed out) {
          perturbed++;
          JsonNode v = JSON.readTree(out.value());
          String text = new String(out.value(), StandardCharsets.UTF_8);
          assertThat(text).doesNotContain(HostileInputs.MARKER);
          assertThat(v.get("a").asDouble()).isBetween(0.0, 10.0);
          assertThat(v.get("nested").get("b").asDouble()).isBetween(-Math.PI, Math.PI);
        } else {
          DeadLetter d = ((Outcome.Rejected) o).deadLetter();
          reasons.merge(d.reason(), 1, Integer::sum);
          assertThat(d.toJson().toString())
              .as("dead letter of input %s", i)
              .doesNotContain(HostileInputs.MARKER);
          assertThat(d.source().line()).isEqualTo(i + 1);
        }
      }
      assertThat(perturbed + reasons.values().stream().mapToInt(Integer::intValue).sum())
          .isEqualTo(inputs.size());
      assertThat(reasons.keySet())
          .contains(
              ReasonCode.MALFORMED_JSON,
              ReasonCode.NOT_AN_OBJECT,
              ReasonCode.MISSING_FIELD,
              ReasonCode.NOT_A_NUMBER,
              ReasonCode.TOO_LARGE);
      if (yaml.equals(HostileInputs.CONFIG_REJECT)) {
        assertThat(reasons).containsKey(ReasonCode.OUT_OF_RANGE);
      } else {
        assertThat(reasons).doesNotContainKey(ReasonCode.OUT_OF_RANGE);
      }
      assertThat(perturbed).as("some valid records get through").isPositive();
    }
  }
}
