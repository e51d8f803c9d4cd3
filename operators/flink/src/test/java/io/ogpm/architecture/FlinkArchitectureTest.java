package io.ogpm.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static io.ogpm.architecture.ArchitectureRules.FLINK_INTERNAL;
import static io.ogpm.architecture.ArchitectureRules.FLINK_PUBLIC_EVOLVING;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The DataStream library's layout: no package cycles among its internal packages, every public type
 * annotated with Flink's {@code @PublicEvolving} or {@code @Internal}, no {@code @Internal} type in
 * the top package {@code io.ogpm.flink} (the API), API signatures that name only API types.
 */
@AnalyzeClasses(packages = "io.ogpm.flink", importOptions = ImportOption.DoNotIncludeTests.class)
class FlinkArchitectureTest {
  @ArchTest
  static final ArchRule noCyclesAmongTheInternalPackages =
      slices()
          .matching("io.ogpm.flink.(*)..")
          .namingSlices("io.ogpm.flink.$1")
          .should()
          .beFreeOfCycles()
          .because(
              "the internal packages depend on one another one way (budget on perturb, kafka on aggregate);"
                  + " that all of them use the API's record types is the one way up");

  @ArchTest
  static final ArchRule publicTypesSayWhetherTheyAreApi =
      ArchitectureRules.publicTypesSayWhetherTheyAreApi(
          FLINK_PUBLIC_EVOLVING, FLINK_INTERNAL, "io.ogpm.flink..");

  @ArchTest
  static final ArchRule theTopPackageIsTheApi =
      noClasses()
          .that()
          .resideInAPackage("io.ogpm.flink")
          .should()
          .beAnnotatedWith(FLINK_INTERNAL)
          .because("io.ogpm.flink holds the API only; internals live in its subpackages");

  @ArchTest
  static final ArchRule apiSignaturesExposeOnlyApiTypes =
      ArchitectureRules.apiSignaturesExposeOnlyApiTypes();
}
