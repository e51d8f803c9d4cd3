/**
 * Kafka client calls that the demo, the benchmarks, the command line and the test kit share: {@link
 * io.ogpm.kafka.KafkaTopics} (create a topic and wait until every partition has a leader) and
 * {@link io.ogpm.kafka.KafkaClients} (produce and wait for every acknowledgement, read a topic to
 * its end). The in-JVM broker is in {@link io.ogpm.kafka.embedded}.
 */
package io.ogpm.kafka;
