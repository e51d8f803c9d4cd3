package io.ogpm.testkit;

import java.lang.reflect.Parameter;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that gives a test class what an LDP pipeline runs on: a Kafka broker ({@link
 * KafkaFixtures#start}: in this JVM, or in Docker with {@code -Dogpm.kafka=container}) and a Flink
 * MiniCluster (Flink's own {@link MiniClusterExtension}), both started once before the class's
 * first test and stopped after its last.
 *
 * <p>Inside a test, {@code StreamExecutionEnvironment.getExecutionEnvironment()} (or {@link
 * #executionEnvironment()}) runs jobs on the MiniCluster, at the environment's {@linkplain
 * #parallelism() parallelism}; {@link #kafka()} creates topics, produces records and reads
 * committed output; {@link #metrics()} holds the jobs' metrics; {@link PrivacyAssertions} checks
 * the privacy contract on the topics.
 *
 * <pre>{@code
 * class MyJobTest {
 *   @RegisterExtension
 *   static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();
 *
 *   @Test
 *   void perturbs() throws Exception {
 *     ENV.kafka().createTopic("raw", 2);
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Register it on a {@code static} field (or with {@code @ExtendWith(LdpTestEnvironment.class)}
 * for the defaults: one task manager with two slots): the broker and the cluster live as long as
 * the test class. Test and lifecycle methods may also take the environment, its {@link
 * KafkaFixture} or, annotated with {@link InjectMiniCluster}, the {@link MiniCluster} as
 * parameters. Do not combine it with {@link KafkaFixtureExtension} or another {@link
 * MiniClusterExtension} in one class: both would resolve the same parameters.
 */
public final class LdpTestEnvironment
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  private final int taskManagers;
  private final int slotsPerTaskManager;
  private final int parallelism;
  private final Map<String, String> brokerProperties;
  private final String captureId = UUID.randomUUID().toString();
  private final MiniClusterExtension flink;

  private ExtensionContext startedIn;
  private KafkaFixture kafka;
  private MiniCluster miniCluster;

  /** The defaults of {@link #builder()}: for {@code @ExtendWith(LdpTestEnvironment.class)}. */
  public LdpTestEnvironment() {
    this(builder());
  }

  private LdpTestEnvironment(Builder b) {
    this.taskManagers = b.taskManagers;
    this.slotsPerTaskManager = b.slotsPerTaskManager;
    this.parallelism = b.parallelism > 0 ? b.parallelism : b.taskManagers * b.slotsPerTaskManager;
    this.brokerProperties = Map.copyOf(b.brokerProperties);
    Configuration conf = new Configuration(b.flinkConfiguration);
    conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
    String prefix = "metrics.reporter." + CapturedMetrics.REPORTER + ".";
    conf.setString(prefix + "factory.class", CapturedMetrics.Reporter.class.getName());
    conf.setString(prefix + CapturedMetrics.ID, captureId);
    MiniClusterResourceConfiguration.Builder cluster =
        new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(conf)
            .setNumberTaskManagers(taskManagers)
            .setNumberSlotsPerTaskManager(slotsPerTaskManager);
    this.flink =
        new MiniClusterExtension(
            b.jobManagerFailover ? cluster.withHaLeadershipControl().build() : cluster.build());
  }

  /**
   * A builder with the defaults: one task manager with two slots, parallelism 2, no extra settings.
   */
  public static Builder builder() {
    return new Builder();
  }

  // --- what a test uses
  // ----------------------------------------------------------------------------

  /** The Kafka broker, with its helpers (topics, producing, reading committed output, waiting). */
  public KafkaFixture kafka() {
    return started(kafka);
  }

  /** The broker's {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return kafka().bootstrapServers();
  }

  /** The Flink MiniCluster (to cancel jobs, stop them with a savepoint, kill a task manager...). */
  public MiniCluster miniCluster() {
    return started(miniCluster);
  }

  /**
   * Fails the job's JobManager over, as the loss of a leading JobManager does on a highly available
   * cluster: its leadership is revoked (the job's tasks are cancelled) and granted to a new one,
   * which recovers the job from its latest completed checkpoint. Needs {@link
   * Builder#jobManagerFailover()}.
   */
  public void failOverJobManager(org.apache.flink.api.common.JobID job) throws Exception {
    var control =
        started(miniCluster)
            .getHaLeadershipControl()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "failOverJobManager: build the environment with jobManagerFailover()"));
    control.revokeJobMasterLeadership(job).get();
    control.grantJobMasterLeadership(job).get();
  }

  /** The MiniCluster's REST endpoint (web UI, REST API). */
  public URI restAddress() {
    try {
      return miniCluster().getRestAddress().get();
    } catch (Exception e) {
      throw new IllegalStateException("the MiniCluster has no REST address", e);
    }
  }

  /** The default parallelism of jobs on the MiniCluster. */
  public int parallelism() {
    return parallelism;
  }

  /** Task managers times slots per task manager. */
  public int slots() {
    return taskManagers * slotsPerTaskManager;
  }

  /**
   * {@code StreamExecutionEnvironment.getExecutionEnvironment()}: inside a test method, an
   * environment whose jobs run on the MiniCluster at {@link #parallelism()}.
   */
  public StreamExecutionEnvironment executionEnvironment() {
    started(miniCluster);
    return StreamExecutionEnvironment.getExecutionEnvironment();
  }

  /** The metrics of the jobs run on the MiniCluster so far. */
  public CapturedMetrics metrics() {
    started(miniCluster);
    return CapturedMetrics.of(captureId);
  }

  private <T> T started(T resource) {
    if (resource == null) {
      throw new IllegalStateException(
          "the LdpTestEnvironment is not started: register it on a static field"
              + " (@RegisterExtension static final LdpTestEnvironment ...) or with @ExtendWith, and use it in tests");
    }
    return resource;
  }

  // --- JUnit -------------------------------------------------------------------------------------

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    if (startedIn != null) {
      return; // a nested class shares its enclosing class's broker and cluster
    }
    CapturedMetrics.of(captureId);
    kafka = KafkaFixtures.start(brokerProperties);
    try {
      flink.beforeAll(context);
      miniCluster = (MiniCluster) flink.resolveParameter(MiniClusterParameter.INSTANCE, context);
    } catch (Exception | Error e) {
      kafka.close();
      kafka = null;
      throw e;
    }
    startedIn = context;
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (context != startedIn) {
      return;
    }
    startedIn = null;
    miniCluster = null;
    try {
      flink.afterAll(context);
    } finally {
      CapturedMetrics.forget(captureId);
      kafka.close();
      kafka = null;
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    if (startedIn == null) {
      throw new ExtensionConfigurationException(
          "LdpTestEnvironment was not started before the class's tests:"
              + " register it on a static field (@RegisterExtension static final LdpTestEnvironment ...)");
    }
    flink.beforeEach(context);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (startedIn != null) {
      cancelLeftoverJobs();
      flink.afterEach(context);
    }
  }

  /**
   * Cancels the jobs a test left running (an unbounded job of a test that failed before cancelling
   * it) and waits until they have ended, so that the next test of the class finds every slot free.
   */
  private void cancelLeftoverJobs() throws Exception {
    MiniCluster cluster = miniCluster();
    List<JobID> running = new ArrayList<>();
    for (JobStatusMessage job : cluster.listJobs().get()) {
      if (!job.getJobState().isGloballyTerminalState()) {
        running.add(job.getJobId());
      }
    }
    for (JobID job : running) {
      try {
        cluster.cancelJob(job).get();
      } catch (ExecutionException e) {
        // It ended meanwhile.
      }
    }
    for (JobID job : running) {
      cluster.requestJobResult(job).get();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == LdpTestEnvironment.class
        || type == KafkaFixture.class
        || (startedIn != null && flink.supportsParameter(parameter, context));
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == LdpTestEnvironment.class) {
      return this;
    }
    if (type == KafkaFixture.class) {
      return kafka();
    }
    return flink.resolveParameter(parameter, context);
  }

  /**
   * A parameter annotated {@link InjectMiniCluster}, for asking Flink's extension for its cluster,
   * which it otherwise gives only to test parameters.
   */
  private static final class MiniClusterParameter implements ParameterContext {
    static final MiniClusterParameter INSTANCE = new MiniClusterParameter();

    @SuppressWarnings("unused")
    private static void holder(@InjectMiniCluster MiniCluster cluster) {}

    @Override
    public Parameter getParameter() {
      try {
        return MiniClusterParameter.class.getDeclaredMethod("holder", MiniCluster.class)
            .getParameters()[0];
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public int getIndex() {
      return 0;
    }

    @Override
    public Optional<Object> getTarget() {
      return Optional.empty();
    }
  }

  /** How the environment is built; {@link #build()} validates. */
  public static final class Builder {
    private int taskManagers = 1;
    private int slotsPerTaskManager = 2;
    private int parallelism;
    private Configuration flinkConfiguration = new Configuration();
    private final Map<String, String> brokerProperties = new LinkedHashMap<>();
    private boolean jobManagerFailover;

    private Builder() {}

    /** Task managers of the MiniCluster; default 1. */
    public Builder taskManagers(int taskManagers) {
      this.taskManagers = taskManagers;
      return this;
    }

    /** Slots of each task manager; default 2. */
    public Builder slotsPerTaskManager(int slots) {
      this.slotsPerTaskManager = slots;
      return this;
    }

    /** Default parallelism of jobs; default every slot (task managers times slots). */
    public Builder parallelism(int parallelism) {
      this.parallelism = parallelism;
      return this;
    }

    /** Settings of the MiniCluster (restart strategy, metric reporters, REST options...). */
    public Builder flinkConfiguration(Configuration configuration) {
      this.flinkConfiguration =
          new Configuration(java.util.Objects.requireNonNull(configuration, "flinkConfiguration"));
      return this;
    }

    /**
     * One broker property over the kit's defaults (e.g. {@code log.retention.check.interval.ms}).
     */
    public Builder brokerProperty(String key, String value) {
      brokerProperties.put(
          java.util.Objects.requireNonNull(key, "broker property"),
          java.util.Objects.requireNonNull(value, "broker property " + key));
      return this;
    }

    /**
     * Leadership the test controls, so that {@link #failOverJobManager} can fail a job's JobManager
     * over: as with high availability, the job's checkpoints outlive its JobManager.
     */
    public Builder jobManagerFailover() {
      this.jobManagerFailover = true;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the bad value: a count below 1, or a parallelism
     *     above the cluster's slots (its jobs could never be scheduled)
     */
    public LdpTestEnvironment build() {
      if (taskManagers < 1) {
        throw new IllegalArgumentException("taskManagers: must be >= 1, got " + taskManagers);
      }
      if (slotsPerTaskManager < 1) {
        throw new IllegalArgumentException(
            "slotsPerTaskManager: must be >= 1, got " + slotsPerTaskManager);
      }
      if (parallelism < 0 || parallelism > taskManagers * slotsPerTaskManager) {
        throw new IllegalArgumentException(
            "parallelism: must be between 1 and the "
                + taskManagers * slotsPerTaskManager
                + " slots ("
                + taskManagers
                + " task managers x "
                + slotsPerTaskManager
                + " slots), got "
                + parallelism);
      }
      return new LdpTestEnvironment(this);
    }
  }
}
