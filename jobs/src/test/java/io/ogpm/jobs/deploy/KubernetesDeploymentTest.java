package io.ogpm.jobs.deploy;

import static io.ogpm.jobs.deploy.DeployFiles.given;
import static io.ogpm.jobs.deploy.DeployFiles.parse;
import static io.ogpm.jobs.deploy.DeployFiles.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.jobs.cli.OgpmJobs;
import io.ogpm.mechanism.random.SecretKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParseResult;

/**
 * docker/kubernetes/: the Flink Kubernetes Operator's FlinkDeployments of both jobs, checked
 * structurally (no cluster here): arguments the jobs' command line accepts, savepoint upgrades with
 * checkpoint and savepoint storage, the Prometheus reporter with its port exposed, the key read
 * from a mounted Secret file (and only by the job that needs it), the configuration from a
 * ConfigMap, and the same jobs as docker/docker-compose.yml (topics, options, parallelism).
 */
class KubernetesDeploymentTest {
  static final String DIR = "docker/kubernetes";
  static final String MAIN_CONTAINER = "flink-main-container";

  static Path repo;
  static JsonNode perturb;
  static JsonNode aggregate;
  static List<JsonNode> manifests;
  static ComposeDeployment compose;

  @BeforeAll
  static void load() throws IOException {
    repo = DeployFiles.repoRoot();
    List<JsonNode> deployments =
        DeployFiles.readDocuments(repo.resolve(DIR + "/flink-deployment.yaml"));
    assertThat(deployments).hasSize(2);
    for (JsonNode d : deployments) {
      String job = d.path("spec").path("job").path("args").path(0).asText();
      if (job.equals("perturb-job")) {
        perturb = d;
      } else if (job.equals("aggregate-job")) {
        aggregate = d;
      }
    }
    assertThat(perturb).as("a FlinkDeployment running perturb-job").isNotNull();
    assertThat(aggregate).as("a FlinkDeployment running aggregate-job").isNotNull();
    manifests = new ArrayList<>();
    for (String file : List.of("ogpm-config.yaml", "ogpm-key-secret.yaml", "pod-monitor.yaml")) {
      manifests.addAll(DeployFiles.readDocuments(repo.resolve(DIR + "/" + file)));
    }
    compose = ComposeDeployment.load(repo);
  }

  @Test
  void bothJobsAreFlinkDeploymentsOfTheFlinkVersionWeBuildAgainst() throws IOException {
    String flinkVersion =
        DeployFiles.pomProperty(Files.readString(repo.resolve("pom.xml")), "flink.version");
    Matcher mm = Pattern.compile("(\\d+)\\.(\\d+)\\.\\d+").matcher(flinkVersion);
    assertThat(mm.matches()).as(flinkVersion).isTrue();
    String operatorVersion = "v" + mm.group(1) + "_" + mm.group(2);

    String dockerfile = Files.readString(repo.resolve(DIR + "/Dockerfile"));
    assertThat(dockerfile)
        .containsPattern("(?m)^FROM flink:" + Pattern.quote(flinkVersion) + "-java17\\s*$");
    for (JsonNode d : List.of(perturb, aggregate)) {
      String name = d.path("metadata").path("name").asText();
      JsonNode spec = d.path("spec");
      assertThat(d.path("apiVersion").asText()).as(name).isEqualTo("flink.apache.org/v1beta1");
      assertThat(d.path("kind").asText()).as(name).isEqualTo("FlinkDeployment");
      assertThat(spec.path("flinkVersion").asText()).as(name).isEqualTo(operatorVersion);
      assertThat(spec.path("image").asText())
          .as(name)
          .isEqualTo(perturb.path("spec").path("image").asText());
      // Application mode: the jar is in the image, at the path the Dockerfile copies it to.
      String jarUri = spec.path("job").path("jarURI").asText();
      assertThat(jarUri).as(name).startsWith("local:///");
      assertThat(dockerfile)
          .containsPattern(
              "(?m)^COPY .*jobs/target/ogpm-job\\.jar "
                  + Pattern.quote(jarUri.substring("local://".length()))
                  + "\\s*$");
      assertThat(spec.path("job").path("entryClass").asText())
          .as(name)
          .isEqualTo(OgpmJobs.class.getName());
      // Older operators' CRDs take string values only.
      spec.path("flinkConfiguration")
          .fields()
          .forEachRemaining(
              e ->
                  assertThat(e.getValue().isTextual())
                      .as("%s: flinkConfiguration %s is a string", name, e.getKey())
                      .isTrue());
    }
  }

