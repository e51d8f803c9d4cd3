package io.ogpm.demo;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.kafka.KafkaClients;
import java.io.PrintWriter;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What the batch run and the follow mode start from: the options, the parsed configuration, the
 * records to replay, the running broker with the demo's topics, the Flink configuration of the web
 * UI, and the console.
 */
record DemoSetup(
    Demo.Options options,
    PrivacyConfig config,
    List<String> records,
    String bootstrapServers,
    KafkaSettings kafka,
    Configuration flink,
    PrintWriter out) {

  /** A local environment with the web UI: each job of the demo runs in one. */
  StreamExecutionEnvironment environment() {
    return StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(flink);
  }

  /** Every committed record of one of the demo's topics, up to its end as of the call. */
  List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
    return KafkaClients.consumeAll(bootstrapServers, topic, true, Demo.READ_TIMEOUT);
  }

  /**
   * The truth of raw records, in the demo's windows, groups and bins; each field over the records
   * {@code reported} says reported it.
   */
  GroundTruth truth(List<String> rawRecords, GroundTruth.Reported reported) {
    return GroundTruth.of(
        rawRecords,
        config,
        Demo.TIME_FIELD,
        Demo.GROUP_FIELD,
        options.window().toMillis(),
        options.bins(),
        reported);
  }
}
