package io.ogpm.flink;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Which estimate a window's headline histogram and mean are. Its {@link #code()} is how the stats
 * topic's JSON ({@code "method"}), the SQL histogram ({@code estimate_method}) and the command line
 * ({@code --method}) write it.
 */
@PublicEvolving
public enum EstimationMethod {
  /** The EMS reconstruction of the input distribution, for mechanisms that allow it; else raw. */
  EM("em"),
  /** The histogram of the perturbed values; the unbiased (or raw) mean. */
  RAW("raw");

  private final String code;

  EstimationMethod(String code) {
    this.code = code;
  }

  /** {@code em} or {@code raw}. */
  public String code() {
    return code;
  }
}
