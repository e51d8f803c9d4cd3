package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key files: the secret is the content less its trailing newline; weak secrets are refused by name, never quoted. */
class SecretKeysTest {
  @Test
  void aKeyFileIsItsContentWithoutTheTrailingNewline(@TempDir Path dir) throws Exception {
    Path key = Files.writeString(dir.resolve("key"), "0123456789abcdef-secret\r\n");
    assertThat(new String(SecretKeys.fromFile(key), StandardCharsets.US_ASCII)).isEqualTo("0123456789abcdef-secret");
  }

  @Test
  void aKeyFileOfOneRepeatedByteIsRefusedNamingTheFileNotTheContent(@TempDir Path dir) throws Exception {
    for (String content : new String[] {"q".repeat(32) + "\n", "0".repeat(64), " ".repeat(16)}) {
      Path key = Files.writeString(dir.resolve("weak"), content);
      assertThatThrownBy(() -> SecretKeys.fromFile(key))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("the key file " + key + " holds one byte value repeated")
          .hasMessageContaining("no secret")
          .hasMessageNotContaining(content.substring(0, 4));
    }
    Path zeros = Files.write(dir.resolve("zeros"), new byte[32]);
    assertThatThrownBy(() -> SecretKeys.fromFile(zeros)).hasMessageContaining("key file " + zeros + " holds one byte value repeated 32 times");
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
}
