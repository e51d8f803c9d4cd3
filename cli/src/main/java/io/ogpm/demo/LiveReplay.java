package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Replays sample records in a loop on a background thread at their real pace (20 ms between
 * rows of a subject; four subjects side by side), with the time field set to the wall clock, and
 * keeps what it sent over a recent horizon so the demo can print the truth next to the estimates.
 */
final class LiveReplay implements AutoCloseable {
  private static final int SUBJECTS_SIDE_BY_SIDE = 4;
  private static final long ROW_MS = 20;

  private final Thread thread;
  private record Sent(long time, String line) {}

  private final Deque<Sent> sent = new ArrayDeque<>();
  private final long horizonMs;
  private volatile boolean running = true;

  private LiveReplay(String bootstrap, String topic, List<String> records, String timeField, Duration horizon) {
    this.horizonMs = horizon.toMillis();
    this.thread = new Thread(() -> loop(bootstrap, topic, records, timeField), "ogpm-demo-replay");
    thread.setDaemon(true);
  }

  static LiveReplay start(String bootstrap, String topic, List<String> records, String timeField, Duration horizon) {
    LiveReplay r = new LiveReplay(bootstrap, topic, records, timeField, horizon);
    r.thread.start();
    return r;
  }

  private void loop(String bootstrap, String topic, List<String> records, String timeField) {
    ObjectMapper json = new ObjectMapper();
    Map<String, Object> config = Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
        ProducerConfig.LINGER_MS_CONFIG, 20);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      while (running) {
        for (int i = 0; i < records.size() && running; i += SUBJECTS_SIDE_BY_SIDE) {
          long now = System.currentTimeMillis();
          for (int j = i; j < Math.min(i + SUBJECTS_SIDE_BY_SIDE, records.size()); j++) {
            String line = records.get(j);
            byte[] key = null;
            try {
              JsonNode root = json.readTree(line);
              if (root instanceof ObjectNode o) {
                o.put(timeField, now);
                line = json.writeValueAsString(o);
                key = o.has("user") ? o.get("user").asText().getBytes(StandardCharsets.UTF_8) : null;
              }
            } catch (java.io.IOException e) {
              // Replayed unchanged: it will be dead-lettered.
            }
            producer.send(new ProducerRecord<>(topic, null, now, key, line.getBytes(StandardCharsets.UTF_8)));
            remember(line, now);
          }
          Thread.sleep(ROW_MS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void remember(String line, long now) {
    sent.addLast(new Sent(now, line));
    while (!sent.isEmpty() && sent.peekFirst().time() < now - horizonMs) {
      sent.removeFirst();
    }
  }

  /** The records sent within the horizon. */
  synchronized List<String> recent() {
    List<String> out = new ArrayList<>(sent.size());
    for (Sent s : sent) {
      out.add(s.line());
    }
    return out;
  }

  void stop() {
    running = false;
    thread.interrupt();
  }

  @Override
  public void close() {
    stop();
  }
}
