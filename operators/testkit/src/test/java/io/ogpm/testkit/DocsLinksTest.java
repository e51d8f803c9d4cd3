package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README.md and every page under docs/ link only to files that exist and to headings that exist:
 * each relative link resolves from the page's own folder, and each anchor ({@code page.md#heading}
 * or {@code #heading}) is the GitHub anchor of a heading of its page (lowercase, spaces to '-',
 * punctuation other than '-' and '_' dropped, a repeated heading suffixed -1, -2...). Links in code
 * (fenced blocks, inline code) are not links. External links (http, https, mailto) are not checked.
 * The pages also name no commit: history is git's.
 */
class DocsLinksTest {
  /** The repository root: the tests run in operators/testkit. */
  static final Path ROOT = Path.of("").toAbsolutePath().getParent().getParent();

  private static final Pattern INLINE_LINK =
      Pattern.compile(
          "!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern REFERENCE_DEFINITION =
      Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
  private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
  private static final Pattern INLINE_CODE = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");

  /** A hex string of 7 to 40 digits with at least one letter and one decimal digit: a commit id. */
  private static final Pattern COMMIT_ID =
      Pattern.compile("\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\\b");

  /** README.md and every Markdown file under docs/. */
  static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  @Test
  void everyRelativeLinkAndAnchorResolves() throws IOException {
    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> anchors = new HashMap<>();
    for (Path page : pages()) {
      for (Link link : links(Files.readString(page, StandardCharsets.UTF_8))) {
        String problem = check(page, link.target(), anchors);
        if (problem != null) {
          broken.add(
              ROOT.relativize(page) + ":" + link.line() + ": " + link.target() + ": " + problem);
        }
      }
    }
    assertThat(broken).as("broken links").isEmpty();
  }

  @Test
  void thePagesNameNoCommit() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path page : pages()) {
      List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = COMMIT_ID.matcher(lines.get(i));
        while (m.find()) {
          found.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + m.group());
        }
      }
    }
    assertThat(found).as("commit ids").isEmpty();
  }

  @Test
  void theReadmeFitsOnAFewPages() throws IOException {
    assertThat(Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8))
        .hasSizeLessThanOrEqualTo(250);
  }

  @Test
  void anchorsFollowGitHubsRules() {
    assertThat(anchor("Topics: `ogpm topics`")).isEqualTo("topics-ogpm-topics");
    assertThat(anchor("Reconstruction, classical (userAcceleration.x on [0,1])"))
        .isEqualTo("reconstruction-classical-useraccelerationx-on-01");
    assertThat(anchor("The [CLI](cli.md): `flink run`")).isEqualTo("the-cli-flink-run");
    assertThat(anchor("snake_case and dashes-kept")).isEqualTo("snake_case-and-dashes-kept");
    assertThat(anchors(List.of("# A", "## A", "```", "# B", "```", "### A")))
        .containsExactlyInAnyOrder("a", "a-1", "a-2");
  }

  @Test
  void linksInCodeAreNotLinks() {
    assertThat(
            links(
                "see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n[d]: d.md \"title\"\n![e](e.png)"))
        .extracting(Link::target)
        .containsExactly("a.md", "d.md", "e.png");
  }

  record Link(int line, String target) {}

  /** The link targets of a page, outside code. */
  static List<Link> links(String text) {
    List<Link> out = new ArrayList<>();
    boolean fenced = false;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      String prose = INLINE_CODE.matcher(line).replaceAll("");
      Matcher reference = REFERENCE_DEFINITION.matcher(prose);
      if (reference.matches()) {
        out.add(new Link(i + 1, reference.group(1)));
        continue;
      }
      Matcher m = INLINE_LINK.matcher(prose);
      while (m.find()) {
        out.add(new Link(i + 1, m.group(1)));
      }
    }
    return out;
  }

  /** Why a link from a page does not resolve, or null if it does. */
  private static String check(Path page, String target, Map<Path, Set<String>> cache)
      throws IOException {
    if (target.matches("(?i)(https?|mailto|ftp):.*")) {
      return null;
    }
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    String fragment = hash < 0 ? null : target.substring(hash + 1);
    Path resolved = file.isEmpty() ? page : page.getParent().resolve(decode(file)).normalize();
    if (!resolved.startsWith(ROOT)) {
      return "outside the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    if (fragment == null) {
      return null;
    }
    if (!resolved.toString().endsWith(".md") || Files.isDirectory(resolved)) {
      return "an anchor into a file that is not a Markdown page";
    }
    Set<String> known =
        cache.computeIfAbsent(
            resolved,
            p -> {
              try {
                return anchors(Files.readAllLines(p, StandardCharsets.UTF_8));
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    return known.contains(fragment) ? null : "no such heading";
  }

  private static String decode(String path) {
    return path.replace("%20", " ");
  }

  /**
   * The anchors of a page's headings (outside code), GitHub's way, and its explicit HTML anchors.
   */
  static Set<String> anchors(List<String> lines) {
    Set<String> out = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : lines) {
      if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher html = HTML_ANCHOR.matcher(line);
      while (html.find()) {
        out.add(html.group(1));
      }
      Matcher h = HEADING.matcher(line);
      if (h.matches()) {
        String base = anchor(h.group(2));
        int n = seen.merge(base, 1, Integer::sum) - 1;
        out.add(n == 0 ? base : base + "-" + n);
      }
    }
    return out;
  }

  /** GitHub's anchor for a heading's text. */
  static String anchor(String heading) {
    String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
    return text.toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "")
        .replace(' ', '-');
  }
}
