package io.ogpm.testkit;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The transaction check on a stock {@code apache/kafka:4.2.0} container. Skipped, not failed, where
 * there is no Docker engine (as on the build machines here); the embedded broker covers it there.
 */
@Testcontainers(disabledWithoutDocker = true)
@Timeout(value = 3, unit = TimeUnit.MINUTES) // includes pulling the image
class ContainerKafkaIT {

  @Test
  void readCommittedSeesOnlyCommittedTransaction() {
    try (ContainerKafkaFixture kafka = ContainerKafkaFixture.start()) {
      TransactionScenario.run(kafka, "transactions");
    }
  }
}
