package io.ogpm.flink;

import org.apache.flink.annotation.PublicEvolving;

/** Which estimate a window's headline histogram and mean are. */
@PublicEvolving
public enum EstimationMethod {
  /** The EMS reconstruction of the input distribution, for mechanisms that allow it; else raw. */
  EM,
  /** The histogram of the perturbed values; the unbiased (or raw) mean. */
  RAW
}
