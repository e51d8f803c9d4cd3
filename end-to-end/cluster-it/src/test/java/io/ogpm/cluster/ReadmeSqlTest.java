package io.ogpm.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQL example of docs/sql.md as the cluster test runs it. */
class ReadmeSqlTest {
  @Test
  void takesTheMarkedBlocksStatementsPointedAtTheTestsBrokerAndJobJar(@TempDir Path dir)
      throws Exception {
    Path readme = dir.resolve("README.md");
    Files.writeString(
        readme,
        String.join(
            "\n",
            "# x",
            "```sql",
            "SELECT LDP_X(1);",
            "```",
            "text",
            "<!-- sql example: run by somewhere -->",
            "```sql",
            "-- a comment; with a semicolon",
            "CREATE FUNCTION LDP_PERTURB AS 'io.ogpm.sql.Perturb' USING JAR 'file:///opt/ogpm/ogpm-job.jar';",
            "CREATE TABLE raw (x DOUBLE) WITH (",
            "  'connector' = 'kafka', 'properties.bootstrap.servers' = 'kafka:9092', 'format' = 'json');",
            "INSERT INTO perturbed SELECT LDP_PERTURB(x, 0, 1, 1.0) FROM raw;",
            "```",
            "```sql",
            "SELECT LDP_Y(2);",
            "```",
            ""));
    assertThat(
            ReadmeSql.statements(
                readme, Path.of("/project/jobs/target/ogpm-job.jar"), "127.0.0.1:1234"))
        .containsExactly(
            "CREATE FUNCTION LDP_PERTURB AS 'io.ogpm.sql.Perturb' USING JAR 'file:///project/jobs/target/ogpm-job.jar'",
            "CREATE TABLE raw (x DOUBLE) WITH (\n  'connector' = 'kafka', 'properties.bootstrap.servers' = '127.0.0.1:1234', 'format' = 'json')",
            "INSERT INTO perturbed SELECT LDP_PERTURB(x, 0, 1, 1.0) FROM raw");
  }

  @Test
  void aReadmeWithoutTheMarkedBlockIsAnError(@TempDir Path dir) throws Exception {
    Path readme = dir.resolve("README.md");
    Files.writeString(readme, "```sql\nSELECT LDP_X(1);\n```\n");
    assertThatThrownBy(() -> ReadmeSql.statements(readme, dir.resolve("j.jar"), "b:1"))
        .hasMessageContaining("no ```sql block after '<!-- sql example:'");
  }

  @Test
  void theProjectsSqlPageHasTheExample() throws Exception {
    assertThat(
            ReadmeSql.statements(
                Path.of(System.getProperty("ogpm.readme", "../../docs/sql.md")),
                Path.of("/j.jar"),
                "b:1"))
        .anyMatch(s -> s.contains("USING JAR 'file:///j.jar'"))
        .filteredOn(s -> s.startsWith("INSERT INTO"))
        .hasSize(2);
  }
}
