package io.ogpm.jobs;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The deployable jobs are built on the Flink library as a user's job would be: no type of {@code
 * io.ogpm.flink..} marked {@code @Internal} (ArchUnit, on the class files). What a job needs from
 * the library must be API: where a job would need an internal, the library makes it API or the job
 * does without.
 */
@AnalyzeClasses(packages = "io.ogpm.jobs", importOptions = ImportOption.DoNotIncludeTests.class)
class JobsUseTheApiTest {
  static final String FLINK_INTERNAL = "org.apache.flink.annotation.Internal";

  @ArchTest
  static final ArchRule jobsUseOnlyTheFlinkLibrarysApi =
      noClasses()
          .that()
          .resideInAPackage("io.ogpm.jobs..")
          .should()
          .dependOnClassesThat(
              DescribedPredicate.describe(
                  "are internal types of io.ogpm.flink..",
                  (JavaClass c) -> c.getPackageName().startsWith("io.ogpm.flink") && internal(c)))
          .because(
              "the jobs are the reference for a user's job: what they need of the library, a user's job needs too");

  /** Marked {@code @Internal}, or nested in a type that is. */
  static boolean internal(JavaClass c) {
    return c.isAnnotatedWith(FLINK_INTERNAL)
        || c.getEnclosingClass().map(JobsUseTheApiTest::internal).orElse(false);
  }
}
