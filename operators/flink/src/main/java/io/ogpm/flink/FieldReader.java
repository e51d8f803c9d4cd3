package io.ogpm.flink;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.types.Row;

/**
 * Reads a field of one of your own records by its dotted name, for aggregating a stream of your own
 * types ({@link LdpAggregation#fromRecords}): a perturbed value as a {@link Number}, a group as
 * anything whose {@code toString()} names it, null where the record has no such field.
 *
 * @param <T> the record type
 */
@PublicEvolving
@FunctionalInterface
public interface FieldReader<T> extends Serializable {
  /** The value at the dotted name, or null. */
  Object read(T record, String dottedName);

  /**
   * Reads {@link Row}s with named fields ({@code Row.withNames()}, or rows of a {@code RowTypeInfo}
   * with names); a dotted name steps into nested rows.
   */
  static FieldReader<Row> rows() {
    return (row, name) -> {
      Object value = row;
      for (String step : name.split("\\.", -1)) {
        if (!(value instanceof Row r)
            || r.getFieldNames(false) == null
            || !r.getFieldNames(false).contains(step)) {
          return null;
        }
        value = r.getField(step);
      }
      return value;
    };
  }
}
