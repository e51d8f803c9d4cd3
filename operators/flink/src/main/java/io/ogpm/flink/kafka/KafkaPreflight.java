package io.ogpm.flink.kafka;

import io.ogpm.config.BudgetClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Checks, before a job is submitted, that its Kafka cluster answers and its topics exist, and fails
 * with one line naming the server, topic or setting at fault.
 *
 * <p>Why: a Flink job pointed at an unreachable broker or a missing topic does not fail; its source
 * and sinks retry, the job restarts, and the only symptom is an endless stream of client warnings.
 * A bounded check here turns that into one clear error at start-up.
 *
 * <p>Reachability is tested with a plain TCP connection to each bootstrap server first: the Kafka
 * admin client would log a warning per reconnection attempt to a server that is down.
 *
 * <p>Public because a job of the user's on the library's Kafka ends needs the same check as the
 * project's own jobs (they use the library's API only).
 */
@PublicEvolving
public final class KafkaPreflight {
  private final KafkaSettings kafka;
  private final Duration timeout;
  private final Map<String, String> topics = new LinkedHashMap<>();
  private final Map<String, String> logAppendTime = new LinkedHashMap<>();

  private KafkaPreflight(KafkaSettings kafka, Duration timeout) {
    this.kafka = kafka;
    this.timeout = timeout;
  }

  /** A check of the cluster {@code kafka} reaches, each step bounded by {@code timeout}. */
  public static KafkaPreflight of(KafkaSettings kafka, Duration timeout) {
    return new KafkaPreflight(kafka, timeout);
  }

  /**
   * Requires a topic; {@code role} names it in messages ({@code "input topic (--input-topic)"}).
   */
  public KafkaPreflight topic(String topic, String role) {
    topics.putIfAbsent(topic, role);
    return this;
  }

  /** Requires a topic whose records carry the broker's log-append time, not the producer's. */
  public KafkaPreflight logAppendTime(String topic, String why) {
    logAppendTime.put(topic, why);
    return this;
  }

  /**
   * Runs the checks.
   *
   * @throws PreflightException with a one-line message naming what is wrong
   */
  public void run() {
    requireReachable();
    try (Admin admin = Admin.create(adminConfig())) {
      for (Map.Entry<String, String> t : topics.entrySet()) {
        requireTopic(admin, t.getKey(), t.getValue());
      }
      for (Map.Entry<String, String> t : logAppendTime.entrySet()) {
        requireLogAppendTime(admin, t.getKey(), t.getValue());
      }
    }
  }

  private Map<String, Object> adminConfig() {
    Map<String, Object> config = kafka.adminConfig();
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    config.putIfAbsent("default.api.timeout.ms", millis);
    config.putIfAbsent("request.timeout.ms", millis);
    return config;
  }

  /** At least one bootstrap server accepts a TCP connection. */
  private void requireReachable() {
    List<String> failures = new ArrayList<>();
    for (String server : kafka.bootstrapServers().split(",")) {
      String s = server.trim();
      int colon = s.lastIndexOf(':');
      if (colon <= 0 || colon == s.length() - 1) {
        throw new PreflightException("--bootstrap-servers: '" + s + "' is not HOST:PORT");
      }
      String host = s.substring(0, colon).replace("[", "").replace("]", "");
      int port;
      try {
        port = Integer.parseInt(s.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new PreflightException("--bootstrap-servers: '" + s + "' is not HOST:PORT");
      }
      try (Socket socket = new Socket()) {
        socket.connect(
            new InetSocketAddress(host, port),
            (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        return;
      } catch (UnknownHostException e) {
        failures.add(s + " (unknown host)");
      } catch (IOException e) {
        failures.add(
            s
                + " ("
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                + ")");
      }
    }
    throw new PreflightException(
        "cannot reach Kafka at " + String.join(", ", failures) + " (--bootstrap-servers)");
  }

  private void requireTopic(Admin admin, String topic, String role) {
    try {
      admin
          .describeTopics(List.of(topic))
          .topicNameValues()
          .get(topic)
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        throw new PreflightException(
            role + " '" + topic + "' does not exist on " + kafka.bootstrapServers());
      }
      throw failure("cannot describe " + role + " '" + topic + "'", e.getCause());
    } catch (TimeoutException e) {
      throw new PreflightException(
          "Kafka at "
              + kafka.bootstrapServers()
              + " did not describe "
              + role
              + " '"
              + topic
              + "' within "
              + timeout
              + " (check --bootstrap-servers and --kafka-properties)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PreflightException("interrupted while checking " + role + " '" + topic + "'");
    }
  }

  private void requireLogAppendTime(Admin admin, String topic, String why) {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config config;
    try {
      config =
          admin
              .describeConfigs(List.of(resource))
              .values()
              .get(resource)
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw failure("cannot read the configuration of topic '" + topic + "'", e.getCause());
    } catch (TimeoutException e) {
      throw new PreflightException(
          "Kafka at "
              + kafka.bootstrapServers()
              + " did not describe the configuration of topic '"
              + topic
              + "' within "
              + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PreflightException("interrupted while checking topic '" + topic + "'");
    }
    ConfigEntry type = config.get(BudgetClock.TOPIC_SETTING);
    String value = type == null ? "CreateTime" : type.value();
    if (!BudgetClock.LOG_APPEND_TIME_VALUE.equals(value)) {
      throw new PreflightException(
          "topic '"
              + topic
              + "' has "
              + BudgetClock.TOPIC_SETTING
              + "="
              + value
              + " but "
              + why
              + " needs "
              + BudgetClock.LOG_APPEND_TIME_VALUE
              + " (kafka-configs.sh --alter --entity-type topics --entity-name "
              + topic
              + " --add-config "
              + BudgetClock.TOPIC_SETTING
              + "="
              + BudgetClock.LOG_APPEND_TIME_VALUE
              + ")");
    }
  }

  private PreflightException failure(String what, Throwable cause) {
    if (cause instanceof AuthorizationException) {
      return new PreflightException(what + ": not authorized (" + cause.getMessage() + ")");
    }
    return new PreflightException(
        what
            + ": "
            + cause.getClass().getSimpleName()
            + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
  }

  /** A failed check: the message is one line for the user. */
  public static final class PreflightException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PreflightException(String message) {
      super(message);
    }
  }
}
