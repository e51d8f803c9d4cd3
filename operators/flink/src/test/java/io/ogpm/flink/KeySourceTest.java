package io.ogpm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task manager's key loading refuses what the command line refuses. */
class KeySourceTest {
  @Test
  void aRepeatedByteKeyFileIsRefusedOnTheTaskManagerToo(@TempDir Path dir) throws Exception {
    Path weak = Files.writeString(dir.resolve("weak"), "k".repeat(32) + "\n");
    assertThatThrownBy(() -> KeySource.file(weak).load())
        .hasMessageStartingWith(
            "the key file " + weak.toAbsolutePath() + " holds one byte value repeated 32 times")
        .hasMessageNotContaining("kkkk");
    Path good = Files.writeString(dir.resolve("good"), "0123456789abcdef0123456789abcdef\n");
    assertThat(KeySource.file(good).load().isKeyed()).isTrue();
  }

  /**
   * Only the key's location travels with the job graph (Java serialisation) or shows in its
   * description (logs, web UI): never the secret, even after a task manager loaded it.
   */
  @Test
  void theJobGraphAndTheDescriptionCarryTheLocationNeverTheSecret(@TempDir Path dir)
      throws Exception {
    String secret = "0123456789abcdef0123456789abcdef";
    Path file = Files.writeString(dir.resolve("key"), secret + "\n");
    KeySource source = KeySource.file(file);
    assertThat(source.load().isKeyed()).isTrue();
    assertThat(source.toString()).isEqualTo("key file " + file.toAbsolutePath());
    assertThat(new String(serialized(source), StandardCharsets.ISO_8859_1))
        .contains(file.toAbsolutePath().toString())
        .doesNotContain(secret);
    assertThat(KeySource.environment("OGPM_KEY").toString()).isEqualTo("key in $OGPM_KEY");
    assertThat(KeySource.none().toString()).isEqualTo("secure random");
  }

  @Test
  void noKeyMeansTheSecureDefault() {
    assertThat(KeySource.none().load().isKeyed()).isFalse();
  }

  /**
   * The variable is read on the task manager when the operator opens; unset, it fails naming it.
   */
  @Test
  void aKeyInAnEnvironmentVariableIsReadWhenLoaded() {
    assertThatThrownBy(() -> KeySource.environment("OGPM_TEST_VARIABLE_NEVER_SET").load())
        .hasMessage(
            "the environment variable OGPM_TEST_VARIABLE_NEVER_SET holding the key is not set");
    // Any variable of the test's environment that would make a valid key (PATH, as a rule).
    Optional<String> set =
        System.getenv().entrySet().stream()
            .filter(e -> e.getValue().length() >= 16 && e.getValue().chars().distinct().count() > 1)
            .map(Map.Entry::getKey)
            .sorted()
            .findFirst();
    assumeTrue(set.isPresent(), "no environment variable long enough to serve as a key");
    assertThat(KeySource.environment(set.get()).load().isKeyed()).isTrue();
  }

  private static byte[] serialized(Object o) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    return bytes.toByteArray();
  }
}
