package io.ogpm.cli;

import io.ogpm.jobs.topics.ObservedBroker;
import io.ogpm.jobs.topics.ObservedTopic;
import io.ogpm.jobs.topics.TopicLayout;
import io.ogpm.jobs.topics.TopicSpec;
import io.ogpm.kafka.KafkaTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The Kafka side of {@code ogpm topics}: describes topics and brokers as {@link ObservedTopic} and
 * {@link ObservedBroker} for the audit against a {@link TopicLayout}, creates topics and changes
 * their settings. Each call is bounded by the timeout; a failure is an {@link AdminFailure} with
 * one line naming what failed.
 */
final class KafkaTopicAdmin implements AutoCloseable {
  private final Admin admin;
  private final Duration timeout;

  private KafkaTopicAdmin(Admin admin, Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
  }

  /** An admin client with these client settings ({@code bootstrap.servers} and the rest). */
  static KafkaTopicAdmin create(Map<String, Object> adminConfig, Duration timeout) {
    Map<String, Object> config = new LinkedHashMap<>(adminConfig);
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    config.putIfAbsent("default.api.timeout.ms", millis);
    config.putIfAbsent("request.timeout.ms", millis);
    return new KafkaTopicAdmin(Admin.create(config), timeout);
  }

  /** The topics among {@code names} that exist, by name. */
  Map<String, ObservedTopic> describe(Collection<String> names) {
    Map<String, TopicDescription> found = new LinkedHashMap<>();
    Map<String, ? extends Future<TopicDescription>> futures =
        admin.describeTopics(names).topicNameValues();
    for (String name : names) {
      try {
        found.put(name, futures.get(name).get(timeout.toMillis(), TimeUnit.MILLISECONDS));
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw failure("cannot describe topic '" + name + "'", e.getCause());
        }
      } catch (TimeoutException e) {
        throw new AdminFailure("Kafka did not describe topic '" + name + "' within " + timeout);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AdminFailure("interrupted while describing topic '" + name + "'");
      }
    }
    Map<String, ObservedTopic> out = new LinkedHashMap<>();
    if (found.isEmpty()) {
      return out;
    }
    Map<String, Map<String, String>> configs =
        configs(
            found.keySet().stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n))
                .toList());
    for (TopicDescription d : found.values()) {
      int replicas = d.partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0);
      out.put(
          d.name(),
          new ObservedTopic(
              d.name(), d.partitions().size(), Math.max(1, replicas), configs.get(d.name())));
    }
    return out;
  }

  /** Every broker of the cluster with its effective configuration. */
  List<ObservedBroker> brokers() {
    Collection<Node> nodes = get(admin.describeCluster().nodes(), "describe the cluster");
    Map<String, Map<String, String>> configs =
        configs(
            nodes.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(n.id())))
                .toList());
    List<ObservedBroker> out = new ArrayList<>();
    for (Node n : nodes) {
      out.add(new ObservedBroker(n.id(), configs.get(Integer.toString(n.id()))));
    }
    return out;
  }

  /**
   * Creates a topic as its spec says, and returns once every partition has a leader ({@link
   * KafkaTopics}): the controller acknowledges a creation before the brokers' metadata shows the
   * topic, and a describe right after it could still find nothing.
   */
  void create(TopicSpec spec) {
    NewTopic topic =
        new NewTopic(spec.name(), spec.partitions(), (short) spec.replicationFactor())
            .configs(spec.configs());
    try {
      KafkaTopics.createAndAwait(admin, topic, timeout);
    } catch (KafkaTopics.TopicException e) {
      throw e.getCause() == null || e.getCause() instanceof InterruptedException
          ? new AdminFailure(e.getMessage())
          : failure(e.getMessage(), e.getCause());
    }
  }

  /** Sets these settings of a topic, leaving its others alone. */
  void alter(String topic, Map<String, String> settings) {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    List<AlterConfigOp> ops =
        settings.entrySet().stream()
            .map(
                e ->
                    new AlterConfigOp(
                        new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET))
            .toList();
    get(
        admin.incrementalAlterConfigs(Map.of(resource, ops)).all(),
        "change the settings of topic '" + topic + "'");
  }

  private Map<String, Map<String, String>> configs(List<ConfigResource> resources) {
    Map<ConfigResource, Config> described =
        get(
            admin.describeConfigs(resources).all(),
            "describe the configuration of "
                + resources.stream()
                    .map(r -> r.type().name().toLowerCase(java.util.Locale.ROOT) + " " + r.name())
                    .toList());
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    described.forEach(
        (resource, config) -> {
          Map<String, String> values = new LinkedHashMap<>();
          for (ConfigEntry e : config.entries()) {
            if (e.value() != null) {
              values.put(e.name(), e.value());
            }
          }
          out.put(resource.name(), values);
        });
    return out;
  }

  private <T> T get(org.apache.kafka.common.KafkaFuture<T> future, String what) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw failure("cannot " + what, e.getCause());
    } catch (TimeoutException e) {
      throw new AdminFailure("Kafka did not " + what + " within " + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AdminFailure("interrupted while trying to " + what);
    }
  }

  private static AdminFailure failure(String what, Throwable cause) {
    if (cause instanceof AuthorizationException) {
      return new AdminFailure(what + ": not authorized (" + cause.getMessage() + ")");
    }
    return new AdminFailure(
        what
            + ": "
            + cause.getClass().getSimpleName()
            + (cause.getMessage() == null
                ? ""
                : ": " + cause.getMessage().lines().findFirst().orElse("")));
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }

  /** A Kafka request that failed; the message is one line. */
  static final class AdminFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AdminFailure(String message) {
      super(message);
    }
  }
}
