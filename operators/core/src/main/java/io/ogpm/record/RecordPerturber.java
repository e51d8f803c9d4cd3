package io.ogpm.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.ogpm.annotation.Internal;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.RandomnessMode;

/**
 * Perturbs one JSON record: the same code path for the Flink operator and the {@code perturb}
 * command.
 *
 * <p>Deny by default: the output holds the configured fields, perturbed, at their own paths, and
 * the passthrough fields, copied; nothing else of the input. Every input ends as exactly one {@link
 * Outcome}: perturbed, or rejected with a {@link DeadLetter} whose message names fields and
 * configuration, never values (parser messages, which can quote the input, are not used).
 *
 * <p>Parsing is strict: duplicate keys, trailing data, NaN and Infinity literals, invalid UTF-8, a
 * text the reader would take for UTF-16 or UTF-32, and nesting deeper than {@value #MAX_NESTING}
 * are malformed JSON; records over the size limit are rejected before parsing.
 *
 * <p>Compiled once, read once: the configuration is compiled into a {@link PerturbationPlan} (per
 * field: mechanism, domain, randomness) and a {@link JsonShape} (where the configured names sit);
 * each record is read in one streaming pass ({@link JsonRecordReader}) and its output written
 * without an intermediate tree ({@link JsonRecordWriter}); both through the configuration's {@link
 * JsonRecordCodec}. Outcomes are byte for byte those of a tree-based reference perturber (Jackson's
 * {@code readTree}, an output tree, {@code writeValueAsBytes}), which {@code
 * StreamingEquivalenceTest} checks.
 *
 * <p>Not thread-safe (it owns a random stream and reusable buffers): one per Flink subtask.
 */
@Internal
public final class RecordPerturber {
  /** Deepest nesting accepted. */
  public static final int MAX_NESTING = 64;

  /** Default largest record, in bytes. */
  public static final int DEFAULT_MAX_BYTES = 1 << 20;

  /** Longest number accepted, in characters. */
  static final int MAX_NUMBER_LENGTH = 400;

  private final PerturbationPlan plan;
  private final RecordValues values;
  private final JsonRecordCodec codec;

  /** A perturber for a configuration, with the given randomness and the default size limit. */
  public RecordPerturber(PrivacyConfig config, RandomnessMode randomness) {
    this(config, randomness, DEFAULT_MAX_BYTES);
  }

  public RecordPerturber(PrivacyConfig config, RandomnessMode randomness, int maxBytes) {
    this.plan = PerturbationPlan.compile(config, randomness);
    this.values = plan.newValues();
    this.codec = new JsonRecordCodec(config, maxBytes);
  }

  /**
   * The strict reader's settings: duplicate keys refused at any depth, no NaN or Infinity literals,
   * nesting and number length bounded, strings no longer than a record. Decimals are read with
   * Jackson's fast parser, which rounds correctly as {@link Double#parseDouble} does (same double
   * for every text; {@code StreamingEquivalenceTest} checks it on hard cases). Buffers come from a
   * pool of this factory's own ({@link OwnBufferPool}): one factory per perturber, used by one
   * thread.
   */
  static JsonFactory factory(int maxBytes) {
    return new JsonFactoryBuilder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
        .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .streamReadConstraints(
            StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING)
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .maxStringLength(maxBytes)
                .build())
        // Passthrough values are captured back to back: no separator between them.
        .rootValueSeparator((String) null)
        .recyclerPool(new OwnBufferPool())
        .build();
  }

  /** The most a perturbed record spends ({@link Outcome.Perturbed#epsilon()}: what each spends). */
  public double epsilonPerRecord() {
    return plan.epsilonPerRecord();
  }

  /**
   * How many records took the strict read after the scanner gave up (tests: valid sensor records
   * never should).
   */
  long strictReads() {
    return codec.reader().strictReads();
  }

  /** How many records the plain scanner read (tests: records in plain JSON always should be). */
  long plainReads() {
    return codec.reader().plainReads();
  }

  /** Perturbs one record. Never throws on bad input. */
  public Outcome perturb(byte[] input, Source source) {
    DeadLetter refused = codec.read(input, values, source);
    if (refused == null) {
      refused = plan.perturb(values, source);
    }
    if (refused != null) {
      return new Outcome.Rejected(refused);
    }
    Identifier user = values.user();
    return new Outcome.Perturbed(
        codec.key(values),
        codec.write(values),
        values.epsilon(),
        user.isNone() ? null : user.text());
  }

  /** How many of the plain reads were replays of an earlier record's structure. */
  long replays() {
    return codec.reader().replays();
  }

  /** See {@link JsonRecordReader#looksLikeUtf8}. */
  static boolean looksLikeUtf8(byte[] input) {
    return JsonRecordReader.looksLikeUtf8(input);
  }
}
