package io.ogpm.testkit;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.ogpm.config.BudgetConfig;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.kafka.PerturbedRecordSerializer;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.record.JsonFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Assertions for the privacy contract of a perturbation, checked on what a job wrote to Kafka:
 *
 * <ul>
 *   <li>{@link #assertEveryInputAccountedFor every input accounted for}: each input is perturbed or
 *       dead-lettered, once;
 *   <li>{@link #assertNoUndeclaredField no undeclared field downstream}: a perturbed record holds
 *       the configuration's perturbed and passthrough fields and nothing else (deny by default);
 *   <li>{@link #assertDeadLettersCarryNoRawValue dead letters carry no raw value};
 *   <li>{@link #assertPerturbedValuesOnGrid perturbed values on their output grid}: each lies in
 *       its field's output domain, exactly on a value of the field's output grid.
 * </ul>
 *
 * <p>Each takes the {@link PrivacyConfig} the job ran with, and the records as {@link
 * KafkaRecord}s: the inputs as {@link KafkaFixture#produce produced} (or read back from the raw
 * topic), the perturbed and dead-letter topics as {@link KafkaFixture#readCommitted read
 * committed}. A failed assertion throws an {@link AssertionError} listing every violation found
 * (the first {@value Violations#SHOWN}), each naming the rule, the record's coordinates and the
 * field, never a value: test reports are read by many.
 *
 * <pre>{@code
 * List<KafkaRecord> inputs = kafka.produceJson("raw", lines);
 * ... run the job ...
 * PrivacyAssertions.assertPrivacyContract(config, inputs,
 *     kafka.readCommitted("perturbed"), kafka.readCommitted("dead-letters"));
 * }</pre>
 */
public final class PrivacyAssertions {
  /**
   * The Kafka headers a perturbed record may carry: its privacy cost and the fingerprint of its
   * configuration. Any other header is undeclared.
   */
  public static final Set<String> PERTURBED_HEADERS =
      Set.of(PerturbedRecordSerializer.EPSILON_HEADER, ConfigFingerprint.HEADER);

  /** Perturbed records are read as strictly as the perturbation reads its input. */
  private static final ObjectMapper STRICT =
      JsonMapper.builder().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();

  private PrivacyAssertions() {}

  /** All four assertions of the contract; reports the violations of all of them at once. */
  public static void assertPrivacyContract(
      PrivacyConfig config,
      List<KafkaRecord> inputs,
      List<KafkaRecord> perturbed,
      List<KafkaRecord> deadLetters) {
    Violations v = new Violations();
    accountFor(config, inputs, perturbed, deadLetters, v);
    undeclaredFields(config, perturbed, v);
    rawValuesInDeadLetters(config, inputs, deadLetters, v);
    offTheGrid(config, perturbed, v);
    v.throwIfAny("the privacy contract");
  }

  /**
   * Every input is accounted for, once: there are as many perturbed records and dead letters
   * together as inputs; each dead letter names the coordinates ({@code source}: topic, partition,
   * offset) of a distinct input; and, when the configuration passes its {@code id-field} through,
   * the perturbed records' ids are exactly those of the inputs not dead-lettered, each as often as
   * it was sent. Without a passed-through id a perturbed record cannot be traced to its input and
   * only the numbers and the dead letters are checked.
   */
  public static void assertEveryInputAccountedFor(
      PrivacyConfig config,
      List<KafkaRecord> inputs,
      List<KafkaRecord> perturbed,
      List<KafkaRecord> deadLetters) {
    Violations v = new Violations();
    accountFor(config, inputs, perturbed, deadLetters, v);
    v.throwIfAny("every input accounted for");
  }

  /**
   * No undeclared field downstream: every perturbed record is a JSON object whose fields are the
   * configuration's perturbed fields (numbers) and passthrough fields (any value), at their dotted
   * paths, and nothing else; its key is absent or the passed-through record id; its headers are
   * among {@link #PERTURBED_HEADERS}.
   */
  public static void assertNoUndeclaredField(PrivacyConfig config, List<KafkaRecord> perturbed) {
    Violations v = new Violations();
    undeclaredFields(config, perturbed, v);
    v.throwIfAny("no undeclared field");
  }

  /**
   * Dead letters carry no raw value: no string or number of any input appears in a dead letter's
   * value (outside its {@code source} coordinates), key or headers.
   *
   * <p>How values are matched: texts are split into tokens at everything but letters, digits and
   * {@code . _ + -}; an input string leaks if its tokens appear in sequence, an input number if a
   * numeric token equals it. Not counted, because a dead letter carries them without reading any
   * value: the configuration's names and numbers (domains, epsilons, the budget), the input topics'
   * names, the words of the library's messages and reason codes (an input string made only of such
   * words cannot be told from them), and the numbers after "line", "column", "has" and "than" (a
   * parse error's position, a record's size in bytes). An input that is not JSON is scanned for
   * string literals, numbers and bare words.
   */
  public static void assertDeadLettersCarryNoRawValue(
      PrivacyConfig config, List<KafkaRecord> inputs, List<KafkaRecord> deadLetters) {
    Violations v = new Violations();
    rawValuesInDeadLetters(config, inputs, deadLetters, v);
    v.throwIfAny("dead letters carry no raw value");
  }

  /**
   * Perturbed values lie in each field's output domain and on its output grid: the value of every
   * configured field is a number {@code y} with {@code outputLo <= y < outputHi} (the mechanism's
   * output domain) that equals, to the last bit, the value of one of its grid cells ({@code
   * Mechanism#valueOfCell}). A value computed from the input and not snapped, or snapped to another
   * configuration's grid, is off the grid.
   */
  public static void assertPerturbedValuesOnGrid(
      PrivacyConfig config, List<KafkaRecord> perturbed) {
    Violations v = new Violations();
    offTheGrid(config, perturbed, v);
    v.throwIfAny("perturbed values on the grid");
  }

  // --- every input accounted for ---------------------------------------------------------------

  private static void accountFor(
      PrivacyConfig config,
      List<KafkaRecord> inputs,
      List<KafkaRecord> perturbed,
      List<KafkaRecord> deadLetters,
      Violations v) {
    if (perturbed.size() + deadLetters.size() != inputs.size()) {
      v.add(
          "accounted for",
          inputs.size()
              + " inputs but "
              + perturbed.size()
              + " perturbed + "
              + deadLetters.size()
              + " dead-lettered = "
              + (perturbed.size() + deadLetters.size()));
    }
    Map<String, KafkaRecord> inputsAt = new HashMap<>();
    for (KafkaRecord in : inputs) {
      inputsAt.put(in.coordinates(), in);
    }
    Set<String> deadLettered = new HashSet<>();
    for (KafkaRecord d : deadLetters) {
      String source = sourceOf(d);
      if (source == null) {
        v.add(
            "accounted for",
            "dead letter " + d.coordinates() + " names no source topic, partition and offset");
      } else if (!inputsAt.containsKey(source)) {
        v.add(
            "accounted for",
            "dead letter " + d.coordinates() + " names " + source + ", which is no input");
      } else if (!deadLettered.add(source)) {
        v.add("accounted for", "input " + source + " is dead-lettered more than once");
      }
    }
    String idField = config.idField().orElse(null);
    if (idField == null || !config.passthrough().contains(idField)) {
      return;
    }
    List<String> idPath = List.of(idField.split("\\."));
    Map<String, Integer> expected = new HashMap<>();
    Map<String, String> firstInputOf = new HashMap<>();
    for (KafkaRecord in : inputs) {
      if (deadLettered.contains(in.coordinates())) {
        continue;
      }
      String id = idOf(parse(in.value(), LENIENT), idPath);
      if (id == null) {
        v.add(
            "accounted for",
            "input "
                + in.coordinates()
                + " has no readable "
                + idField
                + " but is not dead-lettered");
        continue;
      }
      expected.merge(id, 1, Integer::sum);
      firstInputOf.putIfAbsent(id, in.coordinates());
    }
    for (KafkaRecord out : perturbed) {
      String id = idOf(parse(out.value(), LENIENT), idPath);
      Integer left = id == null ? null : expected.get(id);
      if (id == null) {
        v.add("accounted for", "perturbed record " + out.coordinates() + " has no " + idField);
      } else if (left == null) {
        v.add(
            "accounted for",
            "perturbed record "
                + out.coordinates()
                + " has the "
                + idField
                + " of no input left to perturb (another input's, or one perturbed twice)");
      } else if (left == 1) {
        expected.remove(id);
      } else {
        expected.put(id, left - 1);
      }
    }
    expected.forEach(
        (id, n) ->
            v.add(
                "accounted for",
                "input "
                    + firstInputOf.get(id)
                    + (n > 1 ? " and " + (n - 1) + " more with its " + idField : "")
                    + " neither perturbed nor dead-lettered"));
  }

  /** The dead letter's {@code source} as coordinates, or null. */
  private static String sourceOf(KafkaRecord deadLetter) {
    JsonNode d = parse(deadLetter.value(), LENIENT);
    JsonNode s = d == null ? null : d.get("source");
    if (s == null
        || !s.path("topic").isTextual()
        || !s.path("partition").canConvertToInt()
        || !s.path("offset").canConvertToLong()) {
      return null;
    }
    return s.get("topic").textValue()
        + "-"
        + s.get("partition").intValue()
        + "@"
        + s.get("offset").longValue();
  }

  /** A record id as the perturbation reads it: a string or an integer, type-tagged. */
  private static String idOf(JsonNode root, List<String> path) {
    JsonNode node = JsonFields.at(root, path);
    if (node == null) {
      return null;
    }
    if (node.isTextual()) {
      return "s:" + node.textValue();
    }
    return node.isIntegralNumber() ? "i:" + node.bigIntegerValue() : null;
  }

  // --- no undeclared field ----------------------------------------------------------------------

  private static void undeclaredFields(
      PrivacyConfig config, List<KafkaRecord> perturbed, Violations v) {
    Set<List<String>> fields = new HashSet<>();
    for (FieldConfig f : config.fields()) {
      fields.add(f.path());
    }
    Set<List<String>> passthrough = new HashSet<>();
    for (String p : config.passthrough()) {
      passthrough.add(List.of(p.split("\\.")));
    }
    String idField = config.idField().filter(config.passthrough()::contains).orElse(null);
    for (KafkaRecord r : perturbed) {
      JsonNode root = parse(r.value(), STRICT);
      if (root == null || !root.isObject()) {
        v.add(
            "no undeclared field", "perturbed record " + r.coordinates() + " is not a JSON object");
        continue;
      }
      walk(root, new ArrayList<>(), fields, passthrough, r, v);
      if (r.key() != null) {
        JsonNode id = idField == null ? null : JsonFields.at(root, List.of(idField.split("\\.")));
        String idText =
            id == null
                ? null
                : id.isTextual()
                    ? id.textValue()
                    : id.isIntegralNumber() ? id.bigIntegerValue().toString() : null;
        if (idText == null || !idText.equals(r.keyAsString())) {
          v.add(
              "no undeclared field",
              "perturbed record "
                  + r.coordinates()
                  + " has a key that is not its passed-through id"
                  + (idField == null ? " (none is passed through)" : ""));
        }
      }
      for (String header : r.headers().keySet()) {
        if (!PERTURBED_HEADERS.contains(header)) {
          v.add(
              "no undeclared field",
              "perturbed record "
                  + r.coordinates()
                  + " has the undeclared header '"
                  + header
                  + "'");
        }
      }
    }
  }

  private static void walk(
      JsonNode object,
      List<String> at,
      Set<List<String>> fields,
      Set<List<String>> passthrough,
      KafkaRecord r,
      Violations v) {
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      List<String> path = new ArrayList<>(at);
      path.add(e.getKey());
      String name = String.join(".", path);
      if (passthrough.contains(path)) {
        continue;
      }
      if (fields.contains(path)) {
        if (!e.getValue().isNumber()) {
          v.add(
              "no undeclared field",
              "perturbed record " + r.coordinates() + ": field '" + name + "' is not a number");
        }
      } else if (isPrefix(path, fields) || isPrefix(path, passthrough)) {
        if (e.getValue().isObject()) {
          walk(e.getValue(), path, fields, passthrough, r, v);
        } else {
          v.add(
              "no undeclared field",
              "perturbed record "
                  + r.coordinates()
                  + ": '"
                  + name
                  + "' holds a value where only configured fields may be nested");
        }
      } else {
        v.add(
            "no undeclared field",
            "perturbed record "
                + r.coordinates()
                + " has the undeclared field '"
                + name
                + "' (neither perturbed nor passthrough)");
      }
    }
  }

  private static boolean isPrefix(List<String> prefix, Set<List<String>> paths) {
    for (List<String> p : paths) {
      if (p.size() > prefix.size() && p.subList(0, prefix.size()).equals(prefix)) {
        return true;
      }
    }
    return false;
  }

  // --- dead letters carry no raw value ----------------------------------------------------------

  /**
   * Words of the library's dead-letter messages and reason codes (io.ogpm.record, io.ogpm.flink).
   */
  private static final Set<String> MESSAGE_WORDS =
      Set.of(
          "a",
          "ago",
          "ahead",
          "an",
          "and",
          "array",
          "binary",
          "boolean",
          "brokers",
          "budget",
          "by",
          "bytes",
          "check",
          "clock",
          "clocks",
          "column",
          "configure",
          "createtime",
          "empty",
          "ended",
          "field",
          "finite",
          "for",
          "has",
          "id",
          "ingestion-time",
          "input",
          "integer",
          "is",
          "its",
          "job",
          "json",
          "kafka",
          "kept",
          "line",
          "log-append",
          "log-append-time",
          "logappendtime",
          "longer",
          "managers",
          "max-lag",
          "message.timestamp.type",
          "missing",
          "more",
          "no",
          "not",
          "notimestamptype",
          "null",
          "number",
          "object",
          "of",
          "or",
          "outside",
          "per",
          "period",
          "pojo",
          "privacy",
          "producer",
          "record",
          "s",
          "set",
          "spending",
          "spent",
          "string",
          "task",
          "than",
          "the",
          "time",
          "timestamp",
          "topic",
          "unreadable",
          "user",
          "utf-8",
          "valid",
          "while",
          "with",
          "after",
          "allowance",
          "among",
          "are",
          "broker",
          "cannot",
          "chosen",
          "closed",
          "contribution",
          "contribution-bound",
          "contribution-window-closed",
          "end",
          "every",
          "have",
          "left",
          "next",
          "now",
          "paced",
          "place",
          "random",
          "records",
          "released",
          "releases",
          "sent",
          "slice",
          "slices",
          "them",
          "where",
          "window",
          "malformed-json",
          "not-an-object",
          "too-large",
          "missing-field",
          "not-a-number",
          "out-of-range",
          "budget-exhausted",
          "budget-period-closed",
          "untrusted-time");

  /** Words after which a number is a position or a size, not a value. */
  private static final Set<String> STRUCTURAL = Set.of("line", "column", "has", "than");

  private static void rawValuesInDeadLetters(
      PrivacyConfig config, List<KafkaRecord> inputs, List<KafkaRecord> deadLetters, Violations v) {
    RawValues raw = new RawValues();
    Set<String> excusedWords = new HashSet<>(MESSAGE_WORDS);
    Set<Double> excusedNumbers = new HashSet<>();
    for (KafkaRecord in : inputs) {
      raw.add(in.value());
      excusedWords.add(RawValues.lower(in.topic()));
    }
    configVocabulary(config, excusedWords, excusedNumbers);
    Map<String, List<List<String>>> suspects = suspectStrings(raw, excusedWords, excusedNumbers);
    for (KafkaRecord d : deadLetters) {
      List<String> tokens = new ArrayList<>();
      JsonNode json = parse(d.value(), LENIENT);
      if (json != null && json.isObject()) {
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          if (!e.getKey().equals("source")) {
            tokens.addAll(
                RawValues.tokens(
                    e.getValue().isTextual() ? e.getValue().textValue() : e.getValue().toString()));
          }
        }
      } else if (d.value() != null) {
        tokens.addAll(RawValues.tokens(d.valueAsString()));
      }
      if (d.key() != null) {
        tokens.addAll(RawValues.tokens(d.keyAsString()));
      }
      d.headers().values().forEach(h -> tokens.addAll(RawValues.tokens(h == null ? "" : h)));
      String leak = leak(tokens, raw.numbers, suspects, excusedNumbers);
      if (leak != null) {
        v.add(
            "dead letters carry no raw value",
            "dead letter " + d.coordinates() + " carries " + leak);
      }
    }
  }

  private static void configVocabulary(
      PrivacyConfig config, Set<String> words, Set<Double> numbers) {
    List<String> names = new ArrayList<>(config.passthrough());
    config.idField().ifPresent(names::add);
    config.userField().ifPresent(names::add);
    for (FieldConfig f : config.fields()) {
      names.add(f.name());
      numbers.addAll(List.of(f.min(), f.max(), f.epsilon()));
    }
    for (String n : names) {
      words.add(RawValues.lower(n));
      Arrays.stream(n.split("\\.")).map(RawValues::lower).forEach(words::add);
    }
    numbers.add(config.epsilonPerRecord());
    config
        .budget()
        .ifPresent(
            (BudgetConfig b) -> {
              numbers.add(b.epsilon());
              words.add(RawValues.lower(b.period().toString()));
              words.add(RawValues.lower(b.maxLag().toString()));
            });
  }

  /**
   * The input strings worth looking for, by their first token: not those made only of excused
   * words, and not single numbers (compared as numbers, where positions and sizes are told apart).
   */
  private static Map<String, List<List<String>>> suspectStrings(
      RawValues raw, Set<String> excusedWords, Set<Double> excusedNumbers) {
    Map<String, List<List<String>>> byFirst = new HashMap<>();
    for (List<String> s : raw.strings) {
      boolean excused =
          s.stream()
              .allMatch(
                  w ->
                      excusedWords.contains(RawValues.lower(w))
                          || isExcusedNumber(w, excusedNumbers));
      boolean number = s.size() == 1 && RawValues.isNumber(s.get(0));
      if (!excused && !number) {
        byFirst.computeIfAbsent(s.get(0), k -> new ArrayList<>()).add(s);
      }
    }
    return byFirst;
  }

  /** What leaks, described without the value; null if nothing. */
  private static String leak(
      List<String> tokens,
      Set<Double> rawNumbers,
      Map<String, List<List<String>>> suspects,
      Set<Double> excusedNumbers) {
    for (int i = 0; i < tokens.size(); i++) {
      String t = tokens.get(i);
      boolean structural = i > 0 && STRUCTURAL.contains(RawValues.lower(tokens.get(i - 1)));
      if (RawValues.isNumber(t) && !structural) {
        double x = Double.parseDouble(t);
        if (rawNumbers.contains(x) && !excusedNumbers.contains(x)) {
          return "a number of an input (token " + (i + 1) + " of " + tokens.size() + ")";
        }
      }
      for (List<String> s : suspects.getOrDefault(t, List.of())) {
        if (i + s.size() <= tokens.size() && tokens.subList(i, i + s.size()).equals(s)) {
          return "a string of an input (" + s.size() + " word" + (s.size() == 1 ? "" : "s") + ")";
        }
      }
    }
    return null;
  }

  private static boolean isExcusedNumber(String token, Set<Double> excused) {
    return RawValues.isNumber(token) && excused.contains(Double.parseDouble(token));
  }

  // --- perturbed values on the grid --------------------------------------------------------------

  private static void offTheGrid(PrivacyConfig config, List<KafkaRecord> perturbed, Violations v) {
    List<FieldConfig> fields = config.fields();
    Mechanism[] mechanisms = new Mechanism[fields.size()];
    for (int i = 0; i < mechanisms.length; i++) {
      mechanisms[i] = MechanismCatalog.of(fields.get(i).spec());
    }
    // With field sampling a record reports K of the units (a polar pair is one), whole; without,
    // every field.
    FieldSampling sampling = config.sampling().filter(FieldSampling::samples).orElse(null);
    for (KafkaRecord r : perturbed) {
      JsonNode root = parse(r.value(), LENIENT);
      java.util.Set<Integer> reported = new java.util.TreeSet<>();
      java.util.Set<Integer> missing = new java.util.TreeSet<>();
      for (int i = 0; i < mechanisms.length; i++) {
        String where =
            "perturbed record " + r.coordinates() + ": field '" + fields.get(i).name() + "'";
        JsonNode node = JsonFields.at(root, fields.get(i).path());
        if (node == null && sampling != null) {
          missing.add(sampling.unitOf(i));
          continue;
        }
        if (node == null || !node.isNumber()) {
          v.add("on the grid", where + " is missing or not a number");
          continue;
        }
        if (sampling != null) {
          reported.add(sampling.unitOf(i));
        }
        double y = node.doubleValue();
        Mechanism m = mechanisms[i];
        if (!(y >= m.outputLo() && y < m.outputHi())) {
          v.add(
              "on the grid",
              where
                  + " lies outside the output domain ["
                  + m.outputLo()
                  + ", "
                  + m.outputHi()
                  + ")");
        } else if (!onGrid(m, y)) {
          v.add(
              "on the grid",
              where
                  + " is not the value of any cell of its output grid ("
                  + m.spec().gridBits()
                  + " bits)");
        }
      }
      if (sampling != null) {
        String where = "perturbed record " + r.coordinates();
        java.util.Set<Integer> split = new java.util.TreeSet<>(reported);
        split.retainAll(missing);
        if (!split.isEmpty()) {
          v.add("on the grid", where + " reports part of a polar pair (units " + split + ")");
        } else if (reported.size() != sampling.fieldsPerRecord()) {
          v.add(
              "on the grid",
              where
                  + " reports "
                  + reported.size()
                  + " of its units, not the "
                  + sampling.fieldsPerRecord()
                  + " field sampling reports");
        }
      }
    }
  }

  /**
   * Whether y is the value of a grid cell: cell values are {@code lo + (k + 1/2) w} (the partial
   * end cells of an enlarged domain clamped into it), so only the cells next to {@code (y - lo) /
   * w} can hold y; their values are recomputed exactly as the mechanism computes them.
   */
  static boolean onGrid(Mechanism m, double y) {
    double k = Math.floor((y - m.domain().lo()) / m.cellWidth());
    for (long c = (long) k - 1; c <= (long) k + 1; c++) {
      if (m.valueOfCell(c) == y) {
        return true;
      }
    }
    return false;
  }

  // --- JSON --------------------------------------------------------------------------------------

  private static final ObjectMapper LENIENT = new ObjectMapper();

  private static JsonNode parse(byte[] value, ObjectMapper mapper) {
    if (value == null) {
      return null;
    }
    try {
      JsonNode n = mapper.readTree(value);
      return n == null || n.isMissingNode() ? null : n;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
