package io.ogpm.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.ogpm.jobs.cli.OgpmJobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * What the deployment tests share: the repository's files read as YAML trees, and job arguments
 * read by the jobs' own command line (picocli's parser only: no job runs, no file is opened).
 */
final class DeployFiles {
  /**
   * Options whose values differ between deployments by design: where Kafka is, and where each
   * deployment mounts the configuration and the key. Everything else must agree.
   */
  static final Set<String> PER_ENVIRONMENT =
      Set.of(
          "--bootstrap-servers",
          "--config",
          "--config-yaml",
          "--key-file",
          "--key-env",
          "--kafka-properties");

  private DeployFiles() {}

  /** The repository root: the jobs module's parent when Maven runs the tests from jobs/. */
  static Path repoRoot() {
    Path cwd = Path.of("").toAbsolutePath();
    for (Path p = cwd; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("docker/docker-compose.yml"))) {
        return p;
      }
    }
    return cwd.getParent();
  }

  /** Parses job arguments with the jobs' command line; fails the test if it refuses them. */
  static ParseResult parse(List<String> args) {
    CommandLine cli = new CommandLine(new OgpmJobs());
    ParseResult[] result = new ParseResult[1];
    assertThatCode(() -> result[0] = cli.parseArgs(args.toArray(String[]::new)))
        .as(String.join(" ", args))
        .doesNotThrowAnyException();
    assertThat(result[0].subcommand()).as(String.join(" ", args)).isNotNull();
    return result[0];
  }

  /**
   * Every option of the parsed job command with its effective value (given or default), by its
   * longest name, except {@link #PER_ENVIRONMENT} ones and help options: what two deployments of
   * the same job must agree on.
   */
  static Map<String, String> sharedOptions(ParseResult job) {
    Map<String, String> values = new TreeMap<>();
    for (OptionSpec option : job.subcommand().commandSpec().options()) {
      if (option.usageHelp()
          || option.versionHelp()
          || PER_ENVIRONMENT.contains(option.longestName())) {
        continue;
      }
      assertThat(option.group())
          .as(
              "%s is in an option group: add it to PER_ENVIRONMENT or compare it",
              option.longestName())
          .isNull();
      values.put(option.longestName(), optionText((Object) option.getValue()));
    }
    return values;
  }

  /** An option's value as text; an array (such as --quantiles) item by item, not by identity. */
  private static String optionText(Object value) {
    if (value == null || !value.getClass().isArray()) {
      return String.valueOf(value);
    }
    List<String> items = new ArrayList<>();
    for (int i = 0; i < java.lang.reflect.Array.getLength(value); i++) {
      items.add(optionText(java.lang.reflect.Array.get(value, i)));
    }
    return items.toString();
  }

  /** The value of an option as given on the command line, or null. */
  static String given(ParseResult job, String option) {
    Object value = job.subcommand().matchedOptionValue(option, null);
    return value == null ? null : value.toString();
  }

  static String pomProperty(String pom, String name) {
    Matcher m =
        Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">")
            .matcher(pom);
    assertThat(m.find()).as(name + " in pom.xml").isTrue();
    return m.group(1).trim();
  }

  static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** A node's text: a scalar's value, or the values of a list or map joined by newlines. */
  static String text(JsonNode node) {
    if (node.isValueNode()) {
      return node.asText();
    }
    List<String> parts = new ArrayList<>();
    node.forEach(child -> parts.add(text(child)));
    if (node.isObject()) {
      node.fields().forEachRemaining(e -> parts.add(e.getKey()));
    }
    return String.join("\n", parts);
  }

  /** The documents of a YAML stream ({@code ---} separated), empty ones left out. */
  static List<JsonNode> readDocuments(Path file) throws IOException {
    List<JsonNode> documents = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        new YAMLMapper().readerFor(JsonNode.class).readValues(file.toFile())) {
      while (it.hasNext()) {
        JsonNode document = it.next();
        if (document != null && !document.isNull() && !document.isMissingNode()) {
          documents.add(document);
        }
      }
    }
    return documents;
  }

  /**
   * Reads YAML into a tree, resolving anchors and aliases ({@code &name} / {@code *name}), which
   * Jackson's tree model would otherwise leave as the alias's name. Scalars become text.
   */
  static JsonNode readResolvingAliases(Path file) throws IOException {
    YAMLMapper mapper = new YAMLMapper();
    try (YAMLParser parser = (YAMLParser) mapper.getFactory().createParser(file.toFile())) {
      parser.nextToken();
      return readNode(parser, new HashMap<>());
    }
  }

  private static JsonNode readNode(YAMLParser p, Map<String, JsonNode> anchors) throws IOException {
    if (p.isCurrentAlias()) {
      JsonNode target = anchors.get(p.getText());
      if (target == null) {
        fail("undefined YAML alias *" + p.getText());
      }
      return target;
    }
    String anchor = p.getObjectId();
    JsonNodeFactory f = JsonNodeFactory.instance;
    JsonNode node;
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT) {
      ObjectNode o = f.objectNode();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        o.set(name, readNode(p, anchors));
      }
      node = o;
    } else if (t == JsonToken.START_ARRAY) {
      ArrayNode a = f.arrayNode();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        a.add(readNode(p, anchors));
      }
      node = a;
    } else if (t == JsonToken.VALUE_NULL) {
      node = f.nullNode();
    } else if (t == JsonToken.VALUE_NUMBER_INT
        || t == JsonToken.VALUE_NUMBER_FLOAT
        || t == JsonToken.VALUE_TRUE
        || t == JsonToken.VALUE_FALSE
        || t == JsonToken.VALUE_STRING) {
      // Scalars as text: compose reads most of them as strings anyway (asInt/asLong still work).
      node = f.textNode(p.getText());
    } else {
      throw new IOException("unexpected YAML token " + t + " at " + p.currentLocation());
    }
    if (anchor != null) {
      anchors.put(anchor, node);
    }
    return node;
  }
}
