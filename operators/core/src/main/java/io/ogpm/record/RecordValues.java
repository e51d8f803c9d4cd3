package io.ogpm.record;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.random.Identifier;
import java.util.Arrays;

/**
 * One record's readings as a reader found them, by field index of a {@link PerturbationPlan}: for
 * each perturbed field a number, the JSON type of a value that is not a number, or nothing; the
 * record's id and user. After {@link PerturbationPlan#perturb} has accepted the record, it holds
 * the perturbed outputs.
 *
 * <p>Reused from record to record by one reader ({@link #clear}): nothing is allocated per record.
 * Not thread-safe. Holds raw values while a record is processed: it never leaves the operator.
 */
@Internal
public final class RecordValues {
  private final double[] input;
  private final boolean[] present;
  private final String[] otherType;
  private final double[] output;
  private final boolean[] reported;
  private double epsilon;
  private Identifier id;
  private Identifier user;

  /**
   * A holder for a record of {@code fields} configured fields (a plan's: {@link
   * PerturbationPlan#newValues}).
   */
  public RecordValues(int fields) {
    input = new double[fields];
    present = new boolean[fields];
    otherType = new String[fields];
    output = new double[fields];
    reported = new boolean[fields];
  }

  /** Forgets the previous record: every field missing, no id, no user. */
  public void clear() {
    Arrays.fill(present, false);
    Arrays.fill(otherType, null);
    id = null;
    user = null;
  }

  /** Field {@code field} holds a number (possibly not finite: the plan refuses those). */
  public void number(int field, double value) {
    input[field] = value;
    present[field] = true;
  }

  /**
   * Field {@code field} holds a value of another JSON type ({@code "string"}, {@code "object"}...).
   */
  public void notANumber(int field, String jsonType) {
    otherType[field] = jsonType;
  }

  /** The record's id; null when it is missing or of a type that is no id. */
  public void id(Identifier value) {
    id = value;
  }

  /** The record's user; null when it is missing or of a type that is no user. */
  public void user(Identifier value) {
    user = value;
  }

  /**
   * The perturbed output of a field, once the plan has perturbed the record; NaN for a field the
   * record does not report (field sampling).
   */
  public double output(int field) {
    return output[field];
  }

  /**
   * Whether the record reports a field, once the plan has perturbed it: always, without field
   * sampling.
   */
  public boolean reported(int field) {
    return reported[field];
  }

  /** What the perturbed record spends: the sum of the epsilons of the fields it reports. */
  public double epsilon() {
    return epsilon;
  }

  /** The record's id as read (null: missing or unusable). */
  public Identifier id() {
    return id;
  }

  /**
   * The record's user as read; after the plan accepted the record, {@link Identifier#NONE} without
   * a user field.
   */
  public Identifier user() {
    return user;
  }

  /** Whether the record holds a number in field {@code field}. */
  public boolean present(int field) {
    return present[field];
  }

  /** The JSON type of field {@code field}'s value where it is not a number, else null. */
  public String otherType(int field) {
    return otherType[field];
  }

  /** Field {@code field}'s number as read: a raw value. */
  public double input(int field) {
    return input[field];
  }

  void input(int field, double value) {
    input[field] = value;
  }

  /**
   * Sets field {@code field}'s output, which the writer writes: NaN leaves the field unreported.
   * The plan's {@link PerturbationPlan#perturb} sets the perturbed ones; nothing else in the
   * library calls it (the architecture rules say who may).
   */
  public void output(int field, double value) {
    output[field] = value;
    reported[field] = !Double.isNaN(value);
  }

  void epsilon(double spent) {
    epsilon = spent;
  }
}
