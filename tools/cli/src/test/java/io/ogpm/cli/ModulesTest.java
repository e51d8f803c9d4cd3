package io.ogpm.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The modules' layout as rules on the production classes of every module (this module's test class
 * path holds them all: the command line depends on every other, the test kit is here in test scope
 * only). Tests and test-jars are left out. Maven itself refuses cycles between modules; the
 * enforcer rule of the parent POM refuses the test kit in a production scope.
 *
 * <ul>
 *   <li>no production class depends on the test kit;
 *   <li>no package is split across jars (or class directories);
 *   <li>each module's packages use only the modules below it, the library's artifacts included;
 *   <li>the jobs' topic layout ({@code io.ogpm.jobs.topics}) is decisions only, without a Kafka
 *       client: {@code ogpm topics} and the demo make the requests;
 *   <li>only the bench command's harness writes records with their raw values ({@code
 *       UnperturbedRecordPath}), so no operator's output passes through it: nothing else uses it,
 *       and nothing outside the record package but it sets a record's outputs.
 * </ul>
 */
@AnalyzeClasses(packages = "io.ogpm", importOptions = ModulesTest.ProductionClasses.class)
class ModulesTest {
  static final String UNPERTURBED = "io.ogpm.bench.UnperturbedRecordPath";

  /** What the record writer writes: set by the perturbation plan, or by the bench's baseline. */
  static final String RECORD_VALUES = "io.ogpm.record.RecordValues";

  /** Classes of the modules' main jars or class directories: no test classes, no test-jar. */
  static final class ProductionClasses implements ImportOption {
    @Override
    public boolean includes(Location location) {
      return !location.contains("/test-classes/") && !location.contains("-tests.jar");
    }
  }

  @ArchTest
  static final ArchRule productionCodeNeverUsesTheTestKit =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.ogpm.testkit..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.ogpm.testkit..")
          .because(
              "the test kit is for tests: the demo and the benchmarks have their broker from embedded-kafka");

  @ArchTest
  static void noPackageIsSplitAcrossJars(JavaClasses classes) {
    Map<String, Set<String>> containers = new TreeMap<>();
    for (JavaClass c : classes) {
      c.getSource()
          .ifPresent(
              source ->
                  containers
                      .computeIfAbsent(c.getPackageName(), p -> new TreeSet<>())
                      .add(container(c, source.getUri().toString())));
    }
    List<String> split = new ArrayList<>();
    containers.forEach(
        (p, where) -> {
          if (where.size() > 1) {
            split.add(p + " is in " + where);
          }
        });
    if (!split.isEmpty()) {
      throw new AssertionError("packages split across jars:\n" + String.join("\n", split));
    }
  }

  /** The jar or class directory a class was read from. */
  static String container(JavaClass c, String uri) {
    int bang = uri.indexOf("!/");
    if (uri.startsWith("jar:") && bang > 0) {
      return uri.substring("jar:".length(), bang);
    }
    String file = c.getName().replace('.', '/') + ".class";
    return uri.endsWith(file) ? uri.substring(0, uri.length() - file.length()) : uri;
  }

  /**
   * The DataStream library's packages: io.ogpm.flink and its subpackages but the SQL functions'.
   */
  static final DescribedPredicate<JavaClass> DATASTREAM_LIBRARY =
      DescribedPredicate.describe(
          "reside in io.ogpm.flink.. but not in io.ogpm.flink.table..",
          c ->
              c.getPackageName().startsWith("io.ogpm.flink")
                  && !c.getPackageName().startsWith("io.ogpm.flink.table"));

  @ArchTest
  static final ArchRule modulesUseOnlyTheModulesBelowThem =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("core")
          .definedBy(
              "io.ogpm.annotation..",
              "io.ogpm.mechanism..",
              "io.ogpm.config..",
              "io.ogpm.estimate..",
              "io.ogpm.record..")
          .layer("flink")
          .definedBy(DATASTREAM_LIBRARY)
          .layer("sql")
          .definedBy("io.ogpm.flink.table..")
          .layer("sample-data")
          .definedBy("io.ogpm.sample..")
          .layer("embedded-kafka")
          .definedBy("io.ogpm.kafka..")
          .layer("report")
          .definedBy("io.ogpm.report..")
          .layer("jobs")
          .definedBy("io.ogpm.jobs..")
          .layer("demo")
          .definedBy("io.ogpm.demo..")
          .layer("evaluation")
          .definedBy("io.ogpm.reproduce..")
          .layer("benchmarks")
          .definedBy("io.ogpm.bench..", "io.ogpm.benchmarks..")
          .layer("cli")
          .definedBy("io.ogpm.cli..")
          .whereLayer("core")
          .mayNotAccessAnyLayer()
          .whereLayer("flink")
          .mayOnlyAccessLayers("core")
          .whereLayer("sql")
          .mayOnlyAccessLayers("core", "flink")
          .whereLayer("sample-data")
          .mayNotAccessAnyLayer()
          .whereLayer("report")
          .mayNotAccessAnyLayer()
          .whereLayer("embedded-kafka")
          .mayOnlyAccessLayers("core", "flink")
          .whereLayer("jobs")
          .mayOnlyAccessLayers("core", "flink", "sql")
          .whereLayer("demo")
          .mayOnlyAccessLayers("core", "flink", "jobs", "embedded-kafka", "report", "sample-data")
          .whereLayer("evaluation")
          .mayOnlyAccessLayers("core", "report")
          .whereLayer("benchmarks")
          .mayOnlyAccessLayers("core", "flink", "jobs", "embedded-kafka", "report", "sample-data")
          .whereLayer("cli")
          .mayOnlyAccessLayers(
              "core", "flink", "sql", "jobs", "embedded-kafka", "demo", "evaluation", "benchmarks")
          .because(
              "each module has one job, and its dependencies point down (docs/development.md's modules)");

  @ArchTest
  static final ArchRule theTopicLayoutIsDecisionsOnly =
      classes()
          .that()
          .resideInAPackage("io.ogpm.jobs.topics..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "io.ogpm.config..", "io.ogpm.jobs.topics..")
          .because(
              "the layout of the jobs' topics and its audit are tested without a broker and ship in the job jar;"
                  + " ogpm topics (tools/cli) and the demo talk to Kafka");

  @ArchTest
  static final ArchRule onlyTheBenchWritesRawValues =
      CompositeArchRule.of(
              noClasses()
                  .that()
                  .resideOutsideOfPackage("io.ogpm.bench..")
                  .should()
                  .dependOnClassesThat()
                  .haveFullyQualifiedName(UNPERTURBED))
          .and(
              noClasses()
                  .that()
                  .resideOutsideOfPackage("io.ogpm.record..")
                  .and()
                  .doNotHaveFullyQualifiedName(UNPERTURBED)
                  .should()
                  .callMethod(RECORD_VALUES, "output", "int", "double"))
          .because(
              "the unperturbed record path is the bench's baseline: no operator, job or SQL function may write"
                  + " what it writes");
}
