package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * Means of a circular field, in the field's units. The truth is the mean resultant vector of the
 * window's actual inputs: its direction (the circular mean) and its length.
 *
 * <p>The intervals come from one 95 % confidence disk for that vector ({@link ResultantDisk}), so
 * they hold together in at least 95 % of windows whatever the inputs. They exist only for
 * rotation-invariant mechanisms (circular ogpm, purkayastha), whose noise is the same symmetric
 * distribution at every input; for others both have NaN ends (no valid interval).
 *
 * @param direction the circular mean {@code atan2(mean sin, mean cos)} of the perturbed values,
 *     mapped back to [lo, hi), with the directions of the disk's points: the whole circle [lo, hi]
 *     when the disk holds the origin (the data say nothing about the direction). Unbiased in
 *     direction for rotation-invariant mechanisms.
 * @param reconstructedDirection the headline of method em: the reconstruction's circular mean,
 *     located to what its bins resolve nearest the outputs' direction, moved onto the same arc when
 *     it falls outside; null without reconstruction
 * @param resultantLength the perturbed values' resultant length divided by the noise's first
 *     trigonometric moment (at most 1), with the lengths of the disk's points (within [0, 1]); for
 *     mechanisms that are not rotation invariant, the perturbed values' own length
 * @param reconstructed the reconstruction's circular mean as it came, or NaN
 */
@PublicEvolving
public record CircularMeans(
    Interval direction,
    Interval reconstructedDirection,
    Interval resultantLength,
    double reconstructed) {}
