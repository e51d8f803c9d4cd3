package io.ogpm.mechanism.random;

import io.ogpm.annotation.Internal;
import java.math.BigInteger;
import java.util.Objects;

/**
 * A record id or user as {@link KeyedPrf} absorbs it: its type (a string, an integer, or no value
 * at all) and its text. Two identifiers are the same exactly when type and value are: the string
 * {@code "5"} and the integer {@code 5} differ, and so do the string {@code ""} and "no user".
 *
 * <p>An integer's text is its canonical decimal ({@link BigInteger#toString()}: a minus sign for
 * negative values only, no leading zeros), a bijection between integers and their texts, so the
 * encoding is injective on values of any size. Integers are compared by value: the JSON tokens
 * {@code -0} and {@code 0} are the same integer, hence the same identifier (a producer that
 * re-serialises a record must still replay it, not draw new noise for it). A JSON number with a
 * fraction or an exponent ({@code 5.0}, {@code 5e0}) is not an integer and is never made one.
 * Strings are taken as their UTF-16 code units, so lone surrogates and NULs stay distinct.
 *
 * <p>Immutable.
 */
@Internal
public final class Identifier {
  /** The type tag of a string identifier (ASCII {@code S}). */
  static final int STRING = 'S';

  /** The type tag of an integer identifier (ASCII {@code I}). */
  static final int INTEGER = 'I';

  /** The type tag of "no identifier" (ASCII {@code N}): a record without a user field. */
  static final int NONE_TAG = 'N';

  /** No identifier: for example no user when the configuration has no user field. */
  public static final Identifier NONE = new Identifier(NONE_TAG, "");

  private final int tag;
  private final String text;

  private Identifier(int tag, String text) {
    this.tag = tag;
    this.text = text;
  }

  /** A string identifier, any content (empty, NULs, unpaired surrogates). */
  public static Identifier string(String value) {
    return new Identifier(STRING, Objects.requireNonNull(value, "value"));
  }

  /** An integer identifier. */
  public static Identifier integer(long value) {
    return new Identifier(INTEGER, Long.toString(value));
  }

  /** An integer identifier of any size; the same identifier as {@link #integer(long)} in range. */
  public static Identifier integer(BigInteger value) {
    return new Identifier(INTEGER, value.toString());
  }

  /**
   * The string, or the integer's canonical decimal; empty for {@link #NONE}. Not injective across
   * types ({@code "5"} and {@code 5} share it): use it as a label (a Kafka key), not as identity.
   */
  public String text() {
    return text;
  }

  /** Whether this is {@link #NONE}. */
  public boolean isNone() {
    return tag == NONE_TAG;
  }

  int tag() {
    return tag;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Identifier other && tag == other.tag && text.equals(other.text);
  }

  @Override
  public int hashCode() {
    return 31 * tag + text.hashCode();
  }

  /** The type only: identifiers can be sensitive (a user name). */
  @Override
  public String toString() {
    return tag == STRING
        ? "Identifier{string}"
        : tag == INTEGER ? "Identifier{integer}" : "Identifier{none}";
  }
}
