package io.ogpm.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Flink's SQL Gateway as its own JVM against a {@link FlinkCluster}, started as {@code
 * sql-gateway.sh start} would ({@code org.apache.flink.table.gateway.SqlGateway}, the cluster's
 * {@code lib/} and {@code conf/}, the gateway jar from {@code opt/}), and a client of its REST
 * endpoint (API version 2): sessions, statements, results.
 */
final class SqlGateway {
  static final String MAIN = "org.apache.flink.table.gateway.SqlGateway";
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

  private final URI endpoint;

  private SqlGateway(URI endpoint) {
    this.endpoint = endpoint;
  }

  /** Starts the gateway and returns once its REST endpoint answers. */
  static SqlGateway start(ManagedProcesses processes, FlinkCluster cluster, Path gatewayJar) {
    int port = Ports.free();
    List<String> command = cluster.java(List.of("-Xmx768m"), "sql-gateway", gatewayJar);
    command.add(MAIN);
    command.addAll(
        List.of(
            "-Dsql-gateway.endpoint.rest.address=localhost",
            "-Dsql-gateway.endpoint.rest.port=" + port));
    ManagedProcesses.ManagedProcess process =
        processes.start(
            "sql-gateway",
            command,
            Map.of("FLINK_CONF_DIR", cluster.conf().toString()),
            cluster.logs().resolve("sql-gateway.out"),
            cluster.logs().resolve("sql-gateway.log"));
    SqlGateway gateway = new SqlGateway(URI.create("http://localhost:" + port));
    Await.until(
        "the SQL Gateway answers on port " + port,
        () -> {
          FlinkCluster.requireAlive(process);
          return FlinkRest.status(gateway.endpoint.resolve("/v2/info"));
        },
        s -> s == 200);
    return gateway;
  }

  /** Opens a session; returns its handle. */
  String openSession() {
    return post("/v2/sessions", JSON.createObjectNode()).get("sessionHandle").asText();
  }

  /**
   * Executes one statement and returns the rows of its result, each as its list of fields (for a
   * statement that runs a job, once the job's result is complete).
   *
   * @throws AssertionError with the gateway's error if the statement fails
   */
  List<JsonNode> execute(String session, String statement) {
    var body = JSON.createObjectNode();
    body.put("statement", statement);
    String operation =
        post("/v2/sessions/" + session + "/statements", body).get("operationHandle").asText();
    List<JsonNode> rows = new ArrayList<>();
    String next =
        "/v2/sessions/" + session + "/operations/" + operation + "/result/0?rowFormat=JSON";
    long deadline = System.nanoTime() + KafkaFixture.PATIENCE.toNanos();
    while (next != null) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "no complete result within " + KafkaFixture.PATIENCE + " for: " + statement);
      }
      JsonNode page = get(next, statement);
      String type = page.path("resultType").asText();
      if (type.equals("NOT_READY")) {
        sleep();
        continue;
      }
      page.path("results").path("data").forEach(row -> rows.add(row.path("fields")));
      if (type.equals("EOS")) {
        break;
      }
      String uri = page.path("nextResultUri").asText(null);
      next =
          uri == null
              ? null
              : uri
                  + (uri.contains("rowFormat")
                      ? ""
                      : (uri.contains("?") ? "&" : "?") + "rowFormat=JSON");
    }
    return rows;
  }

  private JsonNode post(String path, JsonNode body) {
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(endpoint.resolve(path))
                  .header("Content-Type", "application/json")
                  .timeout(Duration.ofMinutes(2))
                  .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new AssertionError("POST " + path + ": HTTP " + r.statusCode() + ": " + r.body());
      }
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private JsonNode get(String path, String statement) {
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(endpoint.resolve(path))
                  .timeout(Duration.ofMinutes(2))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new AssertionError(
            "the SQL Gateway failed: " + statement + "\nHTTP " + r.statusCode() + ": " + r.body());
      }
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
