package io.ogpm.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.kafka.KafkaTopics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Properties of the in-JVM broker itself, and of creating topics on it. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EmbeddedBrokerIT {

  @Test
  void startsQuietlyOnReleaseVersionAndCloseDeletesDataDirectory() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    Path directory;
    try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of("num.partitions", "2"))) {
      directory = kafka.dataDirectory();
      assertThat(directory).isDirectory();
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
        FinalizedVersionRange metadataVersion =
            admin
                .describeFeatures()
                .featureMetadata()
                .get()
                .finalizedFeatures()
                .get("metadata.version");
        assertThat(metadataVersion.maxVersionLevel())
            .isEqualTo(MetadataVersion.latestProduction().featureLevel());
      }
    } finally {
      System.setOut(stdout);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(Files.exists(directory)).isFalse();
  }

  /**
   * A created topic is ready at once: all its partitions, each with a leader; creating it again
   * fails with one line naming the topic, the broker's error as the cause.
   */
  @Test
  void aCreatedTopicHasALeaderForEveryPartitionAndASecondCreationFailsNamingIt() throws Exception {
    try (EmbeddedBroker kafka = EmbeddedBroker.start();
        Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      kafka.createTopic("ready", 3, Map.of("retention.ms", "-1"));
      TopicDescription d =
          admin.describeTopics(List.of("ready")).allTopicNames().get().get("ready");
      assertThat(d.partitions()).hasSize(3).allSatisfy(p -> assertThat(p.leader()).isNotNull());

      assertThatThrownBy(
              () ->
                  KafkaTopics.createAndAwait(
                      admin, new NewTopic("ready", 1, (short) 1), Duration.ofMinutes(1)))
          .isInstanceOf(KafkaTopics.TopicException.class)
          .hasMessage("cannot create topic 'ready'")
          .hasCauseInstanceOf(TopicExistsException.class);
    }
  }
}
