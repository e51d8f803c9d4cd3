package io.ogpm.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's SQL example as the cluster test will run it. */
class ReadmeSqlTest {
  @Test
  void takesTheStatementsOfSqlBlocksThatCallAnLdpFunctionPointedAtTheTestsBroker(@TempDir Path dir) throws Exception {
    Path readme = dir.resolve("README.md");
    Files.writeString(readme, String.join("\n",
        "# x", "```sql", "SELECT 1;", "```", "text",
        "```sql",
        "-- a comment; with a semicolon",
        "CREATE FUNCTION LDP_PERTURB AS 'io.ogpm.sql.Perturb' USING JAR 'jobs/target/ogpm-job.jar';",
        "CREATE TABLE raw (x DOUBLE) WITH (",
        "  'connector' = 'kafka', 'properties.bootstrap.servers' = 'kafka:9092', 'format' = 'json');",
        "INSERT INTO perturbed SELECT LDP_PERTURB(x, 0, 1, 1.0) FROM raw;",
        "ADD JAR '/opt/abs.jar'",
        "```", ""));
    assertThat(ReadmeSql.statements(readme, Path.of("/project"), "127.0.0.1:1234")).containsExactly(
        "CREATE FUNCTION LDP_PERTURB AS 'io.ogpm.sql.Perturb' USING JAR '/project/jobs/target/ogpm-job.jar'",
        "CREATE TABLE raw (x DOUBLE) WITH (\n  'connector' = 'kafka', 'properties.bootstrap.servers' = '127.0.0.1:1234', 'format' = 'json')",
        "INSERT INTO perturbed SELECT LDP_PERTURB(x, 0, 1, 1.0) FROM raw",
        "ADD JAR '/opt/abs.jar'");
  }

  @Test
  void aReadmeWithoutSuchABlockHasNoStatements(@TempDir Path dir) throws Exception {
    Path readme = dir.resolve("README.md");
    Files.writeString(readme, "```sql\nSELECT 1;\n```\n```bash\nLDP_X\n```\n");
    assertThat(ReadmeSql.statements(readme, dir, "b:1")).isEmpty();
  }
}