  /**
   * Both deployments log as the Compose cluster does: Flink's default less the pendingCommittables
   * name collision that every checkpoint repeats (the same file, mounted there).
   */
  @Test
  void bothDeploymentsLogWithTheComposeClustersConfiguration() throws IOException {
    String file = Files.readString(repo.resolve("docker/log4j-console.properties"));
    for (JsonNode d : List.of(perturb, aggregate)) {
      assertThat(d.path("spec").path("logConfiguration").path("log4j-console.properties").asText())
          .isEqualTo(file);
    }
    assertThat(file).contains("logger.metricgroup.filter.pending.onMatch = DENY");
  }

  @Test
  void jobArgumentsParseWithTheJobsCommandLine() {
    ParseResult p = parse(args(perturb));
    assertThat(p.subcommand().commandSpec().name()).isEqualTo("perturb-job");
    assertThat(given(p, "--bootstrap-servers")).isNotBlank();
    ParseResult a = parse(args(aggregate));
    assertThat(a.subcommand().commandSpec().name()).isEqualTo("aggregate-job");
  }

  /** Stateful upgrades: stop with a savepoint, restore from it; checkpoints on shared storage. */
  @Test
  void upgradesGoThroughSavepointsWithCheckpointAndSavepointStorage() {
    List<String> directories = new ArrayList<>();
    for (JsonNode d : List.of(perturb, aggregate)) {
      String name = d.path("metadata").path("name").asText();
      JsonNode job = d.path("spec").path("job");
      assertThat(job.path("upgradeMode").asText()).as(name).isEqualTo("savepoint");
      assertThat(job.path("state").asText()).as(name).isEqualTo("running");
      JsonNode conf = d.path("spec").path("flinkConfiguration");
      assertThat(conf.path("execution.checkpointing.storage").asText())
          .as(name)
          .isEqualTo("filesystem");
      assertThat(conf.path("execution.checkpointing.externalized-checkpoint-retention").asText())
          .as(name)
          .isEqualTo("RETAIN_ON_CANCELLATION");
      for (String key :
          List.of(
              "execution.checkpointing.dir",
              "execution.checkpointing.savepoint-dir",
              "high-availability.storageDir")) {
        String dir = conf.path(key).asText();
        // Pods come and go: a local file:// path would vanish with them.
        assertThat(dir)
            .as("%s: %s", name, key)
            .matches("[a-z0-9]+://\\S+")
            .doesNotStartWith("file:");
        directories.add(dir);
      }
      assertThat(conf.path("high-availability.type").asText()).as(name).isEqualTo("kubernetes");
      // Per-user budgets and windows outgrow a heap: RocksDB, whose checkpoints upload only new
      // files.
      assertThat(conf.path("state.backend.type").asText()).as(name).isEqualTo("rocksdb");
      assertThat(conf.path("execution.checkpointing.incremental").asText())
          .as(name)
          .isEqualTo("true");
      assertThat(conf.path("state.backend.rocksdb.use-bloom-filter").asText())
          .as(name)
          .isEqualTo("true");
      assertThat(conf.path("state.backend.rocksdb.memory.partitioned-index-filters").asText())
          .as(name)
          .isEqualTo("true");
    }
    assertThat(directories)
        .as("each job has its own checkpoint, savepoint and HA directories")
        .doesNotHaveDuplicates();
  }

  /**
   * A JobManager that can die: Kubernetes high availability, its metadata on storage every
   * JobManager pod reaches, and a standby JobManager (which the operator accepts only with high
   * availability on) to take over from the leader; docs/high-availability.md says what each does.
   */
  @Test
  void eachJobHasAStandbyJobManagerWithKubernetesHighAvailability() {
    for (JsonNode d : List.of(perturb, aggregate)) {
      String name = d.path("metadata").path("name").asText();
      JsonNode conf = d.path("spec").path("flinkConfiguration");
      assertThat(conf.path("high-availability.type").asText()).as(name).isEqualTo("kubernetes");
      assertThat(conf.path("high-availability.storageDir").asText())
          .as(name)
          .startsWith("s3://ogpm-flink/");
      assertThat(d.path("spec").path("jobManager").path("replicas").asInt())
          .as(name + ": JobManager replicas")
          .isEqualTo(2);
      // The operator names the cluster after the resource: no cluster id of our own to collide.
      assertThat(conf.has("kubernetes.cluster-id")).as(name).isFalse();
    }
  }

