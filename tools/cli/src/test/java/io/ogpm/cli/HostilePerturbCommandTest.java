package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.jobs.cli.CommandRun;
import io.ogpm.record.HostileInputs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile lines through the perturb command: every line accounted for, no value in any output. */
class HostilePerturbCommandTest {
  @Test
  void everyHostileLineIsPerturbedOrDeadLetteredAndNothingLeaks(@TempDir Path dir)
      throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), HostileInputs.CONFIG_CLAMP);
    Path dlq = dir.resolve("dlq.jsonl");
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    int lines = 0;
    for (byte[] record : HostileInputs.generate(13, 3_000)) {
      boolean hasNewline = false;
      for (byte b : record) {
        hasNewline |= b == '\n' || b == '\r';
      }
      if (!hasNewline) {
        input.write(record);
        input.write('\n');
        lines++;
      }
    }
    InputStream savedIn = System.in;
    PrintStream savedOut = System.out;
    PrintStream savedErr = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path out = dir.resolve("out.jsonl");
    try (PrintStream toFile =
        new PrintStream(Files.newOutputStream(out), true, StandardCharsets.UTF_8)) {
      System.setIn(new ByteArrayInputStream(input.toByteArray()));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      System.setOut(toFile);
      CommandRun r =
          CliRunner.run(
              "perturb", "--config", config.toString(), "--dlq", dlq.toString(), "--seed", "3");
      assertThat(r.status()).isZero();
    } finally {
      System.setIn(savedIn);
      System.setOut(savedOut);
      System.setErr(savedErr);
    }
    List<String> perturbed = Files.readAllLines(out);
    List<String> dead = Files.readAllLines(dlq);
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertThat(stderr).contains("dead-lettered " + dead.size());
    assertThat(stderr).doesNotContain(HostileInputs.MARKER);
    assertThat(perturbed.size() + dead.size()).isEqualTo(lines);
    assertThat(perturbed).noneMatch(l -> l.contains(HostileInputs.MARKER));
    assertThat(dead).noneMatch(l -> l.contains(HostileInputs.MARKER));
  }
}
