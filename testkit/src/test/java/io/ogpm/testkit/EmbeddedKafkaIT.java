package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.testkit.EmbeddedKafka;
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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kafka through {@link KafkaFixtures}: the in-JVM broker by default, the {@code apache/kafka}
 * container with {@code -Dogpm.kafka=container} and Docker.
 */
@ExtendWith(KafkaFixtureExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EmbeddedKafkaIT {

  @Test
  void readCommittedSeesOnlyCommittedTransaction(KafkaFixture kafka) {
    TransactionScenario.run(kafka, "transactions");
  }

  @Test
  void producesAndConsumesPlainRecords(KafkaFixture kafka) {
    kafka.createTopic("plain", 2, Map.of("cleanup.policy", "delete"));
    List<byte[]> values =
        List.of("a", "b", "c").stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();

    kafka.produce("plain", values);

    List<ConsumerRecord<byte[], byte[]>> read = kafka.consumeAll("plain", true, KafkaFixture.PATIENCE);
    assertThat(read).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .containsExactlyInAnyOrder("a", "b", "c");
  }

  /** Uses {@link EmbeddedKafka} directly: these are properties of the in-JVM broker itself. */
  @Test
  void startsQuietlyOnReleaseVersionAndCloseDeletesDataDirectory() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    Path directory;
    try (EmbeddedKafka kafka = EmbeddedKafka.start(Map.of("num.partitions", "2"))) {
      directory = kafka.dataDirectory();
      assertThat(directory).isDirectory();
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
        FinalizedVersionRange metadataVersion =
            admin.describeFeatures().featureMetadata().get().finalizedFeatures()
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
}
