package io.ogpm.record;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.OutOfRange;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.KeyedPrf;
import io.ogpm.mechanism.random.RandomBits;
import io.ogpm.mechanism.random.RandomnessMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A tree-based record perturber (Jackson's {@code readTree}, an output tree, {@code
 * writeValueAsBytes}), the reference for {@link RecordPerturber}: {@code StreamingEquivalenceTest}
 * checks that {@link RecordPerturber} gives byte-identical outcomes, and the record-path benchmark
 * measures both side by side. Not used by the library.
 *
 * <p>Deny by default: the output holds the configured fields, perturbed, at their own paths, and
 * the passthrough fields, copied; nothing else of the input. Every input ends as exactly one {@link
 * Outcome}: perturbed, or rejected with a {@link DeadLetter} whose message names fields and
 * configuration, never values (parser messages, which can quote the input, are not used).
 *
 * <p>Parsing is strict: duplicate keys, trailing data, NaN and Infinity literals, invalid UTF-8 and
 * nesting deeper than {@value #MAX_NESTING} are refused (too deep); records over the size limit are
 * rejected before parsing.
 *
 * <p>Not thread-safe (it owns a random stream): one per Flink subtask.
 */
public final class LegacyRecordPerturber {
  /** Deepest nesting accepted. */
  public static final int MAX_NESTING = 64;

  /** Default largest record, in bytes. */
  public static final int DEFAULT_MAX_BYTES = 1 << 20;

  private final PrivacyConfig config;
  private final ObjectMapper json;
  private final List<FieldConfig> fields;
  private final Mechanism[] mechanisms;
  private final KeyedPrf.RecordBits[] keyed;
  private final AesCtrSource stream;
  private final double epsilon;
  private final int maxBytes;
  private final List<String> idPath;
  private final boolean idPassedThrough;
  private final List<String> userPath;

  /** A perturber for a configuration, with the given randomness and the default size limit. */
  public LegacyRecordPerturber(PrivacyConfig config, RandomnessMode randomness) {
    this(config, randomness, DEFAULT_MAX_BYTES);
  }

  public LegacyRecordPerturber(PrivacyConfig config, RandomnessMode randomness, int maxBytes) {
    this.config = config;
    this.maxBytes = maxBytes;
    this.json =
        JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    json.getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING)
                .maxNumberLength(400)
                .maxStringLength(maxBytes)
                .build());
    this.fields = config.fields();
    this.mechanisms = new Mechanism[fields.size()];
    this.keyed = randomness.isKeyed() ? new KeyedPrf.RecordBits[fields.size()] : null;
    KeyedPrf prf = randomness.isKeyed() ? randomness.prf() : null;
    double total = 0;
    for (int i = 0; i < fields.size(); i++) {
      mechanisms[i] = MechanismCatalog.of(fields.get(i).spec());
      if (prf != null) {
        // The mechanism spec is bound too: a changed configuration never reuses old bits.
        keyed[i] = prf.forField(fields.get(i).name(), fields.get(i).spec().toString()).newBits();
      }
      total += fields.get(i).epsilon();
    }
    this.epsilon = total;
    this.stream = randomness.isKeyed() ? null : randomness.stream();
    if (randomness.isKeyed() && config.idField().isEmpty()) {
      throw new IllegalArgumentException("keyed randomness needs an id-field in the configuration");
    }
    this.idPath = config.idField().map(LegacyRecordPerturber::split).orElse(null);
    this.idPassedThrough = config.idField().map(config.passthrough()::contains).orElse(false);
    this.userPath = config.userField().map(LegacyRecordPerturber::split).orElse(null);
  }

  /** The privacy cost of every perturbed record. */
  public double epsilonPerRecord() {
    return epsilon;
  }

  /** Perturbs one record. Never throws on bad input. */
  public Outcome perturb(byte[] input, Source source) {
    if (input == null) {
      return reject(ReasonCode.MALFORMED_JSON, null, "the record is empty", source);
    }
    if (input.length > maxBytes) {
      return reject(
          ReasonCode.TOO_LARGE,
          null,
          "the record has " + input.length + " bytes, more than " + maxBytes,
          source);
    }
    if (!looksLikeUtf8(input)) {
      return reject(ReasonCode.MALFORMED_JSON, null, "not valid JSON (not UTF-8)", source);
    }
    JsonNode root;
    try {
      root = json.readTree(input);
    } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
      // Jackson's nesting limit: the too-deep reason, as RecordPerturber gives it.
      if (e.getOriginalMessage() != null
          && e.getOriginalMessage().startsWith("Document nesting depth")) {
        return reject(
            ReasonCode.TOO_DEEP,
            null,
            "the record nests deeper than " + MAX_NESTING + " levels" + where(e.getLocation()),
            source);
      }
      return reject(
          ReasonCode.MALFORMED_JSON, null, "not valid JSON" + where(e.getLocation()), source);
    } catch (JsonProcessingException e) {
      return reject(
          ReasonCode.MALFORMED_JSON, null, "not valid JSON" + where(e.getLocation()), source);
    } catch (IOException | RuntimeException e) {
      return reject(ReasonCode.MALFORMED_JSON, null, "not valid JSON (unreadable input)", source);
    }
    if (root == null || root.isMissingNode()) {
      return reject(ReasonCode.MALFORMED_JSON, null, "the record is empty", source);
    }
    if (!root.isObject()) {
      return reject(
          ReasonCode.NOT_AN_OBJECT,
          null,
          "the record is a JSON " + root.getNodeType().name().toLowerCase() + ", not an object",
          source);
    }
    Identifier id = null;
    if (idPath != null) {
      id = identifier(JsonFields.at(root, idPath));
      if (id == null) {
        return reject(
            ReasonCode.MISSING_FIELD,
            config.idField().get(),
            "the id field is missing, null or not a string or integer",
            source);
      }
    }
    Identifier user = Identifier.NONE;
    if (userPath != null) {
      user = identifier(JsonFields.at(root, userPath));
      if (user == null) {
        return reject(
            ReasonCode.MISSING_FIELD,
            config.userField().get(),
            "the user field is missing, null or not a string or integer",
            source);
      }
    }
    double[] values = new double[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      FieldConfig f = fields.get(i);
      JsonNode node = JsonFields.at(root, f.path());
      if (node == null || node.isNull()) {
        return reject(ReasonCode.MISSING_FIELD, f.name(), "the field is missing or null", source);
      }
      if (!node.isNumber()) {
        return reject(
            ReasonCode.NOT_A_NUMBER,
            f.name(),
            "the field is a JSON " + node.getNodeType().name().toLowerCase() + ", not a number",
            source);
      }
      double x = node.asDouble();
      if (!Double.isFinite(x)) {
        return reject(
            ReasonCode.NOT_A_NUMBER, f.name(), "the field is not a finite number", source);
      }
      Domain d = f.domain();
      if (!d.contains(x)) {
        if (f.outOfRange() == OutOfRange.REJECT) {
          return reject(
              ReasonCode.OUT_OF_RANGE,
              f.name(),
              "the field is outside [" + d.lo() + ", " + d.hi() + "]",
              source);
        }
        x = d.nearestInput(x);
      }
      // -0.0 becomes +0.0: the same input to the mechanism, so the same input to the keyed PRF.
      values[i] = x + 0.0;
    }
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < fields.size(); i++) {
      // Keyed bits depend on the field, id, user and the exact value perturbed: a replay of the
      // same record gets the same output, any other record independent noise.
      RandomBits bits = keyed != null ? keyed[i].load(id, user, values[i]) : stream;
      put(
          out,
          fields.get(i).path(),
          JsonNodeFactory.instance.numberNode(mechanisms[i].perturb(values[i], bits)));
    }
    for (String name : config.passthrough()) {
      List<String> path = split(name);
      JsonNode node = JsonFields.at(root, path);
      if (node != null) {
        put(out, path, node.deepCopy());
      }
    }
    byte[] key = idPassedThrough ? id.text().getBytes(StandardCharsets.UTF_8) : null;
    try {
      return new Outcome.Perturbed(
          key, json.writeValueAsBytes(out), epsilon, user.isNone() ? null : user.text());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise an output record", e);
    }
  }

  /**
   * False for the byte patterns by which the JSON reader would detect UTF-16 or UTF-32 (a NUL in
   * the first four bytes, or a UTF-16/32 byte-order mark): records are UTF-8 (RFC 8259), and a
   * reader that guessed another encoding would accept input this class promises to refuse. A NUL or
   * a 0xFE/0xFF byte never starts a UTF-8 JSON text.
   */
  static boolean looksLikeUtf8(byte[] input) {
    if (input.length > 0 && (input[0] == (byte) 0xFE || input[0] == (byte) 0xFF)) {
      return false;
    }
    for (int i = 0; i < Math.min(4, input.length); i++) {
      if (input[i] == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * A JSON string or integer as a typed identifier (the string "5" and the integer 5 differ; the
   * integers -0 and 0 are one value); null for anything else, including numbers with a fraction or
   * an exponent such as 5.0.
   */
  private static Identifier identifier(JsonNode node) {
    if (node == null) {
      return null;
    }
    if (node.isTextual()) {
      return Identifier.string(node.textValue());
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong()
          ? Identifier.integer(node.longValue())
          : Identifier.integer(node.bigIntegerValue());
    }
    return null;
  }

  private static void put(ObjectNode root, List<String> path, JsonNode value) {
    ObjectNode node = root;
    for (int i = 0; i < path.size() - 1; i++) {
      JsonNode child = node.get(path.get(i));
      node = child instanceof ObjectNode o ? o : node.putObject(path.get(i));
    }
    node.set(path.get(path.size() - 1), value);
  }

  static List<String> split(String dotted) {
    return List.of(dotted.split("\\.", -1));
  }

  private static String where(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }

  private static Outcome reject(ReasonCode reason, String field, String message, Source source) {
    return new Outcome.Rejected(new DeadLetter(reason, field, message, source));
  }
}
