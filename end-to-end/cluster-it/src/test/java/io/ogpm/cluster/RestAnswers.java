package io.ogpm.cluster;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a REST API answers over time: its HTTP status polled every quarter second on a thread of its
 * own, each change kept with the seconds since the start, until it answers 200 or is stopped. What
 * an operator's script or load balancer sees of a JobManager's failover.
 */
final class RestAnswers implements AutoCloseable {
  private final List<String> changes = new ArrayList<>();
  private final Thread poller;
  private volatile boolean stopped;

  private RestAnswers(URI uri) {
    long start = System.nanoTime();
    poller =
        new Thread(
            () -> {
              int last = Integer.MIN_VALUE;
              while (!stopped) {
                int status = FlinkRest.status(uri);
                if (status != last) {
                  synchronized (changes) {
                    changes.add(
                        String.format(
                            Locale.ROOT,
                            "%s from %.1f s",
                            status < 0 ? "no answer" : Integer.toString(status),
                            (System.nanoTime() - start) / 1e9));
                  }
                  last = status;
                }
                if (status == 200) {
                  return;
                }
                try {
                  Thread.sleep(250);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "rest-answers");
    poller.setDaemon(true);
    poller.start();
  }

  /** Starts polling {@code uri} now. */
  static RestAnswers poll(URI uri) {
    return new RestAnswers(uri);
  }

  /** The changes so far: "500 from 0.0 s", "503 from 15.2 s", "200 from 18.3 s". */
  List<String> changes() {
    synchronized (changes) {
      return List.copyOf(changes);
    }
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    poller.interrupt();
    poller.join(10_000);
  }
}
