/**
 * The project's own statement of stability for its plain-Java packages ({@code io.ogpm.mechanism},
 * {@code config}, {@code estimate}, {@code record}), which must not import Flink: {@link
 * io.ogpm.annotation.PublicEvolving} (API users may depend on) and {@link
 * io.ogpm.annotation.Internal} (public for the project's own packages only), meaning what Flink's
 * annotations of the same names mean. Every public top-level type of those packages carries exactly
 * one of them; the Flink library ({@code io.ogpm.flink}) uses Flink's own. The architecture tests
 * in {@code io.ogpm.architecture} enforce both.
 */
package io.ogpm.annotation;
