package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * Means of a classical field. The truth is the mean of the window's actual inputs.
 *
 * @param mean the headline of method raw: the unbiased estimate where the mechanism has one, else
 *     the raw mean, moved into the 95 % interval when it falls outside. The interval holds the
 *     inputs' mean in at least 95 % of windows whatever the inputs: every mean consistent with the
 *     window's output mean and, where the mechanism's mean function is flat at an end, its end
 *     tails ({@link LinearMeanBounds}; {@code intervalMethod} says which). NaN ends when the mean
 *     function is not monotone (no valid interval)
 * @param reconstructedMean the headline of method em: the reconstruction's mean, located to half a
 *     bin (its bins' centres stand for their inputs) nearest the unbiased mean where there is one,
 *     moved into the same interval (the interval does not come from the reconstruction); null
 *     without reconstruction
 * @param raw the mean of the perturbed values (the paper's estimator): unbiased for the expected
 *     output mean, which equals the inputs' mean only for unbiased mechanisms
 * @param unbiased the raw mean through the inverse of the affine part of the mean function, or NaN
 *     when the mean function is not affine anywhere; unbiased only when every input lies in
 *     [unbiasedFrom, unbiasedTo]
 * @param unbiasedFrom lower end of the inputs where the correction is exact (the whole domain for
 *     ogpm-u, pm and sw; the middle of it for ogpm, whose central piece is clamped at the ends)
 * @param unbiasedTo upper end of that range
 * @param reconstructed the mean of the reconstructed distribution (bin centres), or NaN
 * @param intervalMethod how the interval was found: from the outputs' mean alone, or also from the
 *     end tails of their histogram
 * @param identifiedWidth the width of the identified set at the window's statistics: every input
 *     mean consistent with them at their observed values, the part of the interval that more
 *     readings do not remove (for OGPM, readings in an end band); NaN without an interval
 * @param alternative where most of the interval is that unidentified part (at least {@value
 *     FieldEstimator#UNIDENTIFIED_SHARE} of it), the mechanism whose expected interval at this
 *     count is narrowest and narrower than this window's; else null
 */
@PublicEvolving
public record LinearMeans(
    Interval mean,
    Interval reconstructedMean,
    double raw,
    double unbiased,
    double unbiasedFrom,
    double unbiasedTo,
    double reconstructed,
    MeanIntervalMethod intervalMethod,
    double identifiedWidth,
    MeanAlternative alternative) {}
