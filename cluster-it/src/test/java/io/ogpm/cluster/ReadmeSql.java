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
 * The SQL example of README.md: the statements of its {@code ```sql} blocks that call an {@code
 * LDP_} function, in order, ready to run against a test's cluster.
 */
final class ReadmeSql {
  private static final Pattern BLOCK = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern BOOTSTRAP = Pattern.compile("('properties\\.bootstrap\\.servers'\\s*=\\s*')[^']*(')");
  private static final Pattern RELATIVE_JAR = Pattern.compile("'((?!/)[^'\\s]+\\.jar)'");

  private ReadmeSql() {}

  /**
   * The statements, with every {@code 'properties.bootstrap.servers' = '...'} set to {@code
   * bootstrapServers} and every relative {@code '....jar'} path resolved against {@code root} (the
   * project, where the README's paths start); empty if the README has no such block.
   */
  static List<String> statements(Path readme, Path root, String bootstrapServers) throws IOException {
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>();
    Matcher block = BLOCK.matcher(text);
    while (block.find()) {
      if (!block.group(1).contains("LDP_")) {
        continue;
      }
      StringBuilder withoutComments = new StringBuilder();
      for (String line : block.group(1).split("\n")) {
        if (!line.strip().startsWith("--")) {
          withoutComments.append(line).append('\n');
        }
      }
      for (String statement : withoutComments.toString().split(";\\s*\\n")) {
        String s = statement.strip();
        if (s.endsWith(";")) {
          s = s.substring(0, s.length() - 1);
        }
        if (s.isEmpty()) {
          continue;
        }
        s = BOOTSTRAP.matcher(s).replaceAll("$1" + Matcher.quoteReplacement(bootstrapServers) + "$2");
        Matcher jar = RELATIVE_JAR.matcher(s);
        StringBuilder resolved = new StringBuilder();
        while (jar.find()) {
          jar.appendReplacement(resolved, Matcher.quoteReplacement("'" + root.resolve(jar.group(1)).normalize() + "'"));
        }
        jar.appendTail(resolved);
        out.add(resolved.toString());
      }
    }
    return out;
  }
}
