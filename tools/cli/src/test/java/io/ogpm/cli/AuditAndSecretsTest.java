package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.perturb.PerturbFunction;
import io.ogpm.jobs.cli.CommandRun;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditAndSecretsTest {
  @Test
  void auditPassesTheMechanismAndFailsItsUnsnappedDoubles() {
    CommandRun pass = CliRunner.run("audit", "--epsilon", "2", "--samples", "50000");
    assertThat(pass.status()).isZero();
    String[] lines = pass.out().trim().split("\n");
    assertThat(Double.parseDouble(lines[lines.length - 1])).isLessThanOrEqualTo(2);
    CommandRun fail = CliRunner.run("audit", "--epsilon", "2", "--samples", "50000", "--unsnapped");
    assertThat(fail.status()).isEqualTo(1);
    String[] failLines = fail.out().trim().split("\n");
    assertThat(Double.parseDouble(failLines[failLines.length - 1])).isGreaterThan(2);
    assertThat(CliRunner.run("audit", "--epsilon", "2", "--confidence", "1.5").err())
        .contains("--confidence must be in (0, 1)");
  }

  static final String CONFIG =
      "id-field: id\nfields:\n  - name: x\n    min: 0\n    max: 1\n    epsilon: 1\n";

  private static String perturb(Path config, String input, String... keyArgs) throws Exception {
    InputStream savedIn = System.in;
    PrintStream savedOut = System.out;
    PrintStream savedErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      String[] args = new String[3 + keyArgs.length];
      args[0] = "perturb";
      args[1] = "--config";
      args[2] = config.toString();
      System.arraycopy(keyArgs, 0, args, 3, keyArgs.length);
      assertThat(CliRunner.run(args).status()).isZero();
    } finally {
      System.setIn(savedIn);
      System.setOut(savedOut);
      System.setErr(savedErr);
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("keyed-secret");
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void perturbWithAKeyFileIsReplaySafeAndTheKeyStaysSecret(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG);
    Path key = Files.writeString(dir.resolve("key"), "keyed-secret-0123456789abcdef\n");
    Path other = Files.writeString(dir.resolve("other"), "keyed-secret-other-0123456789\n");
    String input = "{\"id\":\"a\",\"x\":0.3}\n{\"id\":\"b\",\"x\":0.3}\n";
    String first = perturb(config, input, "--key-file", key.toString());
    assertThat(perturb(config, input, "--key-file", key.toString())).isEqualTo(first);
    assertThat(perturb(config, input, "--key-file", other.toString())).isNotEqualTo(first);
    assertThat(perturb(config, input)).isNotEqualTo(first);
  }

  @Test
  void theKeyIsNeverPartOfTheJobGraph(@TempDir Path dir) throws Exception {
    Path key = Files.writeString(dir.resolve("key"), "keyed-secret-0123456789abcdef");
    PerturbFunction f =
        new PerturbFunction(PrivacyConfig.parse(CONFIG), KeySource.file(key), false);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(bytes)) {
      o.writeObject(f);
    }
    assertThat(bytes.toString(StandardCharsets.ISO_8859_1))
        .doesNotContain("keyed-secret")
        .contains("key");
    assertThat(KeySource.file(key).toString()).doesNotContain("keyed-secret");
  }
}
