package io.ogpm.cluster;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * What a Flink cluster with ZooKeeper high availability keeps in ZooKeeper, read as Flink's own
 * clients read it: under {@code high-availability.zookeeper.path.root} and the cluster id, the
 * leader's address ({@code leader/rest_server/connection_info}, an ephemeral node: gone when the
 * leader's session expires) and each job's completed checkpoints ({@code jobs/<id>/checkpoints},
 * one node per checkpoint, named by its id). Each read opens its own short session.
 */
final class FlinkHaState {
  private static final int SESSION_MILLIS = 10_000;

  private final String connectString;
  private final String root;

  /** {@code root}: {@code path.root} and {@code cluster-id} joined, e.g. {@code /flink/ogpm}. */
  FlinkHaState(String connectString, String root) {
    this.connectString = connectString;
    this.root = root;
  }

  /** The leading JobManager's REST address (e.g. {@code http://127.0.0.1:8081}), if one leads. */
  Optional<String> leaderRestAddress() {
    return data(root + "/leader/rest_server/connection_info").map(FlinkHaState::leaderAddress);
  }

  /** The id of the job's latest checkpoint in the HA store: the one a new leader restores. */
  OptionalLong latestCheckpoint(String jobId) {
    return children(root + "/jobs/" + jobId + "/checkpoints").stream()
        .mapToLong(Long::parseLong)
        .max();
  }

  /**
   * Flink's leader information: {@code writeUTF(address)} then the session id, with Java
   * serialization ({@code ZooKeeperUtils.writeLeaderInformationToZooKeeper}).
   */
  private static String leaderAddress(byte[] data) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(data))) {
      return in.readUTF();
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable leader information", e);
    }
  }

  private Optional<byte[]> data(String path) {
    return read(zk -> Optional.ofNullable(zk.getData(path, false, null)), Optional.empty());
  }

  private List<String> children(String path) {
    return read(zk -> new ArrayList<>(zk.getChildren(path, false)), List.of());
  }

  private interface Read<T> {
    T from(ZooKeeper zk) throws KeeperException, InterruptedException;
  }

  /** {@code read} in a session of its own; {@code absent} if the node does not exist. */
  private <T> T read(Read<T> read, T absent) {
    CountDownLatch connected = new CountDownLatch(1);
    try {
      ZooKeeper zk =
          new ZooKeeper(
              connectString,
              SESSION_MILLIS,
              event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                  connected.countDown();
                }
              });
      try {
        if (!connected.await(SESSION_MILLIS, TimeUnit.MILLISECONDS)) {
          throw new IllegalStateException(
              "no ZooKeeper session at " + connectString + " within " + SESSION_MILLIS + " ms");
        }
        return read.from(zk);
      } catch (KeeperException.NoNodeException e) {
        return absent;
      } finally {
        zk.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to ZooKeeper at " + connectString, e);
    } catch (KeeperException e) {
      throw new IllegalStateException("ZooKeeper at " + connectString + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
