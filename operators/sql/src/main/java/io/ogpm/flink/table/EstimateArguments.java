package io.ogpm.flink.table;

/**
 * The arguments of an aggregate call: the mechanism's and the number of histogram bins.
 *
 * @param bins the bins, null when a call passed NULL
 */
record EstimateArguments(SpecArguments arguments, Integer bins) {}
