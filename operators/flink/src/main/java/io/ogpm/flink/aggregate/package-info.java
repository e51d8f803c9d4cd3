/**
 * The two-phase windowed aggregation behind {@link io.ogpm.flink.LdpAggregation}.
 *
 * <ul>
 *   <li>Reading perturbed records: {@link io.ogpm.flink.aggregate.AggregationFields} (the fields,
 *       group and time an aggregation reads, validated), {@link
 *       io.ogpm.flink.aggregate.PerturbedValuesReader} (one streaming pass over a record's JSON),
 *       {@link io.ogpm.flink.aggregate.ConfigCheck} (the configuration fingerprint a record must
 *       carry), both used by {@link io.ogpm.flink.aggregate.PerturbedRecordReader} (one record,
 *       checked, read and counted), shared by the Kafka deserializer ({@code io.ogpm.flink.kafka})
 *       and {@link io.ogpm.flink.aggregate.PerturbedRecordParser}; {@link
 *       io.ogpm.flink.aggregate.RecordValuesFunction} for the user's own types.
 *   <li>Phase one, on every subtask where the records are: {@link
 *       io.ogpm.flink.aggregate.PreAggregateOperator} adds them into exact {@link
 *       io.ogpm.flink.aggregate.PartialAggregate}s per pane, field and group.
 *   <li>Phase two, keyed by {@link io.ogpm.flink.aggregate.FieldAndGroup}: {@link
 *       io.ogpm.flink.aggregate.WindowEstimateOperator} merges them per window ({@link
 *       io.ogpm.flink.aggregate.Windowing}, Flink's event-time windows cut into panes) and
 *       estimates each window when it is emitted ({@link io.ogpm.flink.aggregate.WindowEstimates}).
 *   <li>Event time: {@link io.ogpm.flink.aggregate.EventTimes} (times read from JSON, kept where
 *       window arithmetic cannot overflow) and {@link
 *       io.ogpm.flink.aggregate.SilenceAwareWatermarks} (watermarks that move on when a split falls
 *       silent).
 * </ul>
 *
 * <p>Everything here is {@link org.apache.flink.annotation.Internal}: wired by {@code
 * LdpAggregation} and the Kafka deserializer, free to change.
 */
package io.ogpm.flink.aggregate;
