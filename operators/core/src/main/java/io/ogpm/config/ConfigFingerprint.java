package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.MechanismSpec;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * What a perturbed record's values mean: a digest of every field's name and mechanism (type,
 * domain, epsilon, objective, optimize-at, output grid), the part of a configuration that an
 * estimator relies on. The perturbation writes it on every record (Kafka header {@value #HEADER});
 * the aggregation refuses records whose fingerprint differs from its own configuration's, which
 * would otherwise be estimated with the wrong transition matrix or domain. Passthrough fields, ids,
 * users, the budget, out-of-range handling and the exceedance thresholds do not change what an
 * output value means and are left out; the field order is not significant.
 *
 * <p>Value: {@code v1:} and the first 16 hexadecimal digits (64 bits) of the SHA-256 of a canonical
 * text (one line per field, sorted by name; doubles as exact hexadecimal). Immutable.
 */
@PublicEvolving
public final class ConfigFingerprint implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The Kafka header that carries the fingerprint of a perturbed record. */
  public static final String HEADER = "ogpm-config";

  /**
   * The field that carries the fingerprint on each JSON line {@code ogpm perturb} writes: the
   * header's name. Reserved: no configured field or passthrough may be called so.
   */
  public static final String FIELD = HEADER;

  private final String value;

  private ConfigFingerprint(String value) {
    this.value = value;
  }

  /**
   * The fingerprint of a configuration's fields, at the epsilon of a report. With field sampling
   * (fewer fields per record than it has), also how many each record reports, and which report
   * together: a record that reports some of its fields says less of each field's input mix than one
   * that reports all, so the two are never aggregated as one.
   */
  public static ConfigFingerprint of(PrivacyConfig config) {
    StringBuilder canonical = canonical(config.fields());
    config
        .sampling()
        .filter(FieldSampling::samples)
        .ifPresent(
            s -> {
              canonical
                  .append("sampling ")
                  .append(s.fieldsPerRecord())
                  .append(" of ")
                  .append(s.units())
                  .append('\n');
              List<String> units = new ArrayList<>();
              for (int u = 0; u < s.units(); u++) {
                List<String> names = new ArrayList<>();
                for (int i = 0; i < config.fields().size(); i++) {
                  if (s.unitOf(i) == u) {
                    names.add(config.fields().get(i).name());
                  }
                }
                names.sort(null);
                units.add(String.join(" ", names));
              }
              units.sort(null);
              units.forEach(unit -> canonical.append("unit ").append(unit).append('\n'));
            });
    return digest(canonical);
  }

  /** The fingerprint of some fields. */
  public static ConfigFingerprint of(List<FieldConfig> fields) {
    return digest(canonical(fields));
  }

  private static ConfigFingerprint digest(StringBuilder canonical) {
    return new ConfigFingerprint(
        "v1:" + HexFormat.of().formatHex(sha256(canonical.toString()), 0, 8));
  }

  private static StringBuilder canonical(List<FieldConfig> fields) {
    StringBuilder canonical = new StringBuilder("ogpm-config-fingerprint-v1\n");
    fields.stream()
        .sorted(Comparator.comparing(FieldConfig::name))
        .forEach(
            f -> {
              MechanismSpec s = f.spec();
              canonical
                  .append(f.name().length())
                  .append(':')
                  .append(f.name())
                  .append(' ')
                  .append(s.type().id())
                  .append(' ')
                  .append(s.domain().isCircular() ? "circular" : "classical")
                  .append(' ')
                  .append(Double.toHexString(s.domain().lo()))
                  .append(' ')
                  .append(Double.toHexString(s.domain().hi()))
                  .append(' ')
                  .append(Double.toHexString(s.epsilon()))
                  .append(' ')
                  .append(s.objective().id())
                  .append(' ')
                  .append(s.gridBits());
              // Only when set: a configuration without it has the fingerprint it would have if
              // the option did not exist.
              s.optimizeAt()
                  .ifPresent(x0 -> canonical.append(" at ").append(Double.toHexString(x0)));
              canonical.append('\n');
            });
    return canonical;
  }

  /** A fingerprint as written on a record, for comparison; null if the text is not one. */
  public static ConfigFingerprint parse(String text) {
    if (text == null || !text.matches("v1:[0-9a-f]{16}")) {
      return null;
    }
    return new ConfigFingerprint(text);
  }

  /**
   * A fingerprint as a record carried it, for a message: the text when it is one, else {@code (an
   * unreadable fingerprint)}. Never other text: a producer chooses it, and it could carry a value.
   */
  public static String shown(String text) {
    return parse(text) == null ? "(an unreadable fingerprint)" : text;
  }

  /** The text form, {@code v1:} and 16 hexadecimal digits. */
  public String value() {
    return value;
  }

  /** The text form as UTF-8 bytes (a Kafka header value). */
  public byte[] bytes() {
    return value.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ConfigFingerprint f && f.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}
