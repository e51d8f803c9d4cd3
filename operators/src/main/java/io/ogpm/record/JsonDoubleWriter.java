package io.ogpm.record;

import com.fasterxml.jackson.core.JsonGenerator;
import io.ogpm.annotation.Internal;
import java.io.IOException;

/**
 * Writes doubles through a Jackson generator with the text its {@code writeNumber(double)} writes,
 * faster: in [1e-3, 1e7) the text comes from {@link DoubleText}, straight into a buffer, with the
 * characters that Java 17's {@link Double#toString} and Jackson's fast writer ({@code
 * StreamWriteFeature.USE_FAST_DOUBLE_WRITER}, Schubfach) both write there; other values go to the
 * generator, which writes them as it is configured to. A window estimate holds a few hundred such
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
    double a = Math.abs(x);
    if (!(a >= DoubleText.PLAIN_MIN && a < DoubleText.PLAIN_MAX)) {
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
