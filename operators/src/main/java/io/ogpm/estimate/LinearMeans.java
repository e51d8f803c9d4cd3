package io.ogpm.estimate;

/**
 * Means of a classical field.
 *
 * @param raw the mean of the perturbed values (the paper's estimator); its interval covers the
 *     expected value of that mean, which equals the true mean only for unbiased mechanisms
 * @param unbiased the raw mean corrected by the inverse of the mechanism's affine mean function, or
 *     null when the mechanism's mean function is not affine anywhere
 * @param unbiasedFrom lower end of the inputs where the correction is exact (the whole domain for
 *     ogpm-u, pm and sw; the middle of it for ogpm, whose central piece is clamped at the ends)
 * @param unbiasedTo upper end of that range
 * @param reconstructed the mean of the reconstructed distribution (bin centres), or null
 */
public record LinearMeans(
    Interval raw, Interval unbiased, double unbiasedFrom, double unbiasedTo, Interval reconstructed) {}
