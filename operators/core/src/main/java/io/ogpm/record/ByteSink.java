package io.ogpm.record;

import java.io.OutputStream;
import java.util.Arrays;

/** A growable byte buffer, reused from record to record; an OutputStream for a JSON generator. */
final class ByteSink extends OutputStream {
  private byte[] buffer = new byte[1024];
  private int size;

  void reset() {
    size = 0;
  }

  int size() {
    return size;
  }

  @Override
  public void write(int b) {
    ensure(1);
    buffer[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int offset, int length) {
    ensure(length);
    System.arraycopy(b, offset, buffer, size, length);
    size += length;
  }

  @Override
  public void write(byte[] b) {
    write(b, 0, b.length);
  }

  /** Appends bytes of another sink. */
  void write(ByteSink from, int start, int end) {
    write(from.buffer, start, end - start);
  }

  /** Appends {@code Double.toString(x)} ({@link DoubleText}). */
  void writeDouble(double x) {
    ensure(DoubleText.MAX_CHARS);
    size = DoubleText.write(x, buffer, size);
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buffer, size);
  }

  private void ensure(int more) {
    if (size + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
    }
  }
}
