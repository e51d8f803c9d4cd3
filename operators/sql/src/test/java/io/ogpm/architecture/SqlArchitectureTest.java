package io.ogpm.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static io.ogpm.architecture.ArchitectureRules.FLINK_INTERNAL;
import static io.ogpm.architecture.ArchitectureRules.FLINK_PUBLIC_EVOLVING;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;
import java.util.TreeSet;

/**
 * The SQL functions' layout: every public type annotated with Flink's {@code @PublicEvolving} or
 * {@code @Internal}, API signatures that name only API types, and no internal type of another
 * package used but those the functions need, named in {@link #INTERNALS_OF_THE_SQL_FUNCTIONS}.
 */
@AnalyzeClasses(
    packages = "io.ogpm.flink.table",
    importOptions = ImportOption.DoNotIncludeTests.class)
class SqlArchitectureTest {
  @ArchTest
  static final ArchRule publicTypesSayWhetherTheyAreApi =
      ArchitectureRules.publicTypesSayWhetherTheyAreApi(
          FLINK_PUBLIC_EVOLVING, FLINK_INTERNAL, "io.ogpm.flink.table..");

  @ArchTest
  static final ArchRule apiSignaturesExposeOnlyApiTypes =
      ArchitectureRules.apiSignaturesExposeOnlyApiTypes();

  /**
   * The library's internals that the SQL functions may use, each for a reason; no other. The SQL
   * functions are a front end of the library beside the DataStream API, not a user of it, so they
   * may share its internals, but only what perturbing and estimating one value in SQL needs: the
   * mechanism's building blocks (argument checks, OGPM's shape, the polar split, the random
   * streams), and the budget's rule, which LDP_BUDGET shares with the operators' budget. Nothing of
   * the DataStream operators (perturb, budget, aggregate, kafka, typeutils), and nothing internal
   * of the record path, the configuration or the estimators.
   */
  static final Set<String> INTERNALS_OF_THE_SQL_FUNCTIONS =
      Set.of(
          // LDP_BUDGET: the budget's rule on its calendar and clock, as the operators' budget
          // applies it.
          "io.ogpm.budget.BudgetDecision",
          "io.ogpm.budget.BudgetPeriods",
          "io.ogpm.budget.BudgetRule",
          "io.ogpm.budget.TaskClock",
          // mechanism => 'auto': the configuration's choice of a mechanism, made the same way.
          "io.ogpm.estimate.MechanismAdvisor",
          // Literal arguments checked at planning time with the mechanism specs' own checks.
          "io.ogpm.mechanism.Checks",
          "io.ogpm.mechanism.OgpmShape",
          // LDP_PERTURB_POLAR: the eps split of a polar pair, as the configuration's polar items
          // split it.
          "io.ogpm.mechanism.polar.PolarShares",
          "io.ogpm.mechanism.polar.PolarSplit",
          // The random streams of one value's perturbation: secure, or keyed by record id and
          // field.
          "io.ogpm.mechanism.random.AesCtrSource",
          "io.ogpm.mechanism.random.Identifier",
          "io.ogpm.mechanism.random.KeyedPrf",
          "io.ogpm.mechanism.random.RandomnessMode");

  @ArchTest
  static final ArchRule sqlFunctionsUseOnlyTheInternalsTheyNeed =
      noClasses()
          .that()
          .resideInAPackage("io.ogpm.flink.table..")
          .should()
          .dependOnClassesThat(
              DescribedPredicate.describe(
                  "are internal types of other packages than io.ogpm.flink.table, but "
                      + new TreeSet<>(INTERNALS_OF_THE_SQL_FUNCTIONS)
                      + " and their nested types",
                  c ->
                      c.getPackageName().startsWith("io.ogpm.")
                          && !c.getPackageName().startsWith("io.ogpm.flink.table")
                          && !ArchitectureRules.isApi(c)
                          && !INTERNALS_OF_THE_SQL_FUNCTIONS.contains(
                              ArchitectureRules.topLevel(c).getName())))
          .because(
              "the SQL functions are a front end of the library beside the DataStream API: they share the"
                  + " mechanism's building blocks, not the DataStream operators' internals");
}
