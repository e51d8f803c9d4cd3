/**
 * The topics of a deployment (raw, perturbed, dead letters, stats) with the settings the jobs rely
 * on, each with its reason ({@link io.ogpm.kafka.topics.TopicLayout}); the audit of existing topics
 * and brokers against it ({@link io.ogpm.kafka.topics.TopicAudit}); and the Kafka side that
 * describes, creates and changes them ({@link io.ogpm.kafka.topics.KafkaTopicAdmin}). One layout
 * for {@code ogpm topics} and the demo, which creates it on its embedded broker.
 */
package io.ogpm.kafka.topics;
