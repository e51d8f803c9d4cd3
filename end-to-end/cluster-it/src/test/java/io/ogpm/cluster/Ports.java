package io.ogpm.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Free TCP ports on the loopback interface, for servers that must be told their port in advance.
 */
final class Ports {
  private Ports() {}

  /**
   * A port free at the time of the call. Another process could take it before the server binds it;
   * on a test machine that is rare, and the server then fails to start with a clear error.
   */
  static int free() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }
}
