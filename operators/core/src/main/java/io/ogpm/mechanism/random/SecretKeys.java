package io.ogpm.mechanism.random;

import io.ogpm.annotation.Internal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * Loads the keyed-mode secret from a file or an environment variable, never from the job's
 * configuration (which Flink shows in its web UI and stores with the job graph). The secret is the
 * raw content less its trailing line ends ({@code \n}, {@code \r}); at least 16 bytes (e.g. {@code
 * head -c 32 /dev/urandom > key} or 32 hex digits), and not one byte value repeated (a file of
 * zeros or of one character is no secret). Messages name the file or variable, never the content.
 * No copy is left behind: a refused secret, and the content before trimming, are overwritten with
 * zeros.
 */
@Internal
public final class SecretKeys {
  private SecretKeys() {}

  /** The secret in a file. */
  public static byte[] fromFile(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the key file " + file + ": " + e.getClass().getSimpleName());
    }
    return fromContent(bytes, "key file " + file);
  }

  /** The secret in an environment variable. */
  public static byte[] fromEnvironment(String variable) {
    return fromEnvironment(variable, System::getenv);
  }

  /**
   * The secret in the variable of an environment given as a lookup (tests cannot set variables).
   */
  static byte[] fromEnvironment(String variable, UnaryOperator<String> environment) {
    String value = environment.apply(variable);
    if (value == null) {
      throw new IllegalArgumentException(
          "the environment variable " + variable + " holding the key is not set");
    }
    return fromContent(value.getBytes(StandardCharsets.UTF_8), "environment variable " + variable);
  }

  /**
   * The secret in {@code content}, trailing line ends removed, checked. Takes {@code content} over:
   * unless it is returned as it is, it is overwritten with zeros (also when the secret is refused).
   *
   * @param where how messages name the source, e.g. {@code key file /etc/ogpm/key}
   */
  static byte[] fromContent(byte[] content, String where) {
    return checked(trimNewline(content), where);
  }

  private static byte[] checked(byte[] secret, String where) {
    if (secret.length < 16) {
      int n = secret.length;
      Arrays.fill(secret, (byte) 0);
      throw new IllegalArgumentException(
          "the " + where + " must hold at least 16 bytes of secret, it has " + n);
    }
    if (KeyedPrf.isOneByteRepeated(secret)) {
      int n = secret.length;
      Arrays.fill(secret, (byte) 0);
      throw new IllegalArgumentException(
          "the "
              + where
              + " holds one byte value repeated "
              + n
              + " times, which is no secret: use at least 16 random bytes (e.g. head -c 32 /dev/urandom)");
    }
    return secret;
  }

  private static byte[] trimNewline(byte[] b) {
    int n = b.length;
    while (n > 0 && (b[n - 1] == '\n' || b[n - 1] == '\r')) {
      n--;
    }
    if (n == b.length) {
      return b;
    }
    byte[] out = Arrays.copyOf(b, n);
    Arrays.fill(b, (byte) 0);
    return out;
  }
}
