package io.ogpm.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ClusterOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job jar submitted the way the web UI does it, through Flink's REST API ({@code /jars/upload},
 * {@code /jars/:id/run}): {@code main} then runs inside the JobManager, here the JVM of this test.
 * The cluster turns {@code System.exit} from user code into an exception ({@code
 * cluster.intercept-user-system-exit: THROW}), so a {@code main} that exits fails the submission
 * instead of killing the test. Checked: a submission returns a job id, runs at the parallelism of
 * the request with the configuration given inline, and processes the input; a bad configuration
 * comes back as the command's one-line message.
 */
class RestSubmissionIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder()
          .slotsPerTaskManager(4)
          .flinkConfiguration(clusterConfiguration())
          .build();

  static final ObjectMapper JSON = new ObjectMapper();
  static final String CONFIG =
      "{passthrough: [i], fields: [{name: x, min: 0, max: 1, epsilon: 1}]}";
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofMinutes(1)).build();

  /**
   * The cluster's settings. The Kafka connector is on this JVM's class path (a real cluster's lib/
   * has no connector), and Flink loads org.apache.flink classes parent-first: the Kafka client must
   * come from the same place, or the jar's own copy clashes with the connector's signatures.
   */
  static Configuration clusterConfiguration() {
    Configuration conf = new Configuration();
    conf.set(ClusterOptions.INTERCEPT_USER_SYSTEM_EXIT, ClusterOptions.UserSystemExitMode.THROW);
    conf.set(
        CoreOptions.ALWAYS_PARENT_FIRST_LOADER_PATTERNS_ADDITIONAL, List.of("org.apache.kafka."));
    return conf;
  }

  @Test
  void aRestSubmissionRunsAtTheRequestedParallelismAndNeverExitsTheJobManager(KafkaFixture kafka)
      throws Exception {
    Path jar = Path.of(System.getProperty("ogpm.job.jar", "target/ogpm-job.jar"));
    assertThat(jar).as("the job jar (mvn package builds it before this integration test)").exists();
    for (String t : new String[] {"r-raw", "r-out", "r-dead"}) {
      kafka.createTopic(t, 2);
    }
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      values.add("{\"i\":" + i + ",\"x\":0.25}");
    }
    List<KafkaRecord> inputs = kafka.produceJson("r-raw", values);
    URI rest = ENV.restAddress();
    String jarId = upload(rest, jar);

    HttpResponse<String> bad =
        run(
            rest,
            jarId,
            2,
            "perturb-job",
            "--config-yaml",
            "{fields: [{name: x, min: 1, max: 0, epsilon: 1}]}",
            "--bootstrap-servers",
            kafka.bootstrapServers());
    assertThat(bad.statusCode()).isGreaterThanOrEqualTo(400);
    assertThat(bad.body())
        .contains("ogpm: --config-yaml: field 'x'")
        .doesNotContain("UserSystemExitException");

    HttpResponse<String> good =
        run(
            rest,
            jarId,
            2,
            "perturb-job",
            "--config-yaml",
            CONFIG,
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--input-topic",
            "r-raw",
            "--output-topic",
            "r-out",
            "--dead-letter-topic",
            "r-dead",
            "--checkpoint-interval",
            "1s");
    assertThat(good.statusCode()).as(good.body()).isEqualTo(200);
    String jobId = JSON.readTree(good.body()).get("jobid").asText();
    JsonNode job = JSON.readTree(get(rest.resolve("/jobs/" + jobId)).body());
    assertThat(job.get("vertices")).isNotEmpty();
    job.get("vertices")
        .forEach(
            v -> assertThat(v.get("parallelism").asInt()).as(v.get("name").asText()).isEqualTo(2));

    List<KafkaRecord> perturbed = kafka.awaitCommitted("r-out", 200);
    PrivacyAssertions.assertPrivacyContract(
        PrivacyConfig.parse(CONFIG), inputs, perturbed, kafka.readCommitted("r-dead"));
    HttpResponse<String> cancel =
        HTTP.send(
            HttpRequest.newBuilder(rest.resolve("/jobs/" + jobId + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(cancel.statusCode()).isEqualTo(202);
    Await.until("job " + jobId + " cancelled", () -> state(rest, jobId), "CANCELED"::equals);
  }

  private static String state(URI rest, String jobId) {
    try {
      return JSON.readTree(get(rest.resolve("/jobs/" + jobId)).body()).get("state").asText();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String upload(URI rest, Path jar) throws Exception {
    String boundary = "ogpm" + System.nanoTime();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(
        ("--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\"ogpm-job.jar\"\r\n"
                + "Content-Type: application/x-java-archive\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
    body.write(Files.readAllBytes(jar));
    body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(rest.resolve("/jars/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String file = JSON.readTree(r.body()).get("filename").asText();
    return file.substring(file.lastIndexOf('/') + 1);
  }

  private static HttpResponse<String> run(URI rest, String jarId, int parallelism, String... args)
      throws Exception {
    ObjectNode request = JSON.createObjectNode();
    request.put("parallelism", parallelism);
    args(request, args);
    return HTTP.send(
        HttpRequest.newBuilder(rest.resolve("/jars/" + jarId + "/run"))
            .header("Content-Type", "application/json")
            .timeout(Duration.ofMinutes(5))
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request)))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void args(ObjectNode request, String... args) {
    var list = request.putArray("programArgsList");
    for (String a : args) {
      list.add(a);
    }
  }

  private static HttpResponse<String> get(URI uri) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(1)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
