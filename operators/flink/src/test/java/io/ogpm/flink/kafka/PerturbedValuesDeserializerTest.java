package io.ogpm.flink.kafka;

import static io.ogpm.flink.kafka.KafkaRecordFormatsTest.collect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The aggregation's one parse of a perturbed Kafka record: each configured field's value, the group
 * (a passthrough field) and the event time (a passthrough field in epoch ms or ISO-8601, else the
 * Kafka timestamp). Whatever a producer wrote, nothing throws: values that cannot be perturbed
 * values are skipped and counted ({@code valuesSkipped}), records that are no JSON object count
 * once, and records of another configuration (header {@code ogpm-config}) are skipped and counted
 * by reason.
 */
public class PerturbedValuesDeserializerTest {
  public static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [ts, activity, meta]
      fields:
        - {name: x, min: 0, max: 1, epsilon: 1}
        - {name: att.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2}
      """);
  public static final String FINGERPRINT = ConfigFingerprint.of(CONFIG).value();
  static final Mechanism X = MechanismCatalog.of(CONFIG.field("x").orElseThrow().spec());

  /** The Kafka timestamp of every message here. */
  static final long KAFKA_TIME = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  /** What a deserializer gave and counted. */
  public record Read(List<PerturbedValues> values, long skipped, long mismatched, long missing) {}

  static Read read(String groupField, String timeField, String fingerprint, byte[]... records) {
    return readWith(
        new PerturbedValuesDeserializer(CONFIG, groupField, timeField), fingerprint, records);
  }

  public static Read readWith(
      PerturbedValuesDeserializer d, String fingerprint, byte[]... records) {
    CapturedMetrics.Group metrics = new CapturedMetrics.Group();
    d.open(
        new DeserializationSchema.InitializationContext() {
          @Override
          public MetricGroup getMetricGroup() {
            return metrics;
          }

          @Override
          public UserCodeClassLoader getUserCodeClassLoader() {
            return null;
          }
        });
    List<PerturbedValues> out = new ArrayList<>();
    for (byte[] r : records) {
      out.addAll(collect(c -> d.deserialize(message(fingerprint, r), c)));
    }
    return new Read(
        out,
        count(metrics, null, "valuesSkipped"),
        count(metrics, "reason=config-mismatch", "recordsSkipped"),
        count(metrics, "reason=config-missing", "recordsSkipped"));
  }

  static long count(CapturedMetrics.Group metrics, String child, String name) {
    CapturedMetrics.Group g = child == null ? metrics : metrics.children.get(child);
    return g == null || g.get(name) == null ? 0 : ((Counter) g.get(name)).getCount();
  }

  static ConsumerRecord<byte[], byte[]> message(String fingerprint, byte[] value) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("ogpm-epsilon", "3.0".getBytes(StandardCharsets.UTF_8));
    if (fingerprint != null) {
      headers.add(ConfigFingerprint.HEADER, fingerprint.getBytes(StandardCharsets.UTF_8));
    }
    return new ConsumerRecord<>(
        "ogpm.perturbed",
        0,
        0,
        KAFKA_TIME,
        TimestampType.CREATE_TIME,
        0,
        value == null ? 0 : value.length,
        null,
        value,
        headers,
        Optional.empty());
  }

  static Read json(String groupField, String timeField, String... json) {
    byte[][] records = new byte[json.length][];
    for (int i = 0; i < json.length; i++) {
      records[i] = json[i].getBytes(StandardCharsets.UTF_8);
    }
    return read(groupField, timeField, FINGERPRINT, records);
  }

  static long time(String timeField, String json) {
    Read r = json(null, timeField, json);
    assertThat(r.values()).hasSize(1);
    return r.values().get(0).getEventTime();
  }

  @Test
  void eachConfiguredFieldsValueTheGroupAndTheEventTimeFromOneParse() {
    Read r =
        json(
            "activity",
            "ts",
            "{\"x\":0.25,\"att\":{\"roll\":-1.5,\"pitch\":9},\"activity\":\"walking\",\"ts\":5,\"other\":[0.5,{\"x\":2}]}",
            "{\"activity\":\"sitting\",\"att\":{\"roll\":3},\"x\":0.75}");
    assertThat(r.values())
        .extracting(
            v -> v.getValues()[0],
            v -> v.getValues()[1],
            PerturbedValues::getGroup,
            PerturbedValues::getEventTime)
        .containsExactly(tuple(0.25, -1.5, "walking", 5L), tuple(0.75, 3.0, "sitting", KAFKA_TIME));
    assertThat(r.skipped()).isZero();
  }

  @Test
  void withoutATimeFieldTheKafkaTimestampIsTheEventTime() {
    assertThat(time(null, "{\"x\":0.5,\"ts\":5}")).isEqualTo(KAFKA_TIME);
  }

  @Test
  void epochMillisecondsAndIso8601InstantsAreRead() {
    assertThat(time("ts", "{\"x\":0.5,\"ts\":1700000000123}")).isEqualTo(1_700_000_000_123L);
    assertThat(time("ts", "{\"x\":0.5,\"ts\":-5}")).isEqualTo(-5);
    assertThat(time("ts", "{\"x\":0.5,\"ts\":\"2023-11-14T22:13:20.123Z\"}"))
        .isEqualTo(1_700_000_000_123L);
    assertThat(time("ts", "{\"x\":0.5,\"ts\":\"2023-11-14T23:13:20.123+01:00\"}"))
        .isEqualTo(1_700_000_000_123L);
    // A fractional number of milliseconds: the millisecond it falls in (toward zero).
    assertThat(time("ts", "{\"x\":0.5,\"ts\":1700000000123.9}")).isEqualTo(1_700_000_000_123L);
    assertThat(time("ts", "{\"x\":0.5,\"ts\":1.7e12}")).isEqualTo(1_700_000_000_000L);
    // The last times within +-2^62 ms.
    assertThat(time("ts", "{\"x\":0.5,\"ts\":4611686018427387903}")).isEqualTo((1L << 62) - 1);
    assertThat(time("ts", "{\"x\":0.5,\"ts\":-4611686018427387903}")).isEqualTo(1 - (1L << 62));
  }

  @Test
  void aDottedTimeFieldAddressesANestedObjectEvenInsideTheGroup() {
    assertThat(time("meta.ts", "{\"x\":0.5,\"meta\":{\"ts\":42},\"ts\":7}")).isEqualTo(42);
    assertThat(time("meta.ts", "{\"x\":0.5,\"meta\":7}")).isEqualTo(KAFKA_TIME);
    // The group is the whole object that holds the time: both from the one parse.
    Read r =
        json(
            "meta",
            "meta.ts",
            "{\"x\":0.5,\"meta\":{\"ts\":42,\"room\":\"attic\"}}",
            "{\"x\":0.5,\"meta\":3}");
    assertThat(r.values())
        .extracting(PerturbedValues::getGroup, PerturbedValues::getEventTime)
        .containsExactly(tuple("{\"ts\":42,\"room\":\"attic\"}", 42L), tuple("3", KAFKA_TIME));
  }

  /**
   * What is no time in epoch milliseconds: absent, null, another type, text that is no instant, out
   * of range.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"x\":0.5",
        "\"ts\":null",
        "\"ts\":true",
        "\"ts\":{\"ms\":5}",
        "\"ts\":[5]",
        "\"ts\":\"5\"",
        "\"ts\":\"yesterday\"",
        "\"ts\":\"\"",
        "\"ts\":\"2023-11-14 22:13:20\"",
        "\"ts\":\"+1000000000-01-01T00:00:00Z\"",
        "\"ts\":1e19",
        "\"ts\":-1e19",
        "\"ts\":1e400",
        "\"ts\":123456789012345678901234567890",
        "\"ts\":4611686018427387904",
        "\"ts\":-4611686018427387904",
        "\"ts\":-9223372036854775808",
        "\"ts\":\"+146140482-04-25T00:00:00Z\""
      })
  void anAbsentOrUnreadableTimeFallsBackToTheKafkaTimestamp(String member) {
    String json = member.startsWith("\"x\"") ? "{" + member + "}" : "{\"x\":0.5," + member + "}";
    assertThat(time("ts", json)).isEqualTo(KAFKA_TIME);
  }

  @Test
  void groupsAreTheTextOfTheGroupFieldAndNullWhereItIsAbsent() {
    Read r =
        json(
            "activity",
            null,
            "{\"x\":0.5,\"activity\":\"a b\"}",
            "{\"x\":0.5,\"activity\":3}",
            "{\"x\":0.5,\"activity\":true}",
            "{\"x\":0.5,\"activity\":null}",
            "{\"x\":0.5}",
            "{\"x\":0.5,\"activity\":{\"k\":[1,2]}}",
            "{\"x\":0.5,\"activity\":1e2}",
            "{\"x\":0.5,\"activity\":\"\"}");
    assertThat(r.values())
        .extracting(PerturbedValues::getGroup)
        .containsExactly("a b", "3", "true", null, null, "{\"k\":[1,2]}", "100.0", "");
    assertThat(json("meta.room", null, "{\"x\":0.5,\"meta\":{\"room\":\"attic\"}}").values())
        .extracting(PerturbedValues::getGroup)
        .containsExactly("attic");
    // Without grouping, one global group whatever the records hold.
    assertThat(json(null, null, "{\"x\":0.5,\"activity\":\"walking\"}").values())
        .extracting(PerturbedValues::getGroup)
        .containsExactly((String) null);
  }

  /**
   * The output domain is {@code [outputLo, outputHi)}, as the mechanism's: both of its ends are
   * where a value stops being possible for a perturbed one.
   */
  @Test
  void valuesOutsideTheMechanismsOutputDomainAreSkippedAndCounted() {
    double lo = X.outputLo();
    double hi = X.outputHi();
    Read r =
        json(
            null,
            null,
            x(lo),
            x(Math.nextDown(hi)),
            x(hi),
            x(Math.nextDown(lo)),
            x(-1e300),
            x(1e300),
            "{\"x\":1e400}",
            "{\"x\":123456789012345678901234567890}");
    assertThat(r.values()).extracting(v -> v.getValues()[0]).containsExactly(lo, Math.nextDown(hi));
    // Every record also lacks att.roll: one skipped value per record for it.
    assertThat(r.skipped()).isEqualTo(6 + 8);
    assertThat(r.values()).allSatisfy(v -> assertThat(v.getValues()[1]).isNaN());
  }

  /**
   * Every configured value a record lacks, or holds as something else than a number, counts once.
   */
  @Test
  void missingAndNonNumericValuesAreSkippedAndCounted() {
    Read r =
        json(
            null,
            null,
            "{\"att\":{\"roll\":1}}",
            "{\"x\":\"0.5\",\"att\":{\"roll\":null}}",
            "{\"x\":true,\"att\":[1]}",
            "{\"x\":{\"v\":0.5},\"att\":{\"roll\":{}}}",
            "{}",
            "{\"att\":3,\"x\":[0.5]}");
    assertThat(r.values()).hasSize(1);
    assertThat(r.values().get(0).getValues()[0]).isNaN();
    assertThat(r.values().get(0).getValues()[1]).isEqualTo(1.0);
    assertThat(r.skipped()).isEqualTo(11);
  }

  /**
   * With field sampling a record reports some of its fields: the others are absent by design and no
   * lack, while a reported value that is unusable still counts. Records of the same fields without
   * sampling carry another fingerprint and are refused, so one field's estimate never mixes both.
   */
  @Test
  void withFieldSamplingAbsentValuesAreNoLackAndUnsampledRecordsAreRefused() {
    PrivacyConfig sampled =
        PrivacyConfig.parse(
            """
        passthrough: [ts, activity, meta]
        sampling: {fields-per-record: 1}
        fields:
          - {name: x, min: 0, max: 1, epsilon: 1}
          - {name: att.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2}
        """);
    String fingerprint = ConfigFingerprint.of(sampled).value();
    assertThat(fingerprint).isNotEqualTo(FINGERPRINT);
    PerturbedValuesDeserializer d = new PerturbedValuesDeserializer(sampled, null, null);
    byte[][] records = {
      bytes("{\"x\":0.5}"),
      bytes("{\"att\":{\"roll\":1}}"),
      bytes("{\"x\":\"0.5\"}"),
      bytes("{\"x\":0.25,\"att\":{\"roll\":null}}"),
      bytes("{}")
    };
    Read r = readWith(d, fingerprint, records);
    assertThat(r.values()).hasSize(3);
    assertThat(r.skipped()).as("the string and the null only").isEqualTo(2);
    Read unsampled =
        readWith(new PerturbedValuesDeserializer(sampled, null, null), FINGERPRINT, records);
    assertThat(unsampled.values()).isEmpty();
    assertThat(unsampled.mismatched()).isEqualTo(records.length);
  }

  /**
   * A record that is no JSON object, not UTF-8, or ambiguous JSON (a duplicate key, trailing data,
   * a NaN literal, nesting past 64) yields nothing and counts once.
   */
  @Test
  void recordsThatAreNoJsonObjectOrAmbiguousAreSkippedAndCountedOnce() {
    String deep = "{\"d\":".repeat(70) + "1" + "}".repeat(70);
    List<byte[]> records =
        new ArrayList<>(
            List.of(
                new byte[0],
                new byte[] {(byte) 0xC3, 0x28},
                bytes("{\"x\":0.5"),
                bytes("[0.5]"),
                bytes("0.5"),
                bytes("null"),
                bytes("\"x\""),
                bytes("{\"x\":0.5,\"x\":0.75}"),
                bytes("{\"x\":0.5} {}"),
                bytes("{\"x\":NaN}"),
                bytes("{\"x\":0.5," + deep.substring(1)),
                "{\"x\":0.5}".getBytes(StandardCharsets.UTF_16LE),
                "{\"x\":0.5}".getBytes(StandardCharsets.UTF_16),
                bytes("{\"x\":0.5,\"att\":{\"roll\":0}}")));
    records.add(null);
    Read r = read(null, null, FINGERPRINT, records.toArray(new byte[0][]));
    assertThat(r.values()).hasSize(1);
    assertThat(r.skipped()).isEqualTo(14);
    // Invalid UTF-8 inside a skipped string is caught too.
    Read utf8 =
        read(
            null,
            null,
            FINGERPRINT,
            bytes("{\"x\":0.5,\"n\":\"\u00e9\"}"),
            new byte[] {
              '{',
              '"',
              'x',
              '"',
              ':',
              '0',
              ',',
              '"',
              'n',
              '"',
              ':',
              '"',
              (byte) 0xC3,
              0x28,
              '"',
              '}'
            });
    assertThat(utf8.values()).hasSize(1);
    assertThat(utf8.skipped()).isEqualTo(1 + 1);
  }

  @Test
  void recordsOfAnotherConfigurationOrWithoutOneAreSkippedAndCountedByReason() {
    byte[] good = bytes("{\"x\":0.5,\"att\":{\"roll\":0}}");
    Read other = read(null, null, "v1:0123456789abcdef", good, good);
    assertThat(other.values()).isEmpty();
    assertThat(other.mismatched()).isEqualTo(2);
    assertThat(other.missing()).isZero();
    Read none = read(null, null, null, good);
    assertThat(none.values()).isEmpty();
    assertThat(none.missing()).isEqualTo(1);
    assertThat(none.mismatched()).isZero();
    assertThat(read(null, null, "garbage", good).mismatched()).isEqualTo(1);
    Read ok = read(null, null, FINGERPRINT, good);
    assertThat(ok.values()).hasSize(1);
    assertThat(ok.mismatched() + ok.missing() + ok.skipped()).isZero();
    // The check comes before the parse: a malformed record of another configuration is not parsed.
    assertThat(read(null, null, null, bytes("{")).skipped()).isZero();
  }

  @Test
  void onlyPassthroughFieldsCanGroupOrTime() {
    assertThatThrownBy(() -> new PerturbedValuesDeserializer(CONFIG, "user", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "groupBy: 'user' is not a passthrough field of the configuration (nor nested in one), and perturbed"
                + " records carry no other; passthrough: [ts, activity, meta]");
    assertThatThrownBy(() -> new PerturbedValuesDeserializer(CONFIG, null, "x"))
        .hasMessageStartingWith("timeField: 'x' is not a passthrough field");
    assertThatThrownBy(() -> new PerturbedValuesDeserializer(CONFIG, null, "me"))
        .hasMessageStartingWith("timeField: 'me' is not a passthrough field");
    assertThatThrownBy(() -> new PerturbedValuesDeserializer(CONFIG, "meta..x", null))
        .hasMessage("groupBy: 'meta..x' is not a dotted name with non-empty parts");
    assertThatThrownBy(() -> new PerturbedValuesDeserializer(null, null, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("config: a privacy configuration is required");
    assertThat(new PerturbedValuesDeserializer(CONFIG, "meta.room.name", "meta.ts")).isNotNull();
  }

  /**
   * The perturbation's hostile-input generator, as perturbed records of its configuration: nothing
   * throws, and every record is either read or counted.
   */
  @Test
  void hostileInputNeverThrowsAndEveryRecordIsReadOrCounted() {
    PrivacyConfig config = PrivacyConfig.parse(io.ogpm.record.HostileInputs.CONFIG_REJECT);
    String fingerprint = ConfigFingerprint.of(config).value();
    PerturbedValuesDeserializer d = new PerturbedValuesDeserializer(config, null, null);
    int fields = config.fields().size();
    List<byte[]> inputs = io.ogpm.record.HostileInputs.generate(12, 3_000);
    inputs.add(null);
    CapturedMetrics.Group metrics = new CapturedMetrics.Group();
    d.open(
        new DeserializationSchema.InitializationContext() {
          @Override
          public MetricGroup getMetricGroup() {
            return metrics;
          }

          @Override
          public UserCodeClassLoader getUserCodeClassLoader() {
            return null;
          }
        });
    int read = 0;
    long skippedBefore = 0;
    for (byte[] in : inputs) {
      int got =
          KafkaRecordFormatsTest.<PerturbedValues>collect(
                  c -> d.deserialize(message(fingerprint, in), c))
              .size();
      long skipped = count(metrics, null, "valuesSkipped") - skippedBefore;
      skippedBefore += skipped;
      assertThat(got + skipped).as("read, or counted").isPositive();
      assertThat(skipped).isLessThanOrEqualTo(fields);
      read += got;
    }
    assertThat(read).isPositive().isLessThan(inputs.size());
  }

  @Test
  void theProducedTypeIsAFlinkPojo() {
    assertThat(new PerturbedValuesDeserializer(CONFIG, null, "ts").getProducedType())
        .isInstanceOf(PojoTypeInfo.class)
        .isEqualTo(TypeInformation.of(PerturbedValues.class));
  }

  static String x(double value) {
    return "{\"x\":" + value + "}";
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Values are read as {@link Double#parseDouble} reads their text, to the last bit: shortest
   * forms, long decimal expansions (beyond the 17 digits that identify a double, where rounding is
   * decided by digits far out), exponent forms and halfway cases.
   */
  @Test
  void valuesReadAsDoubleParseDoubleReadsThem() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(11);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      double v = random.nextDouble();
      java.math.BigDecimal exact = new java.math.BigDecimal(v);
      texts.add(Double.toString(v));
      texts.add(exact.round(new java.math.MathContext(17 + random.nextInt(9))).toPlainString());
      // Halfway between v and its successor: rounds to even.
      texts.add(
          exact
              .add(new java.math.BigDecimal(Math.nextUp(v)))
              .divide(java.math.BigDecimal.valueOf(2))
              .toPlainString());
      texts.add(String.format(java.util.Locale.ROOT, "%.15e", v));
    }
    byte[][] records =
        texts.stream()
            .map(t -> ("{\"x\":" + t + ",\"ts\":1}").getBytes(StandardCharsets.UTF_8))
            .toArray(byte[][]::new);
    Read r = read(null, null, FINGERPRINT, records);
    assertThat(r.values()).hasSize(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      assertThat(Double.doubleToRawLongBits(r.values().get(i).getValues()[0]))
          .as(texts.get(i))
          .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(texts.get(i))));
    }
  }
}
