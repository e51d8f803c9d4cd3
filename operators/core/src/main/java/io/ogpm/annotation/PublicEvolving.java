package io.ogpm.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A type (or member) of the project's plain-Java packages that users may depend on: its public and
 * protected members are the API, which may still change between minor versions, as with Flink's
 * {@code org.apache.flink.annotation.PublicEvolving}, whose meaning it has.
 *
 * <p>It exists because these packages ({@code io.ogpm.mechanism}, {@code config}, {@code estimate},
 * {@code record}) must not import Flink, so they cannot carry Flink's annotation. Class retention,
 * as Flink's: read from the class files by the project's architecture tests, absent at run time.
 */
@PublicEvolving
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
public @interface PublicEvolving {}
