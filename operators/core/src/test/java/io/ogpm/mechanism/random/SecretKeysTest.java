package io.ogpm.mechanism.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Key files: the secret is the content less its trailing newline; weak secrets are refused by name,
 * never quoted.
 */
class SecretKeysTest {
  @Test
  void aKeyFileIsItsContentWithoutTheTrailingNewline(@TempDir Path dir) throws Exception {
    Path key = Files.writeString(dir.resolve("key"), "0123456789abcdef-secret\r\n");
    assertThat(new String(SecretKeys.fromFile(key), StandardCharsets.US_ASCII))
        .isEqualTo("0123456789abcdef-secret");
  }

  @Test
  void aKeyFileOfOneRepeatedByteIsRefusedNamingTheFileNotTheContent(@TempDir Path dir)
      throws Exception {
    for (String content : new String[] {"q".repeat(32) + "\n", "0".repeat(64), " ".repeat(16)}) {
      Path key = Files.writeString(dir.resolve("weak"), content);
      assertThatThrownBy(() -> SecretKeys.fromFile(key))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("the key file " + key + " holds one byte value repeated")
          .hasMessageContaining("no secret")
          .hasMessageNotContaining(content.substring(0, 4));
    }
    Path zeros = Files.write(dir.resolve("zeros"), new byte[32]);
    assertThatThrownBy(() -> SecretKeys.fromFile(zeros))
        .hasMessageContaining("key file " + zeros + " holds one byte value repeated 32 times");
  }

  @Test
  void aShortKeyFileIsRefusedBeforeItsContentIsJudged(@TempDir Path dir) throws Exception {
    Path key = Files.writeString(dir.resolve("short"), "aaaa\n");
    assertThatThrownBy(() -> SecretKeys.fromFile(key))
        .hasMessage("the key file " + key + " must hold at least 16 bytes of secret, it has 4");
  }

  @Test
  void aMissingVariableIsNamed() {
    assertThatThrownBy(() -> SecretKeys.fromEnvironment("OGPM_TEST_UNSET_VARIABLE"))
        .hasMessage("the environment variable OGPM_TEST_UNSET_VARIABLE holding the key is not set");
  }

  @Test
  void aKeyFileOfLineEndsOnlyHoldsNoSecret(@TempDir Path dir) throws Exception {
    for (String content : new String[] {"", "\n", "\r\n\n\r"}) {
      Path key = Files.writeString(dir.resolve("empty"), content);
      assertThatThrownBy(() -> SecretKeys.fromFile(key))
          .hasMessage("the key file " + key + " must hold at least 16 bytes of secret, it has 0");
    }
  }

  @Test
  void anUnreadableKeyFileIsNamedWithoutItsContent(@TempDir Path dir) {
    Path missing = dir.resolve("no-such-key");
    assertThatThrownBy(() -> SecretKeys.fromFile(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot read the key file " + missing + ": NoSuchFileException");
  }

  @Test
  void aVariableIsReadLikeAFileAndNamedNeverQuoted() {
    Map<String, String> env =
        Map.of(
            "OGPM_KEY", "0123456789abcdef-from-env\n",
            "OGPM_SHORT", "s3cr3t\n",
            "OGPM_WEAK", "z".repeat(24));
    assertThat(
            new String(SecretKeys.fromEnvironment("OGPM_KEY", env::get), StandardCharsets.US_ASCII))
        .isEqualTo("0123456789abcdef-from-env");
    assertThatThrownBy(() -> SecretKeys.fromEnvironment("OGPM_SHORT", env::get))
        .hasMessage(
            "the environment variable OGPM_SHORT must hold at least 16 bytes of secret, it has 6");
    assertThatThrownBy(() -> SecretKeys.fromEnvironment("OGPM_WEAK", env::get))
        .hasMessageStartingWith(
            "the environment variable OGPM_WEAK holds one byte value repeated 24 times")
        .hasMessageNotContaining("zzzz");
    assertThatThrownBy(() -> SecretKeys.fromEnvironment("OGPM_UNSET", env::get))
        .hasMessage("the environment variable OGPM_UNSET holding the key is not set");
  }

  /**
   * The public entry reads the process's own environment. A test cannot set a variable, so it reads
   * PATH, set (and longer than 16 bytes) wherever the build runs.
   */
  @Test
  void theProcessEnvironmentIsWhereVariablesAreRead() {
    String path = System.getenv("PATH");
    assumeTrue(path != null && path.length() >= 16 && !path.endsWith("\n"), "PATH is set");
    assertThat(SecretKeys.fromEnvironment("PATH")).isEqualTo(path.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The content read is taken over: only the returned secret remains, every other copy is zeros.
   */
  @Test
  void noCopyOfTheContentIsLeftBehind() {
    byte[] exact = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    assertThat(SecretKeys.fromContent(exact, "test")).isSameAs(exact);

    byte[] withNewline = "0123456789abcdef\n".getBytes(StandardCharsets.US_ASCII);
    byte[] secret = SecretKeys.fromContent(withNewline, "test");
    assertThat(new String(secret, StandardCharsets.US_ASCII)).isEqualTo("0123456789abcdef");
    assertThat(withNewline).containsOnly(0);

    for (String refused :
        new String[] {"short secret", "short secret\n", "q".repeat(20), "q".repeat(20) + "\r\n"}) {
      byte[] content = refused.getBytes(StandardCharsets.US_ASCII);
      assertThatThrownBy(() -> SecretKeys.fromContent(content, "test"))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(content).as(refused).containsOnly(0);
    }
  }
}
