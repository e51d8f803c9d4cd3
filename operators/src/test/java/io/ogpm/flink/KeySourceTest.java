package io.ogpm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task manager's key loading refuses what the command line refuses. */
class KeySourceTest {
  @Test
  void aRepeatedByteKeyFileIsRefusedOnTheTaskManagerToo(@TempDir Path dir) throws Exception {
    Path weak = Files.writeString(dir.resolve("weak"), "k".repeat(32) + "\n");
    assertThatThrownBy(() -> KeySource.file(weak).load())
        .hasMessageStartingWith("the key file " + weak.toAbsolutePath() + " holds one byte value repeated 32 times")
        .hasMessageNotContaining("kkkk");
    Path good = Files.writeString(dir.resolve("good"), "0123456789abcdef0123456789abcdef\n");
    assertThat(KeySource.file(good).load().isKeyed()).isTrue();
  }
}
