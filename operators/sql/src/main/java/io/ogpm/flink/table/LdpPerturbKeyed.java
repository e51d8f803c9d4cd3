package io.ogpm.flink.table;

import io.ogpm.flink.KeySource;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.file.Path;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.types.inference.TypeInference;

/**
 * {@code LDP_PERTURB_KEYED(record_id, field, value, lo, hi, eps [, domain [, mechanism [,
 * objective]]])}: {@code LDP_PERTURB} with replay-safe randomness. The random bits are the keyed
 * PRF of the DataStream operator (v2: SipHash-2-4 of the field's name and mechanism spec, the
 * record id, no user, and the value as the mechanism gets it), so a replayed record, or a record
 * sent twice, gets the identical output, any other record independent noise; and the output is the
 * one the DataStream operator gives the same record with the same key, field name and arguments (a
 * configuration without a user field). {@code record_id} is a BIGINT (the DataStream operator's
 * integer ids) or a STRING (its string ids); {@code field} names the column (its noise is
 * independent of every other column's).
 *
 * <p>The secret key is read on the task managers when the task opens the function, never from the
 * SQL text: from the {@link KeySource} given to the constructor (Table API), or else from the job
 * parameter {@value #KEY_FILE_PARAMETER} (a file on the task managers) or {@value
 * #KEY_ENV_PARAMETER} (an environment variable of the task managers), for example {@code SET
 * 'pipeline.global-job-parameters' = 'ogpm.key-env:OGPM_KEY'}. Only the location travels with the
 * job. A task without a usable key fails to open, naming the parameter or the file; it never falls
 * back to unkeyed randomness.
 *
 * <p>NULL for a NULL record id ({@code null-record-id}), and as {@link LdpPerturb} otherwise.
 */
@PublicEvolving
public class LdpPerturbKeyed extends ScalarFunction {
  private static final long serialVersionUID = 1L;

  /** The job parameter naming the key file on the task managers. */
  public static final String KEY_FILE_PARAMETER = "ogpm.key-file";

  /** The job parameter naming the task managers' environment variable that holds the key. */
  public static final String KEY_ENV_PARAMETER = "ogpm.key-env";

  private final KeySource keySource;
  transient ValuePerturber perturber;

  /** The key named by the job parameters (the function {@code CREATE FUNCTION} instantiates). */
  public LdpPerturbKeyed() {
    this.keySource = null;
  }

  /**
   * The key in this source (Table API: {@code createTemporarySystemFunction("LDP_PERTURB_KEYED",
   * new LdpPerturbKeyed(KeySource.environment("OGPM_KEY")))}).
   *
   * @throws IllegalArgumentException if the source holds no key
   */
  public LdpPerturbKeyed(KeySource keySource) {
    if (keySource == null || !keySource.isKeyed()) {
      throw new IllegalArgumentException(
          "LDP_PERTURB_KEYED needs a key file or environment variable, got " + keySource);
    }
    this.keySource = keySource;
  }

  @Override
  public void open(FunctionContext context) {
    KeySource source =
        keySource != null
            ? keySource
            : fromJobParameters(
                context.getJobParameter(KEY_FILE_PARAMETER, null),
                context.getJobParameter(KEY_ENV_PARAMETER, null));
    open(source, context.getMetricGroup());
  }

  /** Reads the key now and erases every copy but the PRF's derived state. */
  void open(KeySource source, MetricGroup metrics) {
    RandomnessMode mode = source.load();
    try {
      perturber = ValuePerturber.keyed(mode.prf(), FunctionMetrics.of(metrics));
    } finally {
      mode.destroy();
    }
  }

  /**
   * The key source the job parameters name.
   *
   * @throws IllegalStateException naming the parameters when neither or both are set
   */
  static KeySource fromJobParameters(String file, String variable) {
    if (file != null && variable != null) {
      throw new IllegalStateException(
          "LDP_PERTURB_KEYED: set one of the job parameters "
              + KEY_FILE_PARAMETER
              + " and "
              + KEY_ENV_PARAMETER
              + ", not both");
    }
    if (file != null) {
      return KeySource.file(Path.of(file));
    }
    if (variable != null) {
      return KeySource.environment(variable);
    }
    throw new IllegalStateException(
        "LDP_PERTURB_KEYED needs a key on the task managers: set the job parameter "
            + KEY_FILE_PARAMETER
            + " (a file) or "
            + KEY_ENV_PARAMETER
            + " (an environment variable), for example"
            + " SET 'pipeline.global-job-parameters' = '"
            + KEY_ENV_PARAMETER
            + ":OGPM_KEY'");
  }

  public Double eval(Long recordId, String field, Double value, Double lo, Double hi, Double eps) {
    return eval(recordId, field, value, lo, hi, eps, SpecArguments.DEFAULT_DOMAIN);
  }

  public Double eval(
      Long recordId, String field, Double value, Double lo, Double hi, Double eps, String domain) {
    return eval(recordId, field, value, lo, hi, eps, domain, SpecArguments.DEFAULT_MECHANISM);
  }

  public Double eval(
      Long recordId,
      String field,
      Double value,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism) {
    return eval(
        recordId, field, value, lo, hi, eps, domain, mechanism, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public Double eval(
      Long recordId,
      String field,
      Double value,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      String objective) {
    return perturber.perturbKeyed(
        id(recordId),
        value,
        perturber.keyedMechanismOf(field, lo, hi, eps, domain, mechanism, objective));
  }

  public Double eval(
      String recordId, String field, Double value, Double lo, Double hi, Double eps) {
    return eval(recordId, field, value, lo, hi, eps, SpecArguments.DEFAULT_DOMAIN);
  }

  public Double eval(
      String recordId,
      String field,
      Double value,
      Double lo,
      Double hi,
      Double eps,
      String domain) {
    return eval(recordId, field, value, lo, hi, eps, domain, SpecArguments.DEFAULT_MECHANISM);
  }

  public Double eval(
      String recordId,
      String field,
      Double value,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism) {
    return eval(
        recordId, field, value, lo, hi, eps, domain, mechanism, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public Double eval(
      String recordId,
      String field,
      Double value,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      String objective) {
    return perturber.perturbKeyed(
        id(recordId),
        value,
        perturber.keyedMechanismOf(field, lo, hi, eps, domain, mechanism, objective));
  }

  /** The DataStream operator's identifier of an integer record id, or null. */
  private static Identifier id(Long recordId) {
    return recordId == null ? null : Identifier.integer(recordId);
  }

  /** The DataStream operator's identifier of a string record id, or null. */
  private static Identifier id(String recordId) {
    return recordId == null ? null : Identifier.string(recordId);
  }

  /**
   * Not deterministic for the planner: a literal call must be evaluated on the task, where the key
   * is.
   */
  @Override
  public boolean isDeterministic() {
    return false;
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return ConstantArguments.wrap(
        super.getTypeInference(typeFactory), CallLayout.LDP_PERTURB_KEYED);
  }
}
