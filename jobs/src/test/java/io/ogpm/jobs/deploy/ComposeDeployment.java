package io.ogpm.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * docker/docker-compose.yml and its keyed-mode override docker/docker-compose.keyed.yml, read as
 * Compose merges them where it matters here: the jobs the {@code submit} service runs, with the
 * extra arguments each file sets, the Flink properties, the topics' partitions.
 */
final class ComposeDeployment {
  static final String FILE = "docker/docker-compose.yml";
  static final String KEYED_FILE = "docker/docker-compose.keyed.yml";

  /** The submit script's variable that carries each job's extra arguments. */
  private static final Map<String, String> EXTRA_ARGS =
      Map.of("perturb-job", "PERTURB_EXTRA_ARGS", "aggregate-job", "AGGREGATE_EXTRA_ARGS");

  final JsonNode base;
  final JsonNode keyed;

  private ComposeDeployment(JsonNode base, JsonNode keyed) {
    this.base = base;
    this.keyed = keyed;
  }

  static ComposeDeployment load(Path repo) throws IOException {
    return new ComposeDeployment(
        DeployFiles.readResolvingAliases(repo.resolve(FILE)),
        DeployFiles.readResolvingAliases(repo.resolve(KEYED_FILE)));
  }

  JsonNode service(String name) {
    return base.path("services").path(name);
  }

  /**
   * The submit script with Compose's {@code $$} escapes turned into the {@code $} the shell sees.
   */
  String submitScript() {
    return DeployFiles.text(service("submit").path("command")).replace("$$", "$");
  }

  /**
   * The arguments {@code submit} passes to {@code subcommand}: the script's words up to the extra
   * arguments' variable, then the variable's words (from the keyed override if {@code keyed} and it
   * sets the variable, else from the main file).
   */
  List<String> jobArguments(String subcommand, boolean keyed) {
    String variable = EXTRA_ARGS.get(subcommand);
    assertThat(variable).as("a job of the submit service: " + subcommand).isNotNull();
    List<String> args = new ArrayList<>(scriptWords(submitScript(), subcommand, "$" + variable));
    JsonNode extra = service("submit").path("environment").path(variable);
    JsonNode keyedExtra =
        this.keyed.path("services").path("submit").path("environment").path(variable);
    if (keyed && !keyedExtra.isMissingNode()) {
      extra = keyedExtra;
    }
    assertThat(extra.isMissingNode()).as(variable + " in submit's environment").isFalse();
    args.addAll(words(extra.asText()));
    return args;
  }

  /** The {@code key: value} lines of a Flink service's FLINK_PROPERTIES. */
  Map<String, String> flinkProperties(String service) {
    Map<String, String> properties = new LinkedHashMap<>();
    String block = service(service).path("environment").path("FLINK_PROPERTIES").asText();
    for (String line : block.split("\n")) {
      if (!line.isBlank()) {
        int colon = line.indexOf(':');
        assertThat(colon).as("%s: FLINK_PROPERTIES line '%s'", service, line).isPositive();
        properties.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
      }
    }
    return properties;
  }

  /** The partitions the {@code topics} service creates {@code topic} with. */
  int partitions(String topic) {
    Matcher m =
        Pattern.compile("create\\s+" + Pattern.quote(topic) + "\\s+(\\d+)\\s")
            .matcher(DeployFiles.text(service("topics").path("command")));
    assertThat(m.find()).as("topic " + topic + " created by the topics service").isTrue();
    return Integer.parseInt(m.group(1));
  }

  /**
   * The words from {@code subcommand} up to {@code end} in a shell script (line continuations
   * joined).
   */
  static List<String> scriptWords(String script, String subcommand, String end) {
    int from = script.indexOf(" " + subcommand);
    assertThat(from).as(subcommand + " in the submit script").isNotNegative();
    int to = script.indexOf(end, from);
    assertThat(to).as(end + " after " + subcommand).isGreaterThan(from);
    String words = script.substring(from, to).replace("\\\n", " ");
    assertThat(words)
        .as(subcommand + " arguments")
        .doesNotContain("\n")
        .doesNotContain("$")
        .doesNotContain("\"")
        .doesNotContain("'");
    return words(words);
  }

  private static List<String> words(String s) {
    return Arrays.stream(s.trim().split("\\s+"))
        .filter(w -> !w.isEmpty())
        .collect(Collectors.toList());
  }
}
