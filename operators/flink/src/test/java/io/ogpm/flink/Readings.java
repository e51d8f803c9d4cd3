package io.ogpm.flink;

import io.ogpm.config.PrivacyConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * A user's own record types for the POJO and Row paths: a reading with a nested attitude, fields
 * that are perturbed, passed through, used as id and user, and fields that must never leave the
 * operator (one set by the constructor, one private with a getter and setter, one primitive).
 */
public final class Readings {
  private Readings() {}

  public static final String YAML =
      """
      id-field: id
      user-field: user
      passthrough: [id, ts, activity, attitude.pitch]
      fields:
        - {name: accel, min: -2, max: 2, epsilon: 1}
        - {name: attitude.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 1, out-of-range: clamp}
      """;
  public static final PrivacyConfig CONFIG = PrivacyConfig.parse(YAML);

  /** A Flink POJO: public fields, a private field with accessors, fields with initial values. */
  public static class Reading {
    public String id;
    public String user;
    public long ts;
    public String activity;
    public double accel;
    public Attitude attitude;
    public String name = "set by the constructor";
    public int steps;
    private String location;

    public Reading() {}

    public Reading(
        String id, String user, long ts, String activity, double accel, Attitude attitude) {
      this.id = id;
      this.user = user;
      this.ts = ts;
      this.activity = activity;
      this.accel = accel;
      this.attitude = attitude;
      this.name = "Name of " + user;
      this.steps = 1234;
      this.location = "51.5,-0.1";
    }

    public String getLocation() {
      return location;
    }

    public void setLocation(String location) {
      this.location = location;
    }
  }

  /** Nested: roll is perturbed, pitch passed through, yaw and note never leave. */
  public static class Attitude {
    public Double roll;
    public Double pitch;
    public double yaw;
    public String note = "set by the constructor";

    public Attitude() {}

    public Attitude(Double roll, Double pitch, double yaw) {
      this.roll = roll;
      this.pitch = pitch;
      this.yaw = yaw;
      this.note = "raw note";
    }
  }

  public static Reading reading(int i, double accel, Double roll) {
    return new Reading(
        "r" + i,
        "user-" + (i % 3),
        1_700_000_000_000L + i,
        i % 2 == 0 ? "walk" : "run",
        accel,
        new Attitude(roll, 0.25 + i, 0.75));
  }

  public static final RowTypeInfo ATTITUDE_ROW =
      new RowTypeInfo(
          new TypeInformation<?>[] {Types.DOUBLE, Types.DOUBLE, Types.DOUBLE},
          new String[] {"roll", "pitch", "yaw"});
  public static final RowTypeInfo ROW =
      new RowTypeInfo(
          new TypeInformation<?>[] {
            Types.LONG,
            Types.STRING,
            Types.LONG,
            Types.STRING,
            Types.DOUBLE,
            ATTITUDE_ROW,
            Types.STRING
          },
          new String[] {"id", "user", "ts", "activity", "accel", "attitude", "name"});

  /** The same reading as a Row (positions), with an integer id. */
  public static Row row(int i, Double accel, Double roll) {
    return Row.of(
        (long) i,
        "user-" + (i % 3),
        1_700_000_000_000L + i,
        i % 2 == 0 ? "walk" : "run",
        accel,
        Row.of(roll, 0.25 + i, 0.75),
        "Name " + i);
  }
}
