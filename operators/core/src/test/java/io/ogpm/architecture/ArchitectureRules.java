package io.ogpm.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
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
 * The library's layout rules that Maven cannot express, shared by the architecture tests of its
 * artifacts (ArchUnit, on their class files, as Flink's connectors guard theirs): which types are
 * API, that every public type says whether users may depend on it, and that the API's signatures
 * expose only API types. Maven keeps the layers apart (the core compiles without Flink, the
 * DataStream library without the Table API); these rules hold within and between packages.
 */
public final class ArchitectureRules {
  public static final String FLINK_PUBLIC_EVOLVING = "org.apache.flink.annotation.PublicEvolving";
  public static final String FLINK_PUBLIC = "org.apache.flink.annotation.Public";
  public static final String FLINK_INTERNAL = "org.apache.flink.annotation.Internal";
  public static final String OGPM_PUBLIC_EVOLVING = "io.ogpm.annotation.PublicEvolving";
  public static final String OGPM_INTERNAL = "io.ogpm.annotation.Internal";

  private ArchitectureRules() {}

  /** The API's signatures, in the classes a test imports, name only API types. */
  public static ArchRule apiSignaturesExposeOnlyApiTypes() {
    return classes().that(areApi()).should(exposeOnlyApiTypes());
  }

  /**
   * Every public top-level type of the packages carries exactly one of the two annotations: it says
   * whether users may depend on it.
   */
  public static ArchRule publicTypesSayWhetherTheyAreApi(
      String publicEvolving, String internal, String... packages) {
    return classes()
        .that()
        .resideInAnyPackage(packages)
        .and()
        .arePublic()
        .and()
        .areTopLevelClasses()
        .should(carryExactlyOneOf(publicEvolving, internal));
  }

  // --- what is API -------------------------------------------------------------------------------

  /**
   * A type of the project's or Flink's API: annotated as such, or public and nested in one that is.
   */
  public static boolean isApi(JavaClass c) {
    if (c.isAnnotatedWith(FLINK_INTERNAL) || c.isAnnotatedWith(OGPM_INTERNAL)) {
      return false;
    }
    if (c.isAnnotatedWith(FLINK_PUBLIC_EVOLVING)
        || c.isAnnotatedWith(FLINK_PUBLIC)
        || c.isAnnotatedWith(OGPM_PUBLIC_EVOLVING)) {
      return true;
    }
    Optional<JavaClass> outer = c.getEnclosingClass();
    return outer.isPresent()
        && c.getModifiers().contains(JavaModifier.PUBLIC)
        && isApi(outer.get());
  }

  /**
   * A type an API signature may name: the JDK's, Kafka's clients', or an API type of Flink or ours.
   */
  public static boolean mayBeExposed(JavaClass c) {
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

  public static JavaClass topLevel(JavaClass c) {
    return c.getEnclosingClass().map(ArchitectureRules::topLevel).orElse(c);
  }

  public static DescribedPredicate<JavaClass> areApi() {
    return DescribedPredicate.describe(
        "are API types of the project", c -> c.getPackageName().startsWith("io.ogpm.") && isApi(c));
  }

  /**
   * Public and protected members (not marked {@code @Internal}) and supertypes name only types
   * users may depend on. A SQL function's API is its SQL call, result type and class name (what
   * {@code CREATE FUNCTION} names), not its Java members, which only the planner calls: those are
   * left out.
   */
  public static ArchCondition<JavaClass> exposeOnlyApiTypes() {
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
  public static boolean exposed(JavaMember m) {
    Set<JavaModifier> mods = m.getModifiers();
    return (mods.contains(JavaModifier.PUBLIC) || mods.contains(JavaModifier.PROTECTED))
        && !mods.contains(JavaModifier.SYNTHETIC)
        && !mods.contains(JavaModifier.BRIDGE)
        && !m.isAnnotatedWith(FLINK_INTERNAL)
        && !m.isAnnotatedWith(OGPM_INTERNAL)
        && !(m instanceof JavaMethod method && implementsForeign(method));
  }

  public static boolean implementsForeign(JavaMethod method) {
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

  public static void leaks(JavaType type, String where, List<String> out) {
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

  public static ArchCondition<JavaClass> carryExactlyOneOf(String publicEvolving, String internal) {
    String a = publicEvolving.substring(publicEvolving.lastIndexOf('.') + 1);
    return new ArchCondition<>(
        "carry exactly one of @"
            + a
            + " and @Internal ("
            + publicEvolving.replace("." + a, "")
            + ")") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        int n = (c.isAnnotatedWith(publicEvolving) ? 1 : 0) + (c.isAnnotatedWith(internal) ? 1 : 0);
        events.add(
            new SimpleConditionEvent(
                c,
                n == 1,
                c.getName()
                    + (n == 0
                        ? " says neither @" + a + " nor @Internal"
                        : n == 1 ? " says one" : " says both @" + a + " and @Internal")));
      }
    };
  }
}
