package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The reused output buffer: every way of writing grows it as needed and keeps every byte in order.
 */
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
  void doublesAnotherSinksRangeAppendAndResetStartsOver() {
    ByteSink from = new ByteSink();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      // 24 characters each (the longest), and short plain ones, across several growths
      double x = i % 2 == 0 ? -Math.nextUp(1.0) * Math.scalb(1.0, -300 - i) : 0.5 + i;
      from.writeDouble(x);
      text.append(x);
    }
    assertThat(new String(from.toByteArray(), StandardCharsets.US_ASCII))
        .isEqualTo(text.toString());
    ByteSink to = new ByteSink();
    to.write('[');
    to.write(from, 2, 1_800);
    assertThat(new String(to.toByteArray(), StandardCharsets.US_ASCII))
        .isEqualTo("[" + text.substring(2, 1_800));
    to.reset();
    assertThat(to.size()).isZero();
    to.writeDouble(1e7);
    assertThat(to.toByteArray()).isEqualTo("1.0E7".getBytes(StandardCharsets.US_ASCII));
  }
}
