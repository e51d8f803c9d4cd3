package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.testkit.LdpTestEnvironment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-user budget on the RocksDB state backend with incremental checkpoints, as the Kubernetes
 * deployment runs it: the cases of {@link BudgetIT} (a restore from the last, incremental,
 * checkpoint after a killed task manager; a stop with savepoint and a restore) and of {@link
 * PerturbSavepointIT} (the committed savepoint, written on the heap backend, restores into RocksDB
 * and its spending is enforced). Every job of the class is checked to have run on RocksDB,
 * incrementally. The windows on RocksDB: {@code StandaloneClusterIT} (module cluster-it), whose
 * cluster runs both jobs on it.
 */
class RocksDbStateIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder()
          .taskManagers(2)
          .slotsPerTaskManager(1)
          .flinkConfiguration(rocksDb())
          .build();

  static final ObjectMapper JSON = new ObjectMapper();

  /** BudgetIT's restarts, on RocksDB with incremental checkpoints. */
  static Configuration rocksDb() {
    Configuration conf = FaultToleranceIT.restarts();
    conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
    conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
    conf.setString("state.backend.rocksdb.use-bloom-filter", "true");
    conf.setString("state.backend.rocksdb.memory.partitioned-index-filters", "true");
    return conf;
  }

  @Test
  void theBudgetHoldsAcrossARestoreFromAnIncrementalCheckpointAfterAFailure() throws Exception {
    BudgetIT.budgetHoldsAcrossARestoreFromACheckpointAfterAFailure(ENV, "rocksdb-checkpoint");
  }

  @Test
  void theBudgetHoldsAcrossAStopWithSavepointAndARestore(@TempDir Path dir) throws Exception {
    BudgetIT.budgetHoldsAcrossAStopWithSavepointAndARestore(ENV, "rocksdb-savepoint", dir);
  }

  @Test
  void aSavepointOfTheHeapBackendRestoresIntoRocksDb(@TempDir Path dir) throws Exception {
    PerturbSavepointIT.restoresTheFixtureAndEnforcesItsBudget(ENV, dir);
  }

  /**
   * Each job of the test ran on RocksDB with incremental checkpoints, as its checkpoint
   * configuration says.
   */
  @AfterEach
  void everyJobRanOnRocksDbIncrementally() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    int jobs = 0;
    for (JobStatusMessage job : ENV.miniCluster().listJobs().get()) {
      URI config = ENV.restAddress().resolve("/jobs/" + job.getJobId() + "/checkpoints/config");
      HttpResponse<String> response =
          http.send(HttpRequest.newBuilder(config).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      JsonNode json = JSON.readTree(response.body());
      assertThat(json.path("state_backend").asText())
          .as(job.getJobName())
          .isEqualTo("EmbeddedRocksDBStateBackend");
      jobs++;
    }
    assertThat(jobs).isPositive();
  }
}