  /** Every JobManager and TaskManager pod serves Prometheus metrics on a named, annotated port. */
  @Test
  void prometheusReporterIsConfiguredAndItsPortExposed() {
    Map<String, String> composeProperties = compose.flinkProperties("taskmanager");
    for (JsonNode d : List.of(perturb, aggregate)) {
      String name = d.path("metadata").path("name").asText();
      JsonNode conf = d.path("spec").path("flinkConfiguration");
      assertThat(conf.path("metrics.reporter.prom.factory.class").asText())
          .as(name)
          .isEqualTo(DockerComposeConfigTest.PROMETHEUS_FACTORY);
      String port = conf.path("metrics.reporter.prom.port").asText();
      assertThat(port).as(name).isEqualTo(composeProperties.get("metrics.reporter.prom.port"));

      JsonNode template = d.path("spec").path("podTemplate");
      JsonNode metrics = null;
      for (JsonNode p : mainContainer(template).path("ports")) {
        if (p.path("name").asText().equals("metrics")) {
          metrics = p;
        }
      }
      assertThat(metrics).as(name + ": a container port named metrics").isNotNull();
      assertThat(metrics.path("containerPort").asText()).as(name).isEqualTo(port);
      JsonNode annotations = template.path("metadata").path("annotations");
      assertThat(annotations.path("prometheus.io/scrape").asText()).as(name).isEqualTo("true");
      assertThat(annotations.path("prometheus.io/port").asText()).as(name).isEqualTo(port);

      // The PodMonitor selects these pods and scrapes that port.
      JsonNode monitor = manifest("PodMonitor", "ogpm-flink");
      monitor
          .path("spec")
          .path("selector")
          .path("matchLabels")
          .fields()
          .forEachRemaining(
              e ->
                  assertThat(template.path("metadata").path("labels").path(e.getKey()).asText())
                      .as(name + " label " + e.getKey())
                      .isEqualTo(e.getValue().asText()));
      assertThat(monitor.path("spec").path("podMetricsEndpoints").path(0).path("port").asText())
          .isEqualTo("metrics");
    }
  }

  /**
   * The perturb job's key comes from a Secret mounted as a file on the JobManager (main checks it)
   * and the task managers (the subtasks read it), passed as a path; the template holds no usable
   * key; the aggregate job, which never needs the key, does not mount it.
   */
  @Test
  void perturbJobReadsTheKeyFromAMountedSecretFile(@TempDir Path tmp) throws IOException {
    ParseResult p = parse(args(perturb));
    String keyFile = given(p, "--key-file");
    assertThat(keyFile).as("--key-file").isNotNull();
    assertThat(given(p, "--key-env")).isNull();

    JsonNode spec = perturb.path("spec");
    // The spec-level pod template applies to the JobManager and the task managers alike.
    assertThat(spec.path("jobManager").has("podTemplate")).isFalse();
    assertThat(spec.path("taskManager").has("podTemplate")).isFalse();
    MountedFile mounted =
        mountedFile(spec.path("podTemplate"), keyFile)
            .orElseGet(
                () -> fail("--key-file " + keyFile + " is not on a volume of " + MAIN_CONTAINER));
    JsonNode secretVolume = mounted.volume.path("secret");
    assertThat(secretVolume.isObject())
        .as("the key's volume is a Secret: " + mounted.volume)
        .isTrue();
    assertThat(mounted.readOnly).isTrue();

    JsonNode secret = manifest("Secret", secretVolume.path("secretName").asText());
    JsonNode template = secret.path("stringData").path(mounted.key);
    assertThat(template.isMissingNode()).as("key %s in the Secret template", mounted.key).isFalse();
    // No real key in git: the template's value is one the job refuses.
    Path templateKey =
        Files.writeString(tmp.resolve("key"), template.asText(), StandardCharsets.UTF_8);
    assertThatThrownBy(() -> SecretKeys.fromFile(templateKey))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must hold at least 16 bytes");
    assertThat(secret.has("data")).as("no base64 key either").isFalse();

    // Nothing in the job's configuration refers to the key.
    assertThat(text(spec.path("flinkConfiguration")).toLowerCase())
        .doesNotContain("ogpm-key")
        .doesNotContain("secret");
    // The aggregate job has no Secret volume at all.
    for (JsonNode volume :
        aggregate.path("spec").path("podTemplate").path("spec").path("volumes")) {
      assertThat(volume.has("secret"))
          .as("aggregate job volume " + volume.path("name").asText())
          .isFalse();
    }
  }

