package io.ogpm.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values of input records, for the check that dead letters carry none, and the tokens of a text
 * that they are looked for in.
 *
 * <p>An input that parses as JSON gives its string and number leaves (object keys are shape, not
 * values). One that does not (malformed input, which the perturbation dead-letters) is scanned
 * lexically: every string literal, number literal and bare word, so that a dead letter echoing part
 * of an unparseable record is caught too.
 */
final class RawValues {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LITERALS =
      Pattern.compile(
          "\"((?:[^\"\\\\]|\\\\.)*)\"|(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)|([\\p{L}_][\\p{L}\\p{N}_.\\-]*)");
  private static final Pattern TOKEN_SEPARATORS = Pattern.compile("[^\\p{L}\\p{N}._+\\-]+");
  private static final Pattern NUMBER = Pattern.compile("[+-]?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?");

  /** Strings (as token sequences) and numbers of the inputs. */
  final List<List<String>> strings = new ArrayList<>();

  final Set<Double> numbers = new HashSet<>();

  void add(byte[] input) {
    if (input == null || input.length == 0) {
      return;
    }
    JsonNode root = null;
    try {
      root = JSON.readTree(input);
    } catch (IOException | RuntimeException e) {
      // Not JSON: scanned lexically below.
    }
    if (root != null && !root.isMissingNode()) {
      addLeaves(root);
      return;
    }
    Matcher m = LITERALS.matcher(new String(input, StandardCharsets.UTF_8));
    while (m.find()) {
      if (m.group(1) != null) {
        addString(m.group(1));
      } else if (m.group(2) != null) {
        addNumber(m.group(2));
      } else {
        addString(m.group(3));
      }
    }
  }

  private void addLeaves(JsonNode node) {
    if (node.isContainerNode()) {
      for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
        addLeaves(it.next());
      }
    } else if (node.isTextual()) {
      addString(node.textValue());
    } else if (node.isNumber()) {
      numbers.add(node.doubleValue());
    }
  }

  private void addString(String s) {
    List<String> tokens = tokens(s);
    if (!tokens.isEmpty()) {
      strings.add(tokens);
    }
    // A number sent as a string ("7.654321") is as sensitive as the number.
    if (tokens.size() == 1 && isNumber(tokens.get(0))) {
      numbers.add(Double.parseDouble(tokens.get(0)));
    }
  }

  private void addNumber(String literal) {
    double v = Double.parseDouble(literal);
    if (Double.isFinite(v)) {
      numbers.add(v);
    }
  }

  /**
   * The words and numbers of a text: split at everything but letters, digits and {@code . _ + -}.
   */
  static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    for (String t : TOKEN_SEPARATORS.split(text)) {
      // A full stop ending a sentence is not part of the word or number before it.
      while (t.endsWith(".")) {
        t = t.substring(0, t.length() - 1);
      }
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }

  static boolean isNumber(String token) {
    return NUMBER.matcher(token).matches();
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
