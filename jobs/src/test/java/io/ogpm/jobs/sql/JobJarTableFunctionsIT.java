package io.ogpm.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The job jar that {@code CREATE FUNCTION ... USING JAR} names: it holds every class of the SQL
 * functions (and what they use), and nothing of Flink's table stack (API, planner, runtime, JSON
 * format, Scala), which the cluster provides; the only table factories it registers are the Kafka
 * connector's. (An integration test: the jar exists after {@code package}.)
 */
class JobJarTableFunctionsIT {
  static final Path REPO = Path.of("").toAbsolutePath().getParent();

  private static ZipFile jar() throws IOException {
    Path jar = Path.of(System.getProperty("ogpm.job.jar", "target/ogpm-job.jar"));
    assertThat(jar).as("the job jar (mvn package builds it before this integration test)").exists();
    return new ZipFile(jar.toFile());
  }

  @Test
  void holdsEveryClassOfTheFunctionsAndWhatTheyUse() throws IOException {
    Path classes = REPO.resolve("operators/sql/target/classes");
    List<String> functions;
    try (Stream<Path> files = Files.walk(classes.resolve("io/ogpm/flink/table"))) {
      functions =
          files
              .filter(p -> p.toString().endsWith(".class"))
              .map(p -> classes.relativize(p).toString().replace('\\', '/'))
              .toList();
    }
    assertThat(functions)
        .contains(
            "io/ogpm/flink/table/LdpPerturb.class",
            "io/ogpm/flink/table/OgpmPerturb.class",
            "io/ogpm/flink/table/LdpPerturbKeyed.class",
            "io/ogpm/flink/table/LdpMean.class",
            "io/ogpm/flink/table/LdpCircularMean.class",
            "io/ogpm/flink/table/LdpHistogram.class",
            "io/ogpm/flink/table/LdpQuantile.class",
            "io/ogpm/flink/table/LdpQuantileAccumulator.class",
            "io/ogpm/flink/table/LdpBudget.class",
            "io/ogpm/flink/table/LdpAccumulator.class",
            "io/ogpm/flink/table/LdpPerturbPolar.class",
            "io/ogpm/flink/table/LdpPolarMean.class",
            "io/ogpm/flink/table/LdpPolarAccumulator.class");
    try (ZipFile jar = jar()) {
      for (String f : functions) {
        assertThat(jar.getEntry(f)).as(f).isNotNull();
      }
      for (String used :
          new String[] {
            "io/ogpm/mechanism/catalog/MechanismCatalog.class",
            "io/ogpm/estimate/FieldEstimator.class",
            "io/ogpm/mechanism/random/KeyedPrf.class",
            "io/ogpm/flink/KeySource.class",
            "io/ogpm/budget/BudgetRule.class",
            "io/ogpm/mechanism/polar/PolarShares.class",
            "org/hipparchus/optim/univariate/BrentOptimizer.class"
          }) {
        assertThat(jar.getEntry(used)).as(used).isNotNull();
      }
    }
  }

  @Test
  void registersNothingOfFlinksTableStackButTheKafkaConnectorsFactories() throws IOException {
    try (ZipFile jar = jar()) {
      List<String> names = jar.stream().map(ZipEntry::getName).toList();
      assertThat(names)
          .noneMatch(n -> n.startsWith("org/apache/flink/table/"))
          .noneMatch(n -> n.startsWith("org/apache/flink/formats/"))
          .noneMatch(n -> n.startsWith("scala/"))
          .noneMatch(n -> n.startsWith("org/apache/calcite/"))
          .noneMatch(n -> n.startsWith("META-INF/services/org.apache.flink.table.delegation."))
          .noneMatch(n -> n.startsWith("META-INF/services/org.apache.flink.table.planner."));
      ZipEntry factories =
          jar.getEntry("META-INF/services/org.apache.flink.table.factories.Factory");
      assertThat(factories).isNotNull();
      List<String> registered =
          new String(jar.getInputStream(factories).readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .map(String::strip)
              .filter(l -> !l.isEmpty() && !l.startsWith("#"))
              .toList();
      assertThat(registered)
          .isNotEmpty()
          .allMatch(f -> f.startsWith("org.apache.flink.streaming.connectors.kafka.table."));
    }
  }
}
