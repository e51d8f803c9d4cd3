package io.ogpm.record;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import io.ogpm.annotation.Internal;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes doubles through a Jackson generator with the text its {@code writeNumber(double)} writes,
 * faster: in [1e-3, 1e7) the text comes from {@link DoubleText}, with the characters that Java 17's
 * {@link Double#toString} and Jackson's fast writer ({@code
 * StreamWriteFeature.USE_FAST_DOUBLE_WRITER}, Schubfach) both write there, straight into the
 * generator's own output buffer (a raw value: Jackson's UTF-8 generator asks the text to append
 * itself, {@link SerializableString#appendUnquotedUTF8}); other values go to the generator, which
 * writes them as it is configured to. A window estimate holds a few hundred such doubles (its
 * histograms and band), so their text is much of the stats sink's work, and {@code Double.toString}
 * allocates for each ({@link DoubleText} says why).
 *
 * <p>Holds a buffer: one writer per thread (or per JSON document).
 */
@Internal
public final class JsonDoubleWriter {
  private final Digits digits = new Digits();

  /** Writes x as {@code g.writeNumber(x)} would. */
  public void write(JsonGenerator g, double x) throws IOException {
    double a = Math.abs(x);
    if (!(a >= DoubleText.PLAIN_MIN && a < DoubleText.PLAIN_MAX)) {
      g.writeNumber(x);
      return;
    }
    digits.value = x;
    g.writeRawValue(digits);
  }

  /**
   * A double's text as a raw JSON value, written by {@link DoubleText}. Its characters are ASCII
   * digits, a sign and a point, which JSON escapes as themselves: the quoted and unquoted forms are
   * the same. An append into less room than {@link DoubleText#MAX_CHARS} returns -1, as the
   * interface allows, and the generator asks for the bytes instead.
   */
  private static final class Digits implements SerializableString {
    double value;

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
      if (buffer.length - offset < DoubleText.MAX_CHARS) {
        return -1;
      }
      return DoubleText.write(value, buffer, offset) - offset;
    }

    @Override
    public byte[] asUnquotedUTF8() {
      byte[] bytes = new byte[DoubleText.MAX_CHARS];
      return Arrays.copyOf(bytes, DoubleText.write(value, bytes, 0));
    }

    @Override
    public String getValue() {
      return new String(asUnquotedUTF8(), StandardCharsets.US_ASCII);
    }

    @Override
    public int charLength() {
      return asUnquotedUTF8().length;
    }

    @Override
    public char[] asQuotedChars() {
      return getValue().toCharArray();
    }

    @Override
    public byte[] asQuotedUTF8() {
      return asUnquotedUTF8();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
      return appendUnquotedUTF8(buffer, offset);
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
      return appendUnquoted(buffer, offset);
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
      String text = getValue();
      if (buffer.length - offset < text.length()) {
        return -1;
      }
      text.getChars(0, text.length(), buffer, offset);
      return text.length();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
      return writeUnquotedUTF8(out);
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
      byte[] bytes = asUnquotedUTF8();
      out.write(bytes);
      return bytes.length;
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
      return putUnquotedUTF8(buffer);
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
      byte[] bytes = asUnquotedUTF8();
      if (buffer.remaining() < bytes.length) {
        return -1;
      }
      buffer.put(bytes);
      return bytes.length;
    }
  }
}
