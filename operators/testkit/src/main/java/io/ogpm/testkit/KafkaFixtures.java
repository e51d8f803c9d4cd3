package io.ogpm.testkit;

import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * Chooses where tests get their Kafka from.
 *
 * <p>The container is used only when asked for ({@code -Dogpm.kafka=container}) and a Docker engine
 * answers; otherwise the in-JVM broker. Why opt-in: the embedded broker starts in about 3 s and
 * works everywhere, while probing for Docker is slow and most machines here have none. A request
 * for the container without Docker falls back with a warning rather than failing the build.
 */
public final class KafkaFixtures {

  /** System property that selects the fixture; {@value #CONTAINER} asks for Testcontainers. */
  public static final String PROPERTY = "ogpm.kafka";

  public static final String CONTAINER = "container";

  private static final Logger LOG = LoggerFactory.getLogger(KafkaFixtures.class);

  private KafkaFixtures() {}

  /** Starts the fixture selected as described above. */
  public static KafkaFixture start() {
    return start(Map.of());
  }

  /**
   * Starts the fixture selected as described above, with broker properties over the defaults
   * ({@link EmbeddedKafka#DEFAULT_BROKER_PROPERTIES}, {@link KafkaFixture#TEST_BROKER_PROPERTIES}),
   * for instance {@code log.retention.check.interval.ms} to test retention.
   */
  public static KafkaFixture start(Map<String, String> brokerProperties) {
    if (CONTAINER.equals(System.getProperty(PROPERTY))) {
      if (DockerClientFactory.instance().isDockerAvailable()) {
        return ContainerKafkaFixture.start(brokerProperties);
      }
      LOG.warn(
          "-D{}={} but no Docker engine is available: using the embedded broker",
          PROPERTY,
          CONTAINER);
    }
    Map<String, String> properties = new LinkedHashMap<>(KafkaFixture.TEST_BROKER_PROPERTIES);
    properties.putAll(brokerProperties);
    return EmbeddedKafka.start(properties);
  }
}
