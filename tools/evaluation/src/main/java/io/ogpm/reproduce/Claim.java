package io.ogpm.reproduce;

/**
 * A number the paper states, next to ours.
 *
 * @param where the paper's section or figure
 * @param statement what is claimed, in words
 * @param paper the paper's value as printed
 * @param ours our value
 * @param percent whether the values are ratios printed as percentages
 * @param note how we measured, and why we differ where we do
 */
public record Claim(
    String where, String statement, double paper, double ours, boolean percent, String note) {
  /** Our value in the paper's format. */
  public String oursFormatted() {
    return percent
        ? String.format(java.util.Locale.ROOT, "%.1f %%", 100 * ours)
        : String.format(java.util.Locale.ROOT, "%.6f", ours);
  }

  /** The paper's value in its own format. */
  public String paperFormatted() {
    return percent
        ? String.format(java.util.Locale.ROOT, "%.1f %%", 100 * paper)
        : String.format(java.util.Locale.ROOT, "%.6f", paper);
  }

  /** Our value minus the paper's, in percentage points for ratios. */
  public double difference() {
    return percent ? 100 * (ours - paper) : ours - paper;
  }
}
