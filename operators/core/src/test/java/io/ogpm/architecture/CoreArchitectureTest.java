package io.ogpm.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static io.ogpm.architecture.ArchitectureRules.OGPM_INTERNAL;
import static io.ogpm.architecture.ArchitectureRules.OGPM_PUBLIC_EVOLVING;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The core's layout. That it imports nothing of Flink is Maven's to hold (Flink is not on its class
 * path); these are the rules within it: no package cycles, every public type annotated with {@code
 * io.ogpm.annotation}'s {@code @PublicEvolving} or {@code @Internal}, API signatures that name only
 * API types.
 */
@AnalyzeClasses(packages = "io.ogpm", importOptions = ImportOption.DoNotIncludeTests.class)
class CoreArchitectureTest {
  static final String[] CORE = {
    "io.ogpm.annotation..",
    "io.ogpm.mechanism..",
    "io.ogpm.config..",
    "io.ogpm.budget..",
    "io.ogpm.estimate..",
    "io.ogpm.record.."
  };

  @ArchTest
  static final ArchRule noCyclesBetweenPackages =
      slices().matching("io.ogpm.(*)..").namingSlices("$1").should().beFreeOfCycles();

  @ArchTest
  static final ArchRule publicTypesSayWhetherTheyAreApi =
      ArchitectureRules.publicTypesSayWhetherTheyAreApi(OGPM_PUBLIC_EVOLVING, OGPM_INTERNAL, CORE);

  @ArchTest
  static final ArchRule apiSignaturesExposeOnlyApiTypes =
      ArchitectureRules.apiSignaturesExposeOnlyApiTypes();
}
