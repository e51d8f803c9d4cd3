/**
 * The topics of the jobs' deployment (raw, perturbed, dead letters, stats) with the settings the
 * jobs rely on, each with its reason ({@link io.ogpm.jobs.topics.TopicLayout}), whose defaults are
 * the jobs' own topic names; and the audit of existing topics and brokers against it ({@link
 * io.ogpm.jobs.topics.TopicAudit}). Decisions only, no Kafka client: {@code ogpm topics} describes,
 * creates and changes the topics, and the demo creates them on its broker.
 */
package io.ogpm.jobs.topics;
