package io.ogpm.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading Prometheus's text format as Flink's reporter writes it. */
class PrometheusTest {
  @Test
  void sumsTheSamplesOfAMetricOverItsLabels() {
    List<Prometheus.Sample> samples =
        Prometheus.parse(
            String.join(
                "\n",
                "# HELP flink_taskmanager_job_task_operator_recordsPerturbed recordsPerturbed (scope: taskmanager_job_task_operator)",
                "# TYPE flink_taskmanager_job_task_operator_recordsPerturbed gauge",
                "flink_taskmanager_job_task_operator_recordsPerturbed{operator_name=\"privacy_budget\",subtask_index=\"0\",} 1466.0",
                "flink_taskmanager_job_task_operator_recordsPerturbed{operator_name=\"privacy_budget\",subtask_index=\"1\",} 1532.0",
                "flink_taskmanager_job_task_operator_reason_recordsDeadLettered{reason=\"missing-field\",} 1.0",
                "flink_taskmanager_job_task_operator_reason_recordsDeadLettered{reason=\"malformed-json\",} 0.0",
                "flink_taskmanager_job_task_operator_notRecordsPerturbed 7.0",
                "flink_jobmanager_numRunningJobs 2.0",
                ""));
    assertThat(samples).hasSize(6);
    assertThat(Prometheus.sum(samples, "recordsPerturbed")).isEqualTo(2998.0);
    assertThat(Prometheus.count(samples, "recordsPerturbed")).isEqualTo(2);
    assertThat(Prometheus.sum(samples, "recordsDeadLettered")).isEqualTo(1.0);
    assertThat(Prometheus.sum(samples, "numRunningJobs")).isEqualTo(2.0);
  }
}
