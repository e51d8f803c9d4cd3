package io.ogpm.record;

import com.fasterxml.jackson.core.JsonGenerator;
import io.ogpm.annotation.Internal;
import java.io.IOException;

/**
 * Writes doubles through a Jackson generator with the text its {@code writeNumber(double)} writes
 * ({@link Double#toString}, a non-finite value quoted), without the cost of Java 17's {@code
 * Double.toString} for the 16-17 digits of a computed value: the text comes from {@link
 * DoubleText}, which writes the same characters. A window estimate holds a few hundred such
 * doubles (its histograms and band), and {@code Double.toString} was a fifth of the stats sink's
 * time.
 *
 * <p>Holds a buffer: one writer per thread (or per JSON document).
 */
@Internal
public final class JsonDoubleWriter {
  private final byte[] bytes = new byte[DoubleText.MAX_CHARS];
  private final char[] chars = new char[DoubleText.MAX_CHARS];

  /** Writes x as {@code g.writeNumber(x)} would. */
  public void write(JsonGenerator g, double x) throws IOException {
    if (!Double.isFinite(x)) {
      g.writeNumber(x);
      return;
    }
    int end = DoubleText.write(x, bytes, 0);
    for (int i = 0; i < end; i++) {
      chars[i] = (char) bytes[i];
    }
    g.writeNumber(chars, 0, end);
  }
}
