package io.ogpm.benchmarks;

import java.nio.file.Path;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;

/** The state backends the benchmarks compare, by the names of Flink's {@code state.backend.type}. */
final class StateBackends {
  /** RocksDB's memory (block cache and write buffers) per slot. */
  static final MemorySize SLOT_MEMORY = MemorySize.parse("256mb");

  private StateBackends() {}

  /** {@code hashmap}, or {@code rocksdb} with incremental checkpoints, as the jobs' deployments set it. */
  static StateBackend named(String name) {
    return named(name, null);
  }

  /** As {@link #named(String)}, RocksDB's files in {@code rocksDbDirectory} (null: the task's temporary directory). */
  static StateBackend named(String name, Path rocksDbDirectory) {
    return switch (name) {
      case "hashmap" -> new HashMapStateBackend();
      case "rocksdb" -> {
        EmbeddedRocksDBStateBackend rocksDb = new EmbeddedRocksDBStateBackend(true);
        // A task slot's share of managed memory on a task manager of a few GiB. The harness's
        // mock environment has a few MiB of managed memory, whose write buffers would flush on
        // nearly every write and measure the stalls instead.
        rocksDb.getMemoryConfiguration().setFixedMemoryPerSlot(SLOT_MEMORY);
        if (rocksDbDirectory != null) {
          rocksDb.setDbStoragePath(rocksDbDirectory.toString());
        }
        yield rocksDb;
      }
      default -> throw new IllegalArgumentException("backend: hashmap or rocksdb, got " + name);
    };
  }
}
