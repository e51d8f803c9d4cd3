/**
 * Testing Flink jobs that use ogpm-flink, on a real Kafka broker and a real Flink MiniCluster.
 *
 * <ul>
 *   <li>{@link io.ogpm.testkit.LdpTestEnvironment}: the JUnit 5 extension: a broker and a
 *       MiniCluster (Flink's {@code MiniClusterExtension}) per test class, the jobs' metrics
 *       ({@link io.ogpm.testkit.CapturedMetrics}).
 *   <li>{@link io.ogpm.testkit.KafkaFixture}: topics, producing records ({@link
 *       io.ogpm.testkit.TestRecord}), reading committed output to its end ({@link
 *       io.ogpm.testkit.KafkaRecord}), waiting for a count ({@link io.ogpm.testkit.Await}); started
 *       by {@link io.ogpm.testkit.KafkaFixtures} (in this JVM: {@link
 *       io.ogpm.testkit.EmbeddedKafka}; in Docker: {@link io.ogpm.testkit.ContainerKafkaFixture}),
 *       alone by {@link io.ogpm.testkit.KafkaFixtureExtension}.
 *   <li>{@link io.ogpm.testkit.PrivacyAssertions}: the privacy contract checked on what a job
 *       wrote: every input accounted for, no undeclared field, dead letters without raw values,
 *       perturbed values on their output grid.
 * </ul>
 *
 * <p>docs/testkit.md, "A complete test", shows one.
 */
package io.ogpm.testkit;