  /** Both jobs read the sample configuration, as Compose mounts it, from a ConfigMap. */
  @Test
  void configurationComesFromAConfigMapWithTheSampleConfiguration() throws IOException {
    String sample = Files.readString(repo.resolve("sample-data/ogpm.yaml"));
    for (JsonNode d : List.of(perturb, aggregate)) {
      String name = d.path("metadata").path("name").asText();
      String config = given(parse(args(d)), "--config");
      MountedFile mounted =
          mountedFile(d.path("spec").path("podTemplate"), config)
              .orElseGet(
                  () ->
                      fail(
                          name
                              + ": --config "
                              + config
                              + " is not on a volume of "
                              + MAIN_CONTAINER));
      JsonNode configMap =
          manifest("ConfigMap", mounted.volume.path("configMap").path("name").asText());
      assertThat(configMap.path("data").path(mounted.key).asText())
          .as(name + ": the ConfigMap's " + mounted.key)
          .isEqualTo(sample);
    }
  }

  /**
   * The same jobs as the Compose deployment (with its keyed override): the same topics and every
   * option but where Kafka, the configuration and the key are; the same parallelism, within the raw
   * topic's partitions.
   */
  @Test
  void composeAndKubernetesRunTheSameJobs() {
    for (JsonNode d : List.of(perturb, aggregate)) {
      ParseResult kubernetes = parse(args(d));
      String job = kubernetes.subcommand().commandSpec().name();
      ParseResult docker = parse(compose.jobArguments(job, true));
      assertThat(DeployFiles.sharedOptions(kubernetes))
          .as(job)
          .isEqualTo(DeployFiles.sharedOptions(docker));
      assertThat(given(kubernetes, "--key-file") != null)
          .as(job + ": keyed in both or in neither")
          .isEqualTo(given(docker, "--key-file") != null);
      assertThat(d.path("spec").path("job").path("parallelism").asText())
          .as(job)
          .isEqualTo(compose.flinkProperties("taskmanager").get("parallelism.default"));
    }
    String rawTopic = given(parse(args(perturb)), "--input-topic");
    assertThat(perturb.path("spec").path("job").path("parallelism").asInt())
        .as("perturb subtasks beyond the partitions of " + rawTopic + " would sit idle")
        .isBetween(1, compose.partitions(rawTopic));
  }

  // --- helpers
  // ------------------------------------------------------------------------------------

  static List<String> args(JsonNode deployment) {
    List<String> args = new ArrayList<>();
    deployment.path("spec").path("job").path("args").forEach(a -> args.add(a.asText()));
    return args;
  }

  static JsonNode manifest(String kind, String name) {
    for (JsonNode m : manifests) {
      if (m.path("kind").asText().equals(kind)
          && m.path("metadata").path("name").asText().equals(name)) {
        return m;
      }
    }
    return fail("no " + kind + " named '" + name + "' in " + DIR);
  }

  static JsonNode mainContainer(JsonNode podTemplate) {
    for (JsonNode c : podTemplate.path("spec").path("containers")) {
      if (c.path("name").asText().equals(MAIN_CONTAINER)) {
        return c;
      }
    }
    return fail("no container " + MAIN_CONTAINER + " in the pod template");
  }

  /** A file of a ConfigMap or Secret volume: the volume, and the key of the file in it. */
  record MountedFile(JsonNode volume, String key, boolean readOnly) {}

  /**
   * The ConfigMap or Secret volume that puts a file at {@code path} in the main container: the
   * mount whose path is the file's directory, and the item of the volume whose path is the file's
   * name (or, without items, the key of that name).
   */
  static Optional<MountedFile> mountedFile(JsonNode podTemplate, String path) {
    Path file = Path.of(path);
    for (JsonNode mount : mainContainer(podTemplate).path("volumeMounts")) {
      if (!Path.of(mount.path("mountPath").asText()).equals(file.getParent())
          || mount.has("subPath")) {
        continue;
      }
      for (JsonNode volume : podTemplate.path("spec").path("volumes")) {
        if (!volume.path("name").asText().equals(mount.path("name").asText())) {
          continue;
        }
        JsonNode source = volume.has("secret") ? volume.path("secret") : volume.path("configMap");
        String fileName = file.getFileName().toString();
        if (!source.has("items")) {
          return Optional.of(new MountedFile(volume, fileName, mount.path("readOnly").asBoolean()));
        }
        for (JsonNode item : source.path("items")) {
          if (item.path("path").asText().equals(fileName)) {
            return Optional.of(
                new MountedFile(
                    volume, item.path("key").asText(), mount.path("readOnly").asBoolean()));
          }
        }
      }
    }
    return Optional.empty();
  }
}
