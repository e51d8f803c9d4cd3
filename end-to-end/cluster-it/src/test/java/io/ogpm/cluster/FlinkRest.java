package io.ogpm.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.testkit.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Flink's REST API, as the web UI and a user's scripts use it: jars uploaded and run, jobs, their
 * failures and checkpoints.
 */
final class FlinkRest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

  private final URI address;

  FlinkRest(URI address) {
    this.address = address;
  }

  URI address() {
    return address;
  }

  /** GET on the REST API, as JSON. */
  JsonNode getJson(String path) {
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(address.resolve(path))
                  .timeout(Duration.ofSeconds(30))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(
            "GET " + path + ": HTTP " + r.statusCode() + ": " + r.body());
      }
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Uploads a jar as the web UI's "Submit New Job" does ({@code POST /jars/upload}); returns its
   * id.
   */
  String uploadJar(Path jar) {
    String boundary = "ogpm" + System.nanoTime();
    try {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      body.write(
          ("--"
                  + boundary
                  + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                  + jar.getFileName()
                  + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
              .getBytes(StandardCharsets.UTF_8));
      body.write(Files.readAllBytes(jar));
      body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(address.resolve("/jars/upload"))
                  .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                  .timeout(Duration.ofMinutes(2))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new AssertionError("POST /jars/upload: HTTP " + r.statusCode() + ": " + r.body());
      }
      String file = JSON.readTree(r.body()).get("filename").asText();
      return file.substring(file.lastIndexOf('/') + 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs an uploaded jar ({@code POST /jars/:id/run}) with these program arguments; returns the
   * response.
   */
  HttpResponse<String> runJar(String jarId, int parallelism, List<String> args) {
    var request = JSON.createObjectNode();
    request.put("parallelism", parallelism);
    var list = request.putArray("programArgsList");
    args.forEach(list::add);
    try {
      return HTTP.send(
          HttpRequest.newBuilder(address.resolve("/jars/" + jarId + "/run"))
              .header("Content-Type", "application/json")
              .timeout(Duration.ofMinutes(5))
              .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request)))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits until every task of the job runs; a failed job fails the wait with its exceptions. */
  void awaitRunning(String jobId) {
    Await.until(
        "every task of job " + jobId + " running",
        () -> {
          for (JsonNode job : getJson("/jobs/overview").path("jobs")) {
            if (job.path("jid").asText().equals(jobId)) {
              if (job.path("state").asText().equals("FAILED")) {
                throw new AssertionError(
                    "job " + jobId + " failed: " + getJson("/jobs/" + jobId + "/exceptions"));
              }
              JsonNode tasks = job.path("tasks");
              return tasks.path("running").asInt() == tasks.path("total").asInt()
                  && job.path("state").asText().equals("RUNNING");
            }
          }
          return false;
        },
        running -> running);
  }

  /** Waits until a bounded job has finished; a job that fails or is cancelled fails the wait. */
  void awaitFinished(String jobId) {
    Await.until(
        "job " + jobId + " finished",
        () -> {
          String state = getJson("/jobs/" + jobId).path("state").asText();
          if (state.equals("FAILED") || state.equals("CANCELED")) {
            throw new AssertionError(
                "job " + jobId + " is " + state + ": " + getJson("/jobs/" + jobId + "/exceptions"));
          }
          return state;
        },
        "FINISHED"::equals);
  }

  /** The ids of the jobs that are running (or about to). */
  List<String> runningJobs() {
    List<String> ids = new java.util.ArrayList<>();
    for (JsonNode job : getJson("/jobs/overview").path("jobs")) {
      String state = job.path("state").asText();
      if (!state.equals("FINISHED") && !state.equals("CANCELED") && !state.equals("FAILED")) {
        ids.add(job.path("jid").asText());
      }
    }
    return ids;
  }

  /** Cancels a job ({@code PATCH /jobs/:id?mode=cancel}) and waits until it is cancelled. */
  void cancel(String jobId) {
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(address.resolve("/jobs/" + jobId + "?mode=cancel"))
                  .timeout(Duration.ofSeconds(30))
                  .method("PATCH", HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 202) {
        throw new IllegalStateException(
            "PATCH /jobs/" + jobId + "?mode=cancel: HTTP " + r.statusCode() + ": " + r.body());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cancel " + jobId, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Await.until(
        "job " + jobId + " cancelled",
        () -> getJson("/jobs/" + jobId).path("state").asText(),
        "CANCELED"::equals);
  }

  /** Whether the job has recorded a failure (a restart followed, or will). */
  boolean failedOver(String jobId) {
    return getJson("/jobs/" + jobId + "/exceptions").path("exceptionHistory").path("entries").size()
        > 0;
  }

  /** The id of the job's latest completed checkpoint. */
  long latestCompletedCheckpoint(String jobId) {
    JsonNode completed =
        getJson("/jobs/" + jobId + "/checkpoints").path("latest").path("completed");
    assertThat(completed.isObject())
        .as("job " + jobId + " completed a checkpoint before the kill")
        .isTrue();
    return completed.path("id").asLong();
  }

  /** The id of the checkpoint the job last restored, once it reports one. */
  long restoredCheckpoint(String jobId) {
    JsonNode restored =
        Await.until(
            "job " + jobId + " reports its restore",
            () -> getJson("/jobs/" + jobId + "/checkpoints").path("latest").path("restored"),
            JsonNode::isObject);
    assertThat(restored.path("is_savepoint").asBoolean()).isFalse();
    return restored.path("id").asLong();
  }

  /** The HTTP status of a GET, or -1 if nothing answers. */
  static int status(URI uri) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
