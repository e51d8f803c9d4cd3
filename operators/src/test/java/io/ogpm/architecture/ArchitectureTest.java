package io.ogpm.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The layout of the operators module as rules on its class files (ArchUnit, as Flink's connectors
 * guard theirs):
 *
 * <ul>
 *   <li>the plain-Java packages import nothing of Flink;
 *   <li>no package cycles between the layers (mechanism, config, estimate, record, flink...), nor
 *       among the Flink library's internal packages;
 *   <li>every public top-level type says whether users may depend on it, with exactly one of
 *       Flink's {@code @PublicEvolving} and {@code @Internal} in {@code io.ogpm.flink..}, of {@code
 *       io.ogpm.annotation}'s in the plain packages; the top package {@code io.ogpm.flink}, the
 *       library's API, holds no {@code @Internal} type;
 *   <li>the API's signatures expose only API types;
 *   <li>the SQL functions use no internal type of another package but those they need, named in
 *       {@link #INTERNALS_OF_THE_SQL_FUNCTIONS}.
 * </ul>
 */
@AnalyzeClasses(packages = "io.ogpm", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
  /** The packages that must not import Flink. */
  static final String[] PLAIN = {"io.ogpm.annotation..", "io.ogpm.mechanism..", "io.ogpm.config..",
      "io.ogpm.estimate..", "io.ogpm.record.."};
  static final String FLINK_PUBLIC_EVOLVING = "org.apache.flink.annotation.PublicEvolving";
  static final String FLINK_PUBLIC = "org.apache.flink.annotation.Public";
  static final String FLINK_INTERNAL = "org.apache.flink.annotation.Internal";
  static final String OGPM_PUBLIC_EVOLVING = "io.ogpm.annotation.PublicEvolving";
  static final String OGPM_INTERNAL = "io.ogpm.annotation.Internal";

  @ArchTest
  static final ArchRule plainPackagesImportNoFlink = noClasses().that().resideInAnyPackage(PLAIN)
      .should().dependOnClassesThat().resideInAPackage("org.apache.flink..")
      .because("the mechanisms, configuration, estimators and record path are plain Java, usable and testable"
          + " without Flink");

  @ArchTest
  static final ArchRule noCyclesBetweenLayers = slices().matching("io.ogpm.(*)..").namingSlices("$1")
      .should().beFreeOfCycles();

  @ArchTest
  static final ArchRule noCyclesAmongTheFlinkLibrarysPackages = slices().matching("io.ogpm.flink.(*)..")
      .namingSlices("io.ogpm.flink.$1").should().beFreeOfCycles()
      .because("the internal packages depend on one another one way (budget on perturb, kafka on aggregate);"
          + " that all of them use the API's record types is the one way up");

  @ArchTest
  static final ArchRule flinkLibraryTypesSayWhetherTheyAreApi = classes().that().resideInAPackage("io.ogpm.flink..")
      .and().arePublic().and().areTopLevelClasses()
      .should(carryExactlyOneOf(FLINK_PUBLIC_EVOLVING, FLINK_INTERNAL));

  @ArchTest
  static final ArchRule plainTypesSayWhetherTheyAreApi = classes().that().resideInAnyPackage(PLAIN)
      .and().arePublic().and().areTopLevelClasses()
      .should(carryExactlyOneOf(OGPM_PUBLIC_EVOLVING, OGPM_INTERNAL));

  @ArchTest
  static final ArchRule theFlinkLibrarysTopPackageIsTheApi = noClasses().that().resideInAPackage("io.ogpm.flink")
      .should().beAnnotatedWith(FLINK_INTERNAL)
      .because("io.ogpm.flink holds the API only; internals live in its subpackages");

  @ArchTest
  static final ArchRule apiSignaturesExposeOnlyApiTypes = classes().that(areApi())
      .should(exposeOnlyApiTypes());

  /**
   * The library's internals that the SQL functions may use, each for a reason; no other. The SQL
   * functions are a front end of the library beside the DataStream API, not a user of it, so they
   * may share its internals, but only what perturbing and estimating one value in SQL needs: the
   * mechanism's building blocks (argument checks, OGPM's shape, the polar split, the random
   * streams), and of the Flink library's internals the budget's periods, which LDP_BUDGET shares
   * with the operators' budget. Nothing of the DataStream operators (perturb, aggregate, kafka,
   * typeutils), and nothing internal of the record path, the configuration or the estimators.
   */
  static final Set<String> INTERNALS_OF_THE_SQL_FUNCTIONS = Set.of(
      // LDP_BUDGET: the periods of a budget, as the operators' budget computes them.
      "io.ogpm.flink.budget.BudgetPeriods",
      // Literal arguments checked at planning time with the mechanism specs' own checks.
      "io.ogpm.mechanism.Checks",
      "io.ogpm.mechanism.OgpmShape",
      // LDP_PERTURB_POLAR: the eps split of a polar pair, as the configuration's polar items split it.
      "io.ogpm.mechanism.polar.PolarShares",
      "io.ogpm.mechanism.polar.PolarSplit",
      // The random streams of one value's perturbation: secure, or keyed by record id and field.
      "io.ogpm.mechanism.random.AesCtrSource",
      "io.ogpm.mechanism.random.Identifier",
      "io.ogpm.mechanism.random.KeyedPrf",
      "io.ogpm.mechanism.random.RandomnessMode");

  @ArchTest
  static final ArchRule sqlFunctionsUseOnlyTheInternalsTheyNeed = noClasses().that()
      .resideInAPackage("io.ogpm.flink.table..")
      .should().dependOnClassesThat(DescribedPredicate.describe(
          "are internal types of other packages than io.ogpm.flink.table, but "
              + new TreeSet<>(INTERNALS_OF_THE_SQL_FUNCTIONS)
              + " and their nested types",
          c -> c.getPackageName().startsWith("io.ogpm.") && !c.getPackageName().startsWith("io.ogpm.flink.table")
              && !isApi(c) && !INTERNALS_OF_THE_SQL_FUNCTIONS.contains(topLevel(c).getName())))
      .because("the SQL functions are a front end of the library beside the DataStream API: they share the"
          + " mechanism's building blocks, not the DataStream operators' internals");

  // --- what is API -------------------------------------------------------------------------------

  /** A type of the project's or Flink's API: annotated as such, or public and nested in one that is. */
  static boolean isApi(JavaClass c) {
    if (c.isAnnotatedWith(FLINK_INTERNAL) || c.isAnnotatedWith(OGPM_INTERNAL)) {
      return false;
    }
    if (c.isAnnotatedWith(FLINK_PUBLIC_EVOLVING) || c.isAnnotatedWith(FLINK_PUBLIC)
        || c.isAnnotatedWith(OGPM_PUBLIC_EVOLVING)) {
      return true;
    }
    Optional<JavaClass> outer = c.getEnclosingClass();
    return outer.isPresent() && c.getModifiers().contains(JavaModifier.PUBLIC) && isApi(outer.get());
  }

  /** A type an API signature may name: the JDK's, Kafka's clients', or an API type of Flink or ours. */
  static boolean mayBeExposed(JavaClass c) {
    JavaClass base = c.isArray() ? c.getBaseComponentType() : c;
    if (base.isPrimitive()) {
      return true;
    }
    String name = base.getPackageName();
    if (name.startsWith("java.")) {
      return true;
    }
    // Kafka's client types, which Flink's Kafka connector exposes in its own API.
    if (name.startsWith("org.apache.kafka.")) {
      return true;
    }
    return (name.startsWith("org.apache.flink.") || name.startsWith("io.ogpm.")) && isApi(base);
  }

  static JavaClass topLevel(JavaClass c) {
    return c.getEnclosingClass().map(ArchitectureTest::topLevel).orElse(c);
  }

  static DescribedPredicate<JavaClass> areApi() {
    return DescribedPredicate.describe("are API types of the project", c -> c.getPackageName().startsWith("io.ogpm.")
        && isApi(c));
  }

  /**
   * Public and protected members (not marked {@code @Internal}) and supertypes name only types users
   * may depend on. A SQL function's API is its SQL call, result type and class name (what {@code
   * CREATE FUNCTION} names), not its Java members, which only the planner calls: those are left out.
   */
  static ArchCondition<JavaClass> exposeOnlyApiTypes() {
    return new ArchCondition<>("expose only API types in public signatures") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        if (c.isAssignableTo("org.apache.flink.table.functions.UserDefinedFunction")) {
          return;
        }
        List<String> leaks = new ArrayList<>();
        List<JavaType> supertypes = new ArrayList<>(c.getInterfaces());
        c.getSuperclass().ifPresent(supertypes::add);
        for (JavaType t : supertypes) {
          leaks(t, c.getName() + " extends/implements ", leaks);
        }
        for (JavaMember m : c.getMembers()) {
          if (!exposed(m)) {
            continue;
          }
          String where = m.getFullName() + " ";
          if (m instanceof JavaField f) {
            leaks(f.getType(), where + "has type ", leaks);
          } else if (m instanceof JavaCodeUnit u) {
            leaks(u.getReturnType(), where + "returns ", leaks);
            for (JavaType p : u.getParameterTypes()) {
              leaks(p, where + "takes ", leaks);
            }
          }
        }
        for (String leak : leaks) {
          events.add(SimpleConditionEvent.violated(c, leak));
        }
        if (leaks.isEmpty()) {
          events.add(SimpleConditionEvent.satisfied(c, c.getName() + " exposes only API types"));
        }
      }
    };
  }

  /**
   * Whether a member's signature is the project's choice and part of the API: public or protected,
   * not marked {@code @Internal}, and not an implementation of a method of a supertype from outside
   * the project (Flink's or the JDK's), whose signature that supertype dictates (and the supertype
   * itself is checked).
   */
  static boolean exposed(JavaMember m) {
    Set<JavaModifier> mods = m.getModifiers();
    return (mods.contains(JavaModifier.PUBLIC) || mods.contains(JavaModifier.PROTECTED))
        && !mods.contains(JavaModifier.SYNTHETIC) && !mods.contains(JavaModifier.BRIDGE)
        && !m.isAnnotatedWith(FLINK_INTERNAL) && !m.isAnnotatedWith(OGPM_INTERNAL)
        && !(m instanceof JavaMethod method && implementsForeign(method));
  }

  static boolean implementsForeign(JavaMethod method) {
    List<JavaClass> supertypes = new ArrayList<>(method.getOwner().getAllRawSuperclasses());
    supertypes.addAll(method.getOwner().getAllRawInterfaces());
    for (JavaClass s : supertypes) {
      if (s.getPackageName().startsWith("io.ogpm.")) {
        continue;
      }
      for (JavaMethod m : s.getMethods()) {
        if (m.getName().equals(method.getName())
            && m.getRawParameterTypes().size() == method.getRawParameterTypes().size()) {
          return true;
        }
      }
    }
    return false;
  }

  static void leaks(JavaType type, String where, List<String> out) {
    Set<String> bad = new TreeSet<>();
    for (JavaClass c : type.getAllInvolvedRawTypes()) {
      if (!mayBeExposed(c)) {
        bad.add(c.getName());
      }
    }
    if (!bad.isEmpty()) {
      out.add(where + type.getName() + ": " + String.join(", ", bad) + " is not API");
    }
  }

  static ArchCondition<JavaClass> carryExactlyOneOf(String publicEvolving, String internal) {
    String a = publicEvolving.substring(publicEvolving.lastIndexOf('.') + 1);
    return new ArchCondition<>("carry exactly one of @" + a + " and @Internal (" + publicEvolving.replace("." + a, "")
        + ")") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        int n = (c.isAnnotatedWith(publicEvolving) ? 1 : 0) + (c.isAnnotatedWith(internal) ? 1 : 0);
        events.add(new SimpleConditionEvent(c, n == 1, c.getName() + (n == 0 ? " says neither @" + a + " nor @Internal"
            : n == 1 ? " says one" : " says both @" + a + " and @Internal")));
      }
    };
  }
}
