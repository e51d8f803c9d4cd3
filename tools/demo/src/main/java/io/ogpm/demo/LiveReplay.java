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
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Replays sample records in a loop on a background thread at their real pace (20 ms between rows;
 * the sample is in event-time order, the records of one time stamp are sent together), with the
 * time field set to the wall clock, and keeps what it sent over a recent horizon so the demo can
 * print the truth next to the estimates.
 */
final class LiveReplay implements AutoCloseable {
  private static final long ROW_MS = 20;

  private final Thread thread;

  /**
   * A record sent, and where it landed once acknowledged ({@code partition/offset}, as dead letters
   * name their source).
   */
  private static final class Sent {
    final long time;
    final String line;
    volatile String source;

    Sent(long time, String line) {
      this.time = time;
      this.line = line;
    }
  }

  private final Deque<Sent> sent = new ArrayDeque<>();
  private final long horizonMs;
  private volatile boolean running = true;
  private final java.util.concurrent.atomic.AtomicLong sentCount =
      new java.util.concurrent.atomic.AtomicLong();

  private LiveReplay(
      String bootstrap, String topic, List<String> records, String timeField, Duration horizon) {
    this.horizonMs = horizon.toMillis();
    this.thread = new Thread(() -> loop(bootstrap, topic, records, timeField), "ogpm-demo-replay");
    thread.setDaemon(true);
  }

  static LiveReplay start(
      String bootstrap, String topic, List<String> records, String timeField, Duration horizon) {
    LiveReplay r = new LiveReplay(bootstrap, topic, records, timeField, horizon);
    r.thread.start();
    return r;
  }

  private void loop(String bootstrap, String topic, List<String> records, String timeField) {
    ObjectMapper json = new ObjectMapper();
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.LINGER_MS_CONFIG,
            20);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      while (running) {
        // The sample is in event-time order: the lines of one time stamp (one row of each subject)
        // go out together, then the 20 ms to the next row pass.
        int i = 0;
        while (i < records.size() && running) {
          long now = System.currentTimeMillis();
          Long rowTime = null;
          do {
            String line = records.get(i);
            Long sampleTime = null;
            byte[] key = null;
            try {
              JsonNode root = json.readTree(line);
              if (root instanceof ObjectNode o) {
                JsonNode t = o.get(timeField);
                sampleTime = t != null && t.canConvertToLong() ? t.asLong() : null;
                o.put(timeField, now);
                line = json.writeValueAsString(o);
                key =
                    o.has("user") ? o.get("user").asText().getBytes(StandardCharsets.UTF_8) : null;
              }
            } catch (java.io.IOException e) {
              // Replayed unchanged: it will be dead-lettered.
            }
            if (rowTime != null && sampleTime != null && !sampleTime.equals(rowTime)) {
              break; // the next row: sent after the pause
            }
            rowTime = rowTime == null ? sampleTime : rowTime;
            Sent record = remember(line, now);
            producer.send(
                new ProducerRecord<>(topic, null, now, key, line.getBytes(StandardCharsets.UTF_8)),
                (landed, e) -> {
                  if (landed != null) {
                    record.source = DeadLetterJson.source(landed.partition(), landed.offset());
                  }
                });
            sentCount.incrementAndGet();
            i++;
          } while (i < records.size() && running);
          Thread.sleep(ROW_MS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized Sent remember(String line, long now) {
    Sent s = new Sent(now, line);
    sent.addLast(s);
    while (!sent.isEmpty() && sent.peekFirst().time < now - horizonMs) {
      sent.removeFirst();
    }
    return s;
  }

  /**
   * The records sent within the horizon, except those landed at one of {@code deadSources} ({@code
   * partition/offset}): what the perturbed topic should hold of the horizon.
   */
  synchronized List<String> recent(Set<String> deadSources) {
    List<String> out = new ArrayList<>(sent.size());
    for (Sent s : sent) {
      String source = s.source;
      if (source == null || !deadSources.contains(source)) {
        out.add(s.line);
      }
    }
    return out;
  }

  /** Records sent since the start. */
  long sent() {
    return sentCount.get();
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
