package io.ogpm.cluster;

import io.ogpm.testkit.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An Apache ZooKeeper 3.9 server in its own JVM, as an operator runs a one-node ensemble: {@code
 * org.apache.zookeeper.server.ZooKeeperServerMain} with a {@code zoo.cfg} (what {@code zkServer.sh
 * start} runs). The class path is this test's, which holds {@code zookeeper} from Maven Central,
 * and {@code slf4jBinding} so that the server logs (the test class path has no SLF4J binding).
 */
final class ZooKeeperServer {
  static final String MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain";

  /**
   * A tick of 2 s (the sample zoo.cfg's; the server's own default is 3 s): clients may ask for
   * sessions of 4 s to 40 s, and a session whose client is gone expires when its timeout passes.
   */
  static final int TICK_MILLIS = 2000;

  private final ManagedProcesses.ManagedProcess process;
  private final String connectString;

  private ZooKeeperServer(ManagedProcesses.ManagedProcess process, String connectString) {
    this.process = process;
    this.connectString = connectString;
  }

  /**
   * Writes {@code zoo.cfg} under {@code dir}, starts the server and returns once it answers {@code
   * ruok}.
   */
  static ZooKeeperServer start(ManagedProcesses processes, Path dir, Path slf4jBinding) {
    int port = Ports.free();
    Path config = dir.resolve("zoo.cfg");
    Path logConfig = dir.resolve("log4j2.properties");
    try {
      Files.createDirectories(dir.resolve("data"));
      Files.write(
          config,
          List.of(
              "tickTime=" + TICK_MILLIS,
              "dataDir=" + dir.resolve("data"),
              "clientPort=" + port,
              "clientPortAddress=127.0.0.1",
              // No AdminServer (an HTTP server on port 8080 by default); the four-letter words the
              // test asks.
              "admin.enableServer=false",
              "4lw.commands.whitelist=ruok,srvr"),
          StandardCharsets.UTF_8);
      Files.writeString(logConfig, JavaCommand.consoleLog4j(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                JavaCommand.java(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path") + java.io.File.pathSeparator + slf4jBinding,
                "-Dlog4j2.configurationFile=" + logConfig.toUri(),
                MAIN,
                config.toString()));
    ManagedProcesses.ManagedProcess process =
        processes.start("zookeeper", command, Map.of(), dir.resolve("zookeeper.log"));
    ZooKeeperServer server = new ZooKeeperServer(process, "127.0.0.1:" + port);
    Await.until(
        "ZooKeeper at " + server.connectString + " answers ruok",
        () -> {
          FlinkCluster.requireAlive(process);
          return fourLetterWord(port, "ruok");
        },
        "imok"::equals);
    return server;
  }

  /** What Flink's {@code high-availability.zookeeper.quorum} names: {@code host:port}. */
  String connectString() {
    return connectString;
  }

  /** The server's answer to a four-letter word, or "" if it does not answer (yet). */
  static String fourLetterWord(int port, String word) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(5000);
      socket.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
      socket.shutdownOutput();
      try (InputStream in = socket.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
      }
    } catch (IOException e) {
      return "";
    }
  }
}
