package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The kit's builders validate with messages that name the bad value; nothing runs before start. */
class LdpTestEnvironmentTest {
  @Test
  void theBuilderNamesTheBadValue() {
    assertThatThrownBy(() -> LdpTestEnvironment.builder().taskManagers(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("taskManagers: must be >= 1, got 0");
    assertThatThrownBy(() -> LdpTestEnvironment.builder().slotsPerTaskManager(-1).build())
        .hasMessage("slotsPerTaskManager: must be >= 1, got -1");
    assertThatThrownBy(
            () ->
                LdpTestEnvironment.builder()
                    .taskManagers(2)
                    .slotsPerTaskManager(2)
                    .parallelism(5)
                    .build())
        .hasMessage(
            "parallelism: must be between 1 and the 4 slots (2 task managers x 2 slots), got 5");
    assertThatThrownBy(() -> LdpTestEnvironment.builder().brokerProperty("a", null))
        .hasMessage("broker property a");
  }

  @Test
  void theDefaultsAreOneTaskManagerWithTwoSlotsAndEverySlotUsed() {
    LdpTestEnvironment env = new LdpTestEnvironment();
    assertThat(env.slots()).isEqualTo(2);
    assertThat(env.parallelism()).isEqualTo(2);
    assertThat(LdpTestEnvironment.builder().taskManagers(3).build().parallelism()).isEqualTo(6);
    assertThat(LdpTestEnvironment.builder().taskManagers(3).parallelism(1).build().parallelism())
        .isEqualTo(1);
  }

  @Test
  void anEnvironmentNotStartedByJUnitSaysHowToRegisterIt() {
    LdpTestEnvironment env = LdpTestEnvironment.builder().build();
    assertThatThrownBy(env::kafka)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("register it on a static field");
    assertThatThrownBy(env::executionEnvironment)
        .hasMessageContaining("register it on a static field");
    assertThatThrownBy(() -> env.beforeEach(null))
        .isInstanceOf(org.junit.jupiter.api.extension.ExtensionConfigurationException.class)
        .hasMessageContaining("@RegisterExtension static final LdpTestEnvironment");
  }

  @Test
  void aTestRecordBecomesTheProducerRecordItDescribes() {
    ProducerRecord<byte[], byte[]> r =
        TestRecord.json("{\"x\":1}")
            .withKey("k")
            .withPartition(1)
            .withTimestamp(Instant.ofEpochMilli(42))
            .withHeader("h", "v")
            .toProducerRecord("t");
    assertThat(r.topic()).isEqualTo("t");
    assertThat(r.partition()).isEqualTo(1);
    assertThat(r.timestamp()).isEqualTo(42);
    assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("k");
    assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("{\"x\":1}");
    assertThat(new String(r.headers().lastHeader("h").value(), StandardCharsets.UTF_8))
        .isEqualTo("v");
    ProducerRecord<byte[], byte[]> plain = TestRecord.value(null).toProducerRecord("t");
    assertThat(plain.partition()).isNull();
    assertThat(plain.timestamp()).isNull();
    assertThat(plain.key()).isNull();
    assertThatThrownBy(() -> TestRecord.json("{}").withTimestamp(-1))
        .hasMessage("timestamp: must be >= 0 epoch milliseconds, got -1");
    assertThatThrownBy(() -> TestRecord.json("{}").withPartition(-2))
        .hasMessage("partition: must be >= 0, got -2");
  }

  @Test
  void aKafkaRecordShowsItsCoordinatesNotItsValue() {
    KafkaRecord r =
        new KafkaRecord(
            "t", 2, 7, 0, null, "SECRET".getBytes(StandardCharsets.UTF_8), java.util.Map.of());
    assertThat(r).hasToString("t-2@7");
    assertThat(r.valueAsString()).isEqualTo("SECRET");
    assertThat(r.keyAsString()).isNull();
    assertThat(r.header("x")).isNull();
  }

  @Test
  void theContainersBrokerPropertiesAreTheImagesEnvironmentVariables() {
    assertThat(ContainerKafkaFixture.environmentVariable("log.retention.check.interval.ms"))
        .isEqualTo("KAFKA_LOG_RETENTION_CHECK_INTERVAL_MS");
  }
}
