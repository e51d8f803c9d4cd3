package io.ogpm.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A type (or member) of the project's plain-Java packages that is public only because another
 * package of the project uses it: not for users, and free to change or go without notice, as with
 * Flink's {@code org.apache.flink.annotation.Internal}, whose meaning it has. On a member of a
 * {@link PublicEvolving} type it takes that member out of the API.
 *
 * <p>It exists because these packages ({@code io.ogpm.mechanism}, {@code config}, {@code estimate},
 * {@code record}) must not import Flink, so they cannot carry Flink's annotation. Class retention,
 * as Flink's: read from the class files by the project's architecture tests, absent at run time.
 */
@PublicEvolving
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
public @interface Internal {}
