package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.flink.RawRecord;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.RawRecordSource;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A test that leaves an unbounded job running (it failed before cancelling it, say) does not take
 * the next test's slots: the extension cancels it after the test and waits until it has ended.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LeftoverJobsIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder().taskManagers(1).slotsPerTaskManager(2).build();

  @Test
  @Order(1)
  void aTestLeavesAnUnboundedJobRunning() throws Exception {
    ENV.kafka().createTopic("leftover-raw", 2);
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    env.fromSource(
            RawRecordSource.builder()
                .kafka(KafkaSettings.of(ENV.bootstrapServers()))
                .topics("leftover-raw")
                .groupId("leftover")
                .build(),
            WatermarkStrategy.noWatermarks(),
            "raw")
        .sinkTo(new DiscardingSink<RawRecord>());
    JobClient job = env.executeAsync("left running");
    Await.jobStatus(job, JobStatus.RUNNING);
  }

  @Test
  @Order(2)
  void theNextTestFindsItEndedAndEverySlotFree() throws Exception {
    assertThat(ENV.miniCluster().listJobs().get())
        .extracting(JobStatusMessage::getJobState)
        .containsExactly(JobStatus.CANCELED);
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    env.fromSequence(1, 100).setParallelism(2).sinkTo(new DiscardingSink<Long>()).setParallelism(2);
    assertThat(env.execute("needs every slot").getJobExecutionResult()).isNotNull();
  }
}
