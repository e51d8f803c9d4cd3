package io.ogpm.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static io.ogpm.architecture.ArchitectureRules.FLINK_INTERNAL;
import static io.ogpm.architecture.ArchitectureRules.FLINK_PUBLIC_EVOLVING;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The DataStream library's layout: only the API's entry points ({@link #ENTRY_POINTS}) wire its
 * internals, the API needs no Kafka connector, no package cycles (the top package counted as its
 * entry points and its value types), every public type annotated with Flink's
 * {@code @PublicEvolving} or {@code @Internal}, no {@code @Internal} type in the top package {@code
 * io.ogpm.flink} (the API), API signatures that name only API types.
 */
@AnalyzeClasses(packages = "io.ogpm.flink", importOptions = ImportOption.DoNotIncludeTests.class)
class FlinkArchitectureTest {
  static final String API = "io.ogpm.flink";

  /**
   * The types of the top package that may use its subpackages, each for a reason: the builders,
   * which wire the internals into the user's job. Everything else in the top package (the record
   * types, {@code RecordAccess}, {@code FieldReader}, {@code KeySource}...) is what users hold and
   * pass around; it uses no subpackage, so that the API does not drag the operators, the state or
   * Kafka along.
   */
  static final Set<String> ENTRY_POINTS =
      Set.of(
          // Adds the perturb operators (perturb), the per-user budget (budget) and the perturbed
          // records' Flink type (typeutils) to the user's stream, and checks a record type against
          // the configuration (perturb's RecordShape) where the job is built.
          "io.ogpm.flink.LdpPerturbation",
          // Adds the two-phase aggregation (aggregate) to the user's stream, and makes the
          // aggregation's readers of perturbed values (parser, fromRecords) and its watermarks.
          "io.ogpm.flink.LdpAggregation");

  /**
   * The one internal a value type of the API names: its Flink type information, value type to the
   * top-level class of its factory. Flink finds the serializer of a type through the {@code
   * TypeInfo} annotation on the type itself, the idiom of Flink's own types; the factory is
   * internal (it changes with the serialized form), and only Flink's type extractor calls it. It is
   * a dependency all the same (the annotation names the factory's class), so it is named here
   * rather than hidden, and exempted from the rules below: the factory depends on the type, so
   * without this exception the pair would be a cycle.
   */
  static final Map<String, String> TYPE_INFORMATION_FACTORIES =
      Map.of("io.ogpm.flink.PerturbedRecord", "io.ogpm.flink.typeutils.PerturbedRecordTypeInfo");

  /**
   * Slices for the cycle check: each subpackage, and the top package in two, its entry points and
   * its value types and interfaces (declared before the rules that use it).
   */
  static final SliceAssignment ENTRY_POINTS_VALUE_TYPES_AND_SUBPACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
          String name = c.getPackageName();
          if (name.equals(API)) {
            return SliceIdentifier.of(
                isEntryPoint(c) ? API + " (entry points)" : API + " (value types and interfaces)");
          }
          if (name.startsWith(API + ".")) {
            return SliceIdentifier.of(API + "." + name.substring(API.length() + 1).split("\\.")[0]);
          }
          return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
          return "the subpackages of " + API + ", its entry points, and its value types";
        }
      };

  @ArchTest
  static final ArchRule onlyTheEntryPointsUseTheSubpackages =
      classes()
          .that()
          .resideInAPackage(API)
          .should(useNoSubpackageUnlessAnEntryPoint())
          .because(
              "the API's value types and interfaces are what users hold and pass around: if they"
                  + " used the internals, every user of a record type would take the operators"
                  + " (and Kafka) along, and the internals that use the record types would close a"
                  + " cycle through the API");

  @ArchTest
  static final ArchRule theApiNeedsNoKafkaConnector =
      noClasses()
          .that()
          .resideInAPackage(API)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(API + ".kafka..", "org.apache.flink.connector.kafka..")
          .because(
              "the Kafka glue (io.ogpm.flink.kafka) uses the API, never the reverse: a job that"
                  + " perturbs or aggregates records from elsewhere needs no Kafka connector (the"
                  + " record types name Kafka's TimestampType of kafka-clients, no more)");

  @ArchTest static final ArchRule noCyclesAmongThePackages = noCyclesAmongThePackages();

  @ArchTest
  static final ArchRule publicTypesSayWhetherTheyAreApi =
      ArchitectureRules.publicTypesSayWhetherTheyAreApi(
          FLINK_PUBLIC_EVOLVING, FLINK_INTERNAL, "io.ogpm.flink..");

  @ArchTest
  static final ArchRule theTopPackageIsTheApi =
      noClasses()
          .that()
          .resideInAPackage(API)
          .should()
          .beAnnotatedWith(FLINK_INTERNAL)
          .because("io.ogpm.flink holds the API only; internals live in its subpackages");

  @ArchTest
  static final ArchRule apiSignaturesExposeOnlyApiTypes =
      ArchitectureRules.apiSignaturesExposeOnlyApiTypes();

  /**
   * No cycles between the subpackages and the two halves of the top package: its entry points, and
   * its value types and interfaces. (Slicing by {@code io.ogpm.flink.(*)..} alone would leave the
   * top package out, and the cycles through it unseen.) The one way is: entry points, then the
   * subpackages, then the value types.
   */
  static ArchRule noCyclesAmongThePackages() {
    SliceRule rule =
        slices().assignedFrom(ENTRY_POINTS_VALUE_TYPES_AND_SUBPACKAGES).should().beFreeOfCycles();
    for (Map.Entry<String, String> e : TYPE_INFORMATION_FACTORIES.entrySet()) {
      rule =
          rule.ignoreDependency(
              topLevelIs(e.getKey()), topLevelIs(e.getValue())); // named above, with its reason
    }
    return rule.because(
        "the internal packages depend on one another one way (budget on perturb, kafka on"
            + " aggregate), the entry points wire them, and all of them use the API's value types,"
            + " which use none of them");
  }

  static boolean isEntryPoint(JavaClass c) {
    return ENTRY_POINTS.contains(ArchitectureRules.topLevel(c).getName());
  }

  static DescribedPredicate<JavaClass> topLevelIs(String name) {
    return DescribedPredicate.describe(
        name + " or a type nested in it",
        c -> ArchitectureRules.topLevel(c).getName().equals(name));
  }

  /**
   * A type of the top package uses its subpackages only if it is (or is nested in) an entry point,
   * or to name its own type information factory.
   */
  static ArchCondition<JavaClass> useNoSubpackageUnlessAnEntryPoint() {
    return new ArchCondition<>(
        "use no type of its subpackages unless they are one of the entry points "
            + new TreeSet<>(ENTRY_POINTS)
            + " (or nested in one), but for their type information "
            + new TreeMap<>(TYPE_INFORMATION_FACTORIES)) {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        if (isEntryPoint(c)) {
          return;
        }
        String origin = ArchitectureRules.topLevel(c).getName();
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
          JavaClass target = d.getTargetClass();
          if (!target.getPackageName().startsWith(API + ".")
              || ArchitectureRules.topLevel(target)
                  .getName()
                  .equals(TYPE_INFORMATION_FACTORIES.get(origin))) {
            continue;
          }
          events.add(
              SimpleConditionEvent.violated(
                  d,
                  origin
                      + " is a value type or interface of the API, not an entry point, and uses "
                      + target.getName()
                      + " of the internals: "
                      + d.getDescription()));
        }
      }
    };
  }
}
