package io.ogpm.benchmarks;

import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;

/**
 * The state backends the benchmarks compare, by the names of Flink's {@code state.backend.type}.
 */
final class StateBackends {
  /** RocksDB's memory (block cache and write buffers) per slot. */
  static final MemorySize SLOT_MEMORY = MemorySize.parse("256mb");

  private StateBackends() {}

  /**
   * {@code hashmap}; {@code rocksdb} as the deployments set it (incremental checkpoints, Bloom
   * filters, partitioned index and filter blocks); {@code rocksdb-plain}, incremental checkpoints
   * and Flink's defaults otherwise.
   */
  static StateBackend named(String name) {
    return named(name, null);
  }

  /**
   * As {@link #named(String)}, RocksDB's files in {@code rocksDbDirectory} (null: the task's
   * temporary directory).
   */
  static StateBackend named(String name, Path rocksDbDirectory) {
    return switch (name) {
      case "hashmap" -> new HashMapStateBackend();
      case "rocksdb-plain" -> rocksDb(rocksDbDirectory);
      case "rocksdb" -> {
        // Without them, a user's lookup reads an SST file's whole index block: once the index of
        // millions of users no longer fits the block cache, each record pays a read of it.
        Configuration c = new Configuration();
        c.set(RocksDBConfigurableOptions.USE_BLOOM_FILTER, true);
        c.set(RocksDBOptions.USE_PARTITIONED_INDEX_FILTERS, true);
        yield rocksDb(rocksDbDirectory).configure(c, StateBackends.class.getClassLoader());
      }
      default ->
          throw new IllegalArgumentException(
              "backend: hashmap, rocksdb or rocksdb-plain, got " + name);
    };
  }

  private static EmbeddedRocksDBStateBackend rocksDb(Path directory) {
    EmbeddedRocksDBStateBackend rocksDb = new EmbeddedRocksDBStateBackend(true);
    // A task slot's share of managed memory on a task manager of a few GiB. The harness's mock
    // environment has a few MiB of managed memory, whose write buffers would flush on nearly every
    // write and measure the stalls instead.
    rocksDb.getMemoryConfiguration().setFixedMemoryPerSlot(SLOT_MEMORY);
    if (directory != null) {
      rocksDb.setDbStoragePath(directory.toString());
    }
    return rocksDb;
  }
}
