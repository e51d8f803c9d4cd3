package io.ogpm.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL example of docs/sql.md (the {@code ```sql} block after its {@value #MARKER} comment),
 * statement by statement, ready to run against a test's cluster: the same text jobs' {@code
 * SqlExampleIT} runs on a MiniCluster.
 */
final class ReadmeSql {
  static final String MARKER = "<!-- sql example:";

  /** Where the page's statements say the job jar is: a cluster's own path. */
  static final String README_JAR = "file:///opt/ogpm/ogpm-job.jar";

  private static final Pattern BLOCK =
      Pattern.compile(Pattern.quote(MARKER) + "[^\\n]*\\n```sql\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern BOOTSTRAP =
      Pattern.compile("('properties\\.bootstrap\\.servers'\\s*=\\s*')[^']*(')");

  private ReadmeSql() {}

  /**
   * The example's statements without comments, with every {@code 'properties.bootstrap.servers' =
   * '...'} set to {@code bootstrapServers} and the page's job jar ({@value #README_JAR}) replaced
   * by {@code jobJar}.
   *
   * @throws IllegalStateException if the page has no such block
   */
  static List<String> statements(Path readme, Path jobJar, String bootstrapServers)
      throws IOException {
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    Matcher block = BLOCK.matcher(text);
    if (!block.find()) {
      throw new IllegalStateException(readme + " has no ```sql block after '" + MARKER + "'");
    }
    StringBuilder withoutComments = new StringBuilder();
    for (String line : block.group(1).split("\n")) {
      if (!line.strip().startsWith("--")) {
        withoutComments.append(line).append('\n');
      }
    }
    List<String> out = new ArrayList<>();
    for (String statement : withoutComments.toString().split(";\\s*\\n")) {
      String s = statement.strip();
      if (s.endsWith(";")) {
        s = s.substring(0, s.length() - 1);
      }
      if (s.isEmpty()) {
        continue;
      }
      s = BOOTSTRAP.matcher(s).replaceAll("$1" + Matcher.quoteReplacement(bootstrapServers) + "$2");
      out.add(s.replace(README_JAR, jobJar.toUri().toString()));
    }
    return out;
  }
}
