package io.ogpm.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code --version} prints the project's version, the one of the POM that built it. */
class VersionTest {
  @Test
  void versionIsTheProjectsVersion() throws Exception {
    Matcher parent =
        Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL)
            .matcher(Files.readString(Path.of("pom.xml")));
    assertThat(parent.find()).isTrue();
    CommandRun r = CliRunner.run("--version");
    assertThat(r.status()).isZero();
    assertThat(r.out().strip()).isEqualTo("ogpm " + parent.group(1));
  }
}
