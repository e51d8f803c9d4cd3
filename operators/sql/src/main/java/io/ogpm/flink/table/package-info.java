/**
 * Local differential privacy as Flink SQL and Table API functions: the DataStream library's
 * mechanisms, output grid, randomness and estimators, called from SQL.
 *
 * <p><b>Perturbation</b> (scalar functions): {@link io.ogpm.flink.table.LdpPerturb} ({@code
 * LDP_PERTURB(value, lo, hi, eps [, domain, mechanism, objective])}), {@link
 * io.ogpm.flink.table.OgpmPerturb} ({@code OGPM_PERTURB(value, lo, hi, eps [, domain])}, the
 * paper's mechanism) with the secure random stream, {@link io.ogpm.flink.table.LdpPerturbKeyed}
 * ({@code LDP_PERTURB_KEYED(record_id, field, value, lo, hi, eps [, ...])}) with the keyed PRF and
 * a key read on the task managers, and {@link io.ogpm.flink.table.LdpPerturbPolar} ({@code
 * LDP_PERTURB_POLAR(radius, angle, radius_max, eps [, ...])}, a polar pair under one eps split as
 * the configuration's polar item splits it). Mechanisms are compiled once per argument tuple; bad
 * values and bad non-literal arguments give NULL and a counted reason, bad literal arguments fail
 * the query when it is planned.
 *
 * <p><b>Estimation</b> (aggregate functions): {@link io.ogpm.flink.table.LdpMean}, {@link
 * io.ogpm.flink.table.LdpCircularMean}, {@link io.ogpm.flink.table.LdpHistogram} (with the band for
 * the cumulative distribution), {@link io.ogpm.flink.table.LdpQuantile} (one quantile with its
 * interval) and {@link io.ogpm.flink.table.LdpPolarMean} (a polar pair's LDP_MEAN and
 * LDP_CIRCULAR_MEAN at its shares), on the DataStream aggregation's exact accumulator, mergeable
 * and retractable, equal to its estimates.
 *
 * <p><b>Budget</b> (a process table function): {@link io.ogpm.flink.table.LdpBudget}, the per-user
 * budget of the configuration file, partitioned by the user.
 *
 * <p>They compile against {@code flink-table-api-java} only and ship in the job jar: {@code CREATE
 * FUNCTION LDP_PERTURB AS 'io.ogpm.flink.table.LdpPerturb' USING JAR '.../ogpm-job.jar'}.
 * docs/sql.md is the user's guide.
 */
package io.ogpm.flink.table;
