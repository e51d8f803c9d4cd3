package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The reused output buffer: every way of writing grows it as needed and keeps every byte in order. */
class ByteSinkTest {
  @Test
  void bytesOneAtATimePastTheInitialCapacity() {
    ByteSink sink = new ByteSink();
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (int i = 0; i < 5_000; i++) {
      sink.write(i);
      expected.write(i);
    }
    assertThat(sink.size()).isEqualTo(5_000);
    assertThat(sink.toByteArray()).isEqualTo(expected.toByteArray());
  }

  @Test
  void oneWriteLargerThanTwiceTheBuffer() {
    ByteSink sink = new ByteSink();
    sink.write('{');
    byte[] big = new byte[5_000];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) (i * 31);
    }
    sink.write(big);
    sink.write(big, 10, 20);
    byte[] out = sink.toByteArray();
    assertThat(out).hasSize(1 + 5_000 + 20);
    assertThat(out[0]).isEqualTo((byte) '{');
    for (int i = 0; i < big.length; i++) {
      assertThat(out[1 + i]).isEqualTo(big[i]);
    }
    for (int i = 0; i < 20; i++) {
      assertThat(out[1 + big.length + i]).isEqualTo(big[10 + i]);
    }
  }

  @Test
  void asciiTextAndAnotherSinksRangeAppendAndResetStartsOver() {
    ByteSink from = new ByteSink();
    String text = "0.123456789012345678".repeat(100);
    from.writeAscii(text);
    assertThat(new String(from.toByteArray(), StandardCharsets.US_ASCII)).isEqualTo(text);
    ByteSink to = new ByteSink();
    to.write('[');
    to.write(from, 2, 1_800);
    assertThat(new String(to.toByteArray(), StandardCharsets.US_ASCII)).isEqualTo("[" + text.substring(2, 1_800));
    to.reset();
    assertThat(to.size()).isZero();
    to.writeAscii("1e7");
    assertThat(to.toByteArray()).isEqualTo("1e7".getBytes(StandardCharsets.US_ASCII));
  }
}
