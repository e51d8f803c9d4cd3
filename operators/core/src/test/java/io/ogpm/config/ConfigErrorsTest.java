package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every validation rule, with the exact one-line message it gives. */
class ConfigErrorsTest {
  private static final String A = "{name: accel_x, min: -2, max: 2, epsilon: 1}";
  private static final String ROLL = "{name: roll, domain: circular, min: 0, max: 6.25, epsilon: 1";
  private static final String OVERLAP =
      ": a perturbed field must not contain or be nested in another configured name";
  private static final String NAME_RULE =
      " must be a dotted name with non-empty parts (like attitude.roll), got ";

  static Stream<Arguments> badConfigs() {
    return Stream.of(
        // fields
        bad("", "fields: at least one field is required"),
        bad("fields: []", "fields: at least one field is required"),
        bad("id-field: id", "fields: at least one field is required"),
        bad("fields: {name: a}", "fields must be a list, got a mapping"),
        bad("fields: [accel_x]", "field #1 must be a mapping, got 'accel_x'"),
        bad("- a", "config must be a mapping, got a list"),
        bad("just text", "config must be a mapping, got 'just text'"),
        bad("~", "config must be a mapping, got nothing"),
        bad("fields: [~]", "field #1 must be a mapping, got nothing"),
        bad("fields:\n  -\n", "field #1 must be a mapping, got nothing"),
        // names
        bad("fields: [" + A + ", {min: 0, max: 1, epsilon: 1}]", "field #2: name is required"),
        bad(
            "fields: [{name: a..b, min: 0, max: 1, epsilon: 1}]",
            "field #1: name" + NAME_RULE + "'a..b'"),
        bad(
            "fields: [{name: .a, min: 0, max: 1, epsilon: 1}]",
            "field #1: name" + NAME_RULE + "'.a'"),
        bad(
            "fields: [{name: '', min: 0, max: 1, epsilon: 1}]",
            "field #1: name" + NAME_RULE + "''"),
        bad(
            "fields: [{name: 5, min: 0, max: 1, epsilon: 1}]",
            "field #1: name must be a string, got 5"),
        bad("fields: [" + A + ", " + A + "]", "field 'accel_x': duplicate name"),
        // quoted names are cut after 80 characters
        bad(
            "fields: [{name: " + "n".repeat(80) + ", min: 0, max: 1, epsilon: 0}]",
            "field '" + "n".repeat(80) + "': epsilon must be > 0, got 0.0"),
        bad(
            "fields: [{name: " + "n".repeat(81) + ", min: 0, max: 1, epsilon: 0}]",
            "field '" + "n".repeat(80) + "...': epsilon must be > 0, got 0.0"),
        // unknown keys
        bad(
            "fields: [{name: accel_x, min: -2, max: 2, epsilom: 1}]",
            "unknown key 'epsilom' in field 'accel_x' (known keys: name, domain, min, max, epsilon,"
                + " mechanism, optimize-for, objective, optimize-at, out-of-range, exceedances)"),
        bad(
            "fields: [{min: -2, max: 2, epsilon: 1, nmae: x}]",
            "unknown key 'nmae' in field #1 (known keys: name, domain, min, max, epsilon,"
                + " mechanism, optimize-for, objective, optimize-at, out-of-range, exceedances)"),
        bad(
            "feilds: [" + A + "]",
            "unknown key 'feilds' (known keys: id-field, user-field,"
                + " passthrough, fields, grid-bits, budget, contribution, sampling, mechanism, optimize-for, records-per-window)"),
        bad(
            "user-field: u\nbudget: {epsilon: 1, periode: 1d}\nfields: [" + A + "]",
            "unknown key 'periode' in budget (known keys: epsilon, period, clock, max-lag, pacing)"),
        // numbers
        bad(
            "fields: [{name: accel_x, min: -2, max: 2, epsilon: -1}]",
            "field 'accel_x': epsilon must be > 0, got -1.0"),
        bad(
            "fields: [{name: accel_x, min: -2, max: 2, epsilon: 0}]",
            "field 'accel_x': epsilon must be > 0, got 0.0"),
        bad(
            "fields: [{name: accel_x, min: -2, max: 2, epsilon: 1e400}]",
            "field 'accel_x': epsilon must be a finite number, got Infinity"),
        bad(
            "fields: [{name: accel_x, min: -2, max: 2, epsilon: 701}]",
            "field 'accel_x': epsilon must be <= 700.0, got 701.0"),
        bad("fields: [{name: accel_x, min: -2, max: 2}]", "field 'accel_x': epsilon is required"),
        bad(
            "fields: [{name: accel_x, min: -2, max: 2, epsilon: }]",
            "field 'accel_x': epsilon is required"),
        bad(
            "fields: [{name: accel_x, min: -2, max: 2, epsilon: '1'}]",
            "field 'accel_x': epsilon must be a number, got '1'"),
        bad("fields: [{name: accel_x, min: -2, epsilon: 1}]", "field 'accel_x': max is required"),
        bad("fields: [{name: accel_x, max: 2, epsilon: 1}]", "field 'accel_x': min is required"),
        bad(
            "fields: [{name: accel_x, min: [1], max: 2, epsilon: 1}]",
            "field 'accel_x': min must be a number, got a list"),
        bad(
            "fields: [{name: accel_x, min: 2, max: 2, epsilon: 1}]",
            "field 'accel_x': min must be < max, got min=2.0 and max=2.0"),
        bad(
            "fields: [{name: accel_x, min: 3, max: -3, epsilon: 1}]",
            "field 'accel_x': min must be < max, got min=3.0 and max=-3.0"),
        bad(
            "fields: [{name: accel_x, min: -1e400, max: 2, epsilon: 1}]",
            "field 'accel_x': min must be a finite number, got -Infinity"),
        bad(
            "fields: [{name: accel_x, min: -1e308, max: 1e308, epsilon: 1}]",
            "field 'accel_x': max - min overflows a double: min=-1.0E308, max=1.0E308"),
        // names of things
        bad(
            "fields: [" + ROLL + ", mechanism: ogmp}]",
            "field 'roll': mechanism must be auto or one of"
                + " ogpm, ogpm-u, pm, sw, pm-c, sw-c, t-pm, t-sw, hm, staircase, t-laplace, b-laplace,"
                + " purkayastha, got 'ogmp'"),
        bad(
            "fields: [" + ROLL + ", optimize-for: means}]",
            "field 'roll': optimize-for applies to mechanism: auto only, not to ogpm"),
        bad(
            "fields: [" + ROLL + ", mechanism: auto, optimize-for: means}]",
            "field 'roll': optimize-for means is not weighed on a circular domain: auto chooses by"
                + " single values there (optimize-for values)"),
        bad(
            "fields: [" + ROLL + ", mechanism: auto, optimize-for: mean}]",
            "field 'roll': optimize-for must be one of values, means, distributions, aggregation,"
                + " got 'mean'"),
        bad(
            "mechanism: auto\nrecords-per-window: 0\nfields: [" + ROLL + "}]",
            "records-per-window must be a whole number of at least 1, got 0"),
        bad(
            "mechanism: autoo\nfields: [" + ROLL + "}]",
            "mechanism must be auto or one of ogpm, ogpm-u, pm, sw, pm-c, sw-c, t-pm, t-sw, hm,"
                + " staircase, t-laplace, b-laplace, purkayastha, got 'autoo'"),
        bad(
            "fields: [" + ROLL + ", mechanism: \"og\\npm\"}]",
            "field 'roll': mechanism must be"
                + " auto or one of ogpm, ogpm-u, pm, sw, pm-c, sw-c, t-pm, t-sw, hm, staircase, t-laplace,"
                + " b-laplace, purkayastha, got 'og pm'"),
        bad(
            "fields: [" + ROLL + ", mechanism: 7}]",
            "field 'roll': mechanism must be a string," + " got 7"),
        bad(
            "fields: [{name: roll, domain: circ, min: 0, max: 1, epsilon: 1}]",
            "field 'roll': domain must be classical or circular, got 'circ'"),
        bad(
            "fields: [" + ROLL + ", objective: l3}]",
            "field 'roll': objective must be l1 or l2, got 'l3'"),
        bad(
            "fields: [" + ROLL + ", out-of-range: wrap}]",
            "field 'roll': out-of-range must be reject or clamp, got 'wrap'"),
        bad(
            "fields: [" + ROLL + ", out-of-range: true}]",
            "field 'roll': out-of-range must be a string, got true"),
        // mechanism rules
        bad(
            "fields: [" + ROLL + ", mechanism: ogpm-u}]",
            "field 'roll': mechanism ogpm-u is not defined on a circular domain"),
        bad(
            "fields: [{name: t, min: 0, max: 1, epsilon: 1, mechanism: purkayastha}]",
            "field 't': mechanism purkayastha is not defined on a classical domain"),
        bad(
            "fields: [{name: t, min: 0, max: 1, epsilon: 1, mechanism: pm, objective: l2}]",
            "field 't': objective l2 applies to ogpm and staircase only, not pm"),
        bad(
            "fields: [{name: t, min: 0, max: 1, epsilon: 1, mechanism: pm, optimize-at: 0.5}]",
            "field 't': optimize-at applies to ogpm on a classical domain only, not pm on a classical domain"),
        bad(
            "fields: [" + ROLL + ", optimize-at: 0}]",
            "field 'roll': optimize-at applies to ogpm on a classical domain only, not ogpm on a circular domain"),
        bad(
            "fields: [{name: t, min: 0, max: 1, epsilon: 1, optimize-at: 1.5}]",
            "field 't': optimize-at must be in [0.0, 1.0], got 1.5"),
        bad(
            "fields: [{name: t, min: 0, max: 1, epsilon: 1, optimize-at: middle}]",
            "field 't': optimize-at must be a number, got 'middle'"),
        // grid bits
        bad("grid-bits: 0\nfields: [" + A + "]", "grid-bits must be in [1, 52], got 0"),
        bad("grid-bits: 53\nfields: [" + A + "]", "grid-bits must be in [1, 52], got 53"),
        bad("grid-bits: 3.5\nfields: [" + A + "]", "grid-bits must be an integer, got 3.5"),
        // a grid that does not resolve a field's mechanism, or finer than its doubles
        bad(
            "grid-bits: 16\nfields: [{name: a, min: 0, max: 1, epsilon: 20}]",
            "field 'a': grid-bits 16 is too coarse for ogpm at epsilon 20.0: a cell could hold more"
                + " than 1/256 of an output's probability, which blurs every estimate; use grid-bits"
                + " >= 23"),
        bad(
            "grid-bits: 8\nfields: [{name: a, min: 0, max: 1, epsilon: 1}]",
            "field 'a': grid-bits 8 is too coarse for ogpm at epsilon 1.0: a cell could hold more"
                + " than 1/256 of an output's probability, which blurs every estimate; use grid-bits"
                + " >= 9"),
        bad(
            "grid-bits: 52\nfields: [{name: a, min: 0, max: 1, epsilon: 1}]",
            "field 'a': grid-bits 52 gives cells of 2.220446049250313E-16, finer than double"
                + " precision near 1.0; use fewer grid bits"),
        bad(
            "grid-bits: 4294967296\nfields: [" + A + "]",
            "grid-bits must be an integer, got 4294967296"),
        bad("grid-bits: many\nfields: [" + A + "]", "grid-bits must be an integer, got 'many'"),
        // passthrough, id-field, user-field
        bad("passthrough: ts\nfields: [" + A + "]", "passthrough must be a list, got 'ts'"),
        bad("passthrough: [ts, 5]\nfields: [" + A + "]", "passthrough #2 must be a string, got 5"),
        bad(
            "passthrough: [ts, ~]\nfields: [" + A + "]",
            "passthrough #2 must be a string, got nothing"),
        bad("passthrough: [ts, 'a.']\nfields: [" + A + "]", "passthrough #2" + NAME_RULE + "'a.'"),
        bad("passthrough: [ts, ts]\nfields: [" + A + "]", "passthrough: duplicate name 'ts'"),
        bad("id-field: x..y\nfields: [" + A + "]", "id-field" + NAME_RULE + "'x..y'"),
        bad("id-field: [id]\nfields: [" + A + "]", "id-field must be a string, got a list"),
        bad("user-field: ''\nfields: [" + A + "]", "user-field" + NAME_RULE + "''"),
        // perturbed names overlap nothing else
        bad(
            "passthrough: [ts, accel_x]\nfields: [" + A + "]",
            "field 'accel_x' is also listed as passthrough"),
        bad("id-field: accel_x\nfields: [" + A + "]", "field 'accel_x' is also listed as id-field"),
        bad(
            "user-field: accel_x\nfields: [" + A + "]",
            "field 'accel_x' is also listed as user-field"),
        bad(
            "passthrough: [attitude]\nfields: [{name: attitude.roll, min: 0, max: 1, epsilon: 1}]",
            "field 'attitude.roll' overlaps passthrough 'attitude'" + OVERLAP),
        bad(
            "passthrough: [attitude.roll.raw]\nfields: [{name: attitude.roll, min: 0, max: 1,"
                + " epsilon: 1}]",
            "field 'attitude.roll' overlaps passthrough 'attitude.roll.raw'" + OVERLAP),
        bad(
            "user-field: user\nfields: [{name: user.age, min: 0, max: 120, epsilon: 1}]",
            "field 'user.age' overlaps user-field 'user'" + OVERLAP),
        bad(
            "fields: [{name: a, min: 0, max: 1, epsilon: 1}, {name: a.b, min: 0, max: 1,"
                + " epsilon: 1}]",
            "field 'a.b' overlaps field 'a'" + OVERLAP),
        // the fingerprint's name on the lines perturb writes
        bad(
            "fields: [{name: ogpm-config.x, min: 0, max: 1, epsilon: 1}]",
            "field 'ogpm-config.x': the name ogpm-config is reserved for the configuration's"
                + " fingerprint"),
        bad(
            "passthrough: [ogpm-config]\nfields: [" + A + "]",
            "passthrough 'ogpm-config': the name ogpm-config is reserved for the configuration's"
                + " fingerprint"),
        // contribution bound
        bad(
            "fields: [" + A + "]\ncontribution: {records: 1, window: 10s}",
            "contribution: user-field is required, the bound is per user"),
        bad(
            "user-field: u\nfields: [" + A + "]\ncontribution: {records: 1}",
            "contribution: window is required"),
        bad(
            "user-field: u\nfields: [" + A + "]\ncontribution: {records: 0, window: 10s}",
            "contribution: records must be >= 1, got 0"),
        bad(
            "user-field: u\nfields: [" + A + "]\ncontribution: {records: 1, window: 0s}",
            "contribution: window must be positive, got PT0S"),
        bad(
            "user-field: u\nfields: ["
                + A
                + "]\ncontribution: {window: 10s, clock: ingestion-time,"
                + " max-lag: 1s}",
            "contribution: max-lag applies to clock log-append-time only; with ingestion-time no"
                + " record is late"),
        bad(
            "user-field: u\nfields: ["
                + A
                + "]\nbudget: {epsilon: 100, period: 1d, max-lag: 1h}"
                + "\ncontribution: {records: 1, window: 1h}",
            "contribution: window PT1H plus max-lag PT6M holds a record up to PT1H6M, not less than"
                + " the budget's max-lag PT1H, so the budget would refuse records the bound chose as"
                + " of a closed period: give budget a max-lag above PT1H6M or the bound a shorter"
                + " window"),
        bad(
            "user-field: u\nfields: [" + A + "]\ncontribution: {window: soon}",
            "contribution: window must be an ISO-8601 duration (P1D, PT12H) or a whole number with"
                + " unit d, h, m or s (1d, 12h, 30m), got 'soon'"),
        // budget
        bad(
            "user-field: u\nfields: [" + A + "]\nbudget: {epsilon: 48, period: 1d, pacing: 2d}",
            "budget: pacing must be positive and at most the period PT24H, got PT48H"),
        bad(
            "user-field: u\nfields: [" + A + "]\nbudget: {epsilon: 48, period: 1d, pacing: 0s}",
            "budget: pacing must be positive and at most the period PT24H, got PT0S"),
        bad(
            "user-field: u\nfields: ["
                + A
                + "]\nbudget: {epsilon: 48, period: 1d, pacing:"
                + " PT0.0015S}",
            "budget: pacing must be a whole number of milliseconds, got PT0.0015S"),
        bad(
            "user-field: u\nfields: [" + A + "]\nbudget: {epsilon: 12, period: 1d, pacing: 1h}",
            "budget: pacing PT1H releases 0.5 a slice, less than the epsilon per record 1.0; use a"
                + " pacing of at least PT2H"),
        bad(
            "user-field: u\nfields: [" + A + "]\nbudget: {epsilon: 12, period: 1d, pacing: often}",
            "budget: pacing must be an ISO-8601 duration (P1D, PT12H) or a whole number with unit"
                + " d, h, m or s (1d, 12h, 30m), got 'often'"),
        bad(
            "user-field: u\nbudget: {epsilon: -1, period: 1d}\nfields: [" + A + "]",
            "budget: epsilon must be > 0, got -1.0"),
        bad(
            "user-field: u\nbudget: {period: 1d}\nfields: [" + A + "]",
            "budget: epsilon is required"),
        bad(
            "user-field: u\nbudget: {epsilon: 2}\nfields: [" + A + "]",
            "budget: period is required"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: PT0S}\nfields: [" + A + "]",
            "budget: period must be positive, got PT0S"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 0d}\nfields: [" + A + "]",
            "budget: period must be positive, got PT0S"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 1w}\nfields: [" + A + "]",
            "budget: period must be an ISO-8601 duration (P1D, PT12H) or a whole number with unit"
                + " d, h, m or s (1d, 12h, 30m), got '1w'"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 1}\nfields: [" + A + "]",
            "budget: period must be a string, got 1"),
        bad("user-field: u\nbudget: 5\nfields: [" + A + "]", "budget must be a mapping, got 5"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 1d, clock: create-time}\nfields: ["
                + A
                + "]",
            "budget: clock must be log-append-time or ingestion-time, got 'create-time'"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 1d, clock: 1}\nfields: [" + A + "]",
            "budget: clock must be a string, got 1"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 1d, clock: ingestion-time, max-lag: 1h}\n"
                + "fields: ["
                + A
                + "]",
            "budget: max-lag applies to clock log-append-time only; with ingestion-time no record is late"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 1d, max-lag: 1 h}\nfields: [" + A + "]",
            "budget: max-lag must be an ISO-8601 duration (P1D, PT12H) or a whole number with unit"
                + " d, h, m or s (1d, 12h, 30m), got '1 h'"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 1d, max-lag: -PT1H}\nfields: [" + A + "]",
            "budget: max-lag must not be negative, got PT-1H"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: 36501d}\nfields: [" + A + "]",
            "budget: period must be at most 36500 days, got PT876024H"),
        bad(
            "user-field: u\nbudget: {epsilon: 2, period: PT0.0001S}\nfields: [" + A + "]",
            "budget: period must be a whole number of milliseconds, got PT0.0001S"),
        bad(
            "budget: {epsilon: 2, period: 1d}\nfields: [" + A + "]",
            "budget: user-field is required, the budget is per user"),
        bad(
            "user-field: u\nbudget: {epsilon: 0.5, period: 1d}\nfields: [" + A + "]",
            "budget: epsilon 0.5 is less than the epsilon per record 1.0, no record could be"
                + " released"),
        // exceedances
        bad(
            "fields: [{name: a, min: 0, max: 1, epsilon: 1, exceedances: 0.5}]",
            "field 'a': exceedances must be a list, got 0.5"),
        bad(
            "fields: [{name: a, min: 0, max: 1, epsilon: 1, exceedances: [0.5, high]}]",
            "field 'a': exceedances #2 must be a number, got 'high'"),
        bad(
            "fields: [{name: a, min: 0, max: 1, epsilon: 1, exceedances: [0.5, 1.5]}]",
            "field 'a': exceedance threshold 1.5 is outside the domain [0.0, 1.0]"),
        bad(
            "fields: [{name: a, min: 0, max: 1, epsilon: 1, exceedances: [0.5, 0.25]}]",
            "field 'a': exceedance thresholds must increase without repeats, got 0.25 after 0.5"),
        bad(
            "fields: [{domain: polar, radius: {name: r, max: 1, exceedances: [2]},"
                + " angle: {name: b, min: 0, max: 360}, epsilon: 10}]",
            "field 'r': exceedance threshold 2.0 is outside the domain [0.0, 1.0]"),
        // YAML itself
        bad("fields: []\nfields: []", "invalid YAML at line 2, column 7: duplicate key 'fields'"),
        bad(
            "fields: [" + A + "]\n---\nfields: [" + A + "]",
            "config must be a single YAML document, a second one starts at line 3"),
        bad(
            "fields:\n  - name: a\n   min: 0",
            "invalid YAML at line 3, column 4: while parsing a block collection: expected <block end>,"
                + " but found '<block mapping start>'"),
        bad(
            "fields: [" + A + "\nid-field: x",
            "invalid YAML at line 2, column 1: while parsing a"
                + " flow sequence: expected ',' or ']', but got <scalar>"),
        bad(
            "fields: [{name: 'accel_x\n  , min: 0}]",
            "invalid YAML at line 2, column 13: while"
                + " scanning a quoted scalar: found unexpected end of stream"));
  }

  private static Arguments bad(String yaml, String message) {
    return Arguments.of(yaml, message);
  }

  @ParameterizedTest
  @MethodSource("badConfigs")
  void givesItsOwnOneLineMessage(String yaml, String message) {
    assertThatThrownBy(() -> PrivacyConfig.parse(yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }
}
