package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The documentation's example of testing a user's job ({@value #PAGE}) is the test that runs
 * ({@code SensorJobIT}): the code block after its marker must equal that file, so the page cannot
 * show code that does not compile or pass.
 */
class ReadmeExampleTest {
  static final String EXAMPLE =
      "operators/testkit/src/test/java/com/example/sensors/SensorJobIT.java";

  /** The page that shows the example, relative to the repository's root. */
  static final String PAGE = "docs/testkit.md";

  @Test
  void theReadmeShowsTheExampleTestThatRuns() throws Exception {
    Path root = Path.of("").toAbsolutePath().getParent().getParent();
    String readme = Files.readString(root.resolve(PAGE), StandardCharsets.UTF_8);
    String marker = "<!-- test kit example: " + EXAMPLE + " -->\n```java\n";
    int start = readme.indexOf(marker);
    assertThat(start).as("%s has the marker %s", PAGE, marker.strip()).isNotNegative();
    int from = start + marker.length();
    String shown = readme.substring(from, readme.indexOf("```\n", from));
    assertThat(shown).isEqualTo(Files.readString(root.resolve(EXAMPLE), StandardCharsets.UTF_8));
  }
}
