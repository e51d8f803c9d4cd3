/**
 * {@link io.ogpm.kafka.embedded.EmbeddedBroker}: a Kafka broker inside this JVM, for the demo, the
 * benchmarks and the test kit, none of which may need Docker.
 */
package io.ogpm.kafka.embedded;
