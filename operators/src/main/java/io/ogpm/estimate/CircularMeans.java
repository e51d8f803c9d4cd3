package io.ogpm.estimate;

/**
 * Means of a circular field, in the field's units.
 *
 * @param direction the circular mean {@code atan2(mean sin, mean cos)} of the perturbed values,
 *     mapped back to [lo, hi); unbiased for rotation-invariant mechanisms (circular ogpm,
 *     purkayastha), whose noise is symmetric about the input
 * @param resultantLength the true data's mean resultant length, estimated as the perturbed values'
 *     resultant length divided by the noise's first trigonometric moment (for rotation-invariant
 *     mechanisms; otherwise the perturbed values' own)
 * @param reconstructedDirection the circular mean of the reconstructed distribution, or null
 */
public record CircularMeans(Interval direction, Interval resultantLength, Interval reconstructedDirection) {}
