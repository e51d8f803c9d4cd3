package io.ogpm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's baseline writes what the perturbation writes, record for record, but the values:
 * the same members in the same order, the same key and user, each configured value as read. Only
 * then does a pipeline on it differ from the perturbation by the privacy alone.
 */
class UnperturbedRecordPathTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The repository's MotionSense sample (the tests run in the module's directory). */
  static final Path SAMPLE = Path.of("../../sample-data");

  private final PrivacyConfig config = PrivacyConfig.parse(BenchConfig.sixFields());

  @Test
  void everySampleRecordIsThePerturbationsOutputWithItsValuesAsRead() throws Exception {
    UnperturbedRecordPath path = new UnperturbedRecordPath(config);
    RecordPerturber perturber = new RecordPerturber(config, RandomnessMode.seeded(7));
    List<String> records =
        read("motionsense-dws1.jsonl").lines().filter(l -> !l.isBlank()).toList();
    assertThat(records).hasSizeGreaterThan(1000);
    for (int i = 0; i < records.size(); i++) {
      byte[] input = records.get(i).getBytes(StandardCharsets.UTF_8);
      Source source = Source.kafka("raw", 0, i);
      Outcome.Perturbed perturbed = (Outcome.Perturbed) perturber.perturb(input, source);
      byte[] rewritten = path.rewrite(input, source);
      JsonNode in = JSON.readTree(input);
      JsonNode out = JSON.readTree(rewritten);
      JsonNode expected = JSON.readTree(perturbed.value());
      assertThat(paths(out, "")).as("record %d", i).isEqualTo(paths(expected, ""));
      for (FieldConfig f : config.fields()) {
        String pointer = "/" + f.name().replace('.', '/');
        assertThat(out.at(pointer).doubleValue())
            .as("record %d, %s", i, f.name())
            .isEqualTo(in.at(pointer).doubleValue());
      }
      for (String p : config.passthrough()) {
        assertThat(out.get(p)).as("record %d, %s", i, p).isEqualTo(in.get(p));
      }
      assertThat(path.key()).isEqualTo(perturbed.key());
      assertThat(path.user()).isEqualTo(perturbed.user());
    }
  }

  @Test
  void aRecordThePerturbationRejectsStopsTheBaseline() {
    UnperturbedRecordPath path = new UnperturbedRecordPath(config);
    String record = read("motionsense-dws1.jsonl").lines().findFirst().orElseThrow();
    // Refused by the reader (a duplicate key), and by the plan (a string where a number belongs).
    String duplicate =
        record.replace("\"userAcceleration\":{\"x\":", "\"userAcceleration\":{\"x\":1,\"x\":");
    String string =
        record.replace("\"userAcceleration\":{\"x\":", "\"userAcceleration\":{\"x\":\"a\",\"w\":");
    assertThat(duplicate).isNotEqualTo(record);
    assertThatThrownBy(
            () ->
                path.rewrite(duplicate.getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 0, 5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a record the perturbation accepts (MALFORMED_JSON");
    assertThatThrownBy(
            () -> path.rewrite(string.getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 0, 6)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "not a record the perturbation accepts (userAcceleration.x missing or not a number");
  }

  private static String read(String file) {
    try {
      return Files.readString(SAMPLE.resolve(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every member's path, in order. */
  private static List<String> paths(JsonNode node, String prefix) {
    List<String> out = new ArrayList<>();
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      out.add(prefix + "/" + name);
      out.addAll(paths(node.get(name), prefix + "/" + name));
    }
    return out;
  }
}
