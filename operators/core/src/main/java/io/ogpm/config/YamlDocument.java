package io.ogpm.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Parses YAML text into a tree, with syntax errors reported on one line with their line number.
 * Duplicate keys and a second document are errors, not silently resolved.
 */
final class YamlDocument {
  private static final YAMLMapper MAPPER =
      YAMLMapper.builder().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();

  private YamlDocument() {}

  /** The document's root node; an empty mapping for an empty document. */
  static JsonNode parse(String yaml) {
    try (JsonParser parser = MAPPER.createParser(yaml)) {
      JsonNode root = MAPPER.readTree(parser);
      if (parser.nextToken() != null) {
        throw new ConfigException(
            "config must be a single YAML document, a second one starts at"
                + " line "
                + parser.currentLocation().getLineNr());
      }
      return root == null ? MAPPER.createObjectNode() : root;
    } catch (JsonProcessingException e) {
      throw syntaxError(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading a String does not fail
    }
  }

  private static ConfigException syntaxError(JsonProcessingException e) {
    int line;
    int column;
    String problem;
    if (e.getCause() instanceof MarkedYAMLException m && m.getProblemMark() != null) {
      Mark mark = m.getProblemMark();
      line = mark.getLine() + 1;
      column = mark.getColumn() + 1;
      problem = (m.getContext() == null ? "" : m.getContext() + ": ") + m.getProblem();
    } else {
      JsonLocation at = e.getLocation();
      line = at == null ? -1 : at.getLineNr();
      column = at == null ? -1 : at.getColumnNr();
      String original = String.valueOf(e.getOriginalMessage());
      problem =
          original
              .lines()
              .findFirst()
              .orElse(original)
              .replaceFirst("^Duplicate field ", "duplicate key ");
    }
    return new ConfigException(
        "invalid YAML at line " + line + ", column " + column + ": " + problem, e);
  }
}
