package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.ogpm.mechanism.random.AesCtrSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The writer's text is the generator's own, in arrays and objects, for every kind of double. */
class JsonDoubleWriterTest {

  private interface Write {
    void number(JsonGenerator g, double x) throws IOException;
  }

  private static String document(JsonFactory json, boolean chars, double[] values, Write write)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    java.io.StringWriter text = new java.io.StringWriter();
    try (JsonGenerator g = chars ? json.createGenerator(text) : json.createGenerator(out)) {
      g.writeStartObject();
      g.writeArrayFieldStart("values");
      for (double v : values) {
        write.number(g, v);
      }
      g.writeEndArray();
      g.writeFieldName("last");
      write.number(g, values[values.length - 1]);
      g.writeEndObject();
    }
    return chars ? text.toString() : out.toString(StandardCharsets.UTF_8);
  }

  /**
   * With Java 17's Double.toString and with Jackson's fast writer (Schubfach), as the generator is
   * configured; into bytes and into characters; in documents longer than the generators' buffers,
   * so that some numbers meet a buffer's end.
   */
  @Test
  void writesWhatTheGeneratorWrites() throws IOException {
    AesCtrSource bits = AesCtrSource.seeded(11);
    double[] values = new double[20_000];
    double[] special = {
      0.0,
      -0.0,
      1.0,
      -1.0,
      0.1,
      1e-3,
      Math.nextDown(1e-3),
      1e7,
      Math.nextDown(1e7),
      1e-300,
      Double.MIN_VALUE,
      Double.MAX_VALUE,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY
    };
    System.arraycopy(special, 0, values, 0, special.length);
    for (int i = special.length; i < values.length; i++) {
      // Shares in [0, 1] (histograms, bands), and any magnitude from 1e-12 to 1e12 of either sign.
      double u = bits.nextUniform();
      values[i] = i % 2 == 0 ? u : (bits.nextUniform() < 0.5 ? -1 : 1) * Math.pow(10, 24 * u - 12);
    }
    JsonDoubleWriter writer = new JsonDoubleWriter();
    for (JsonFactory json :
        new JsonFactory[] {
          new JsonFactory(),
          JsonFactory.builder().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build()
        }) {
      for (boolean chars : new boolean[] {false, true}) {
        assertThat(document(json, chars, values, writer::write))
            .isEqualTo(document(json, chars, values, JsonGenerator::writeNumber));
      }
    }
  }
}
