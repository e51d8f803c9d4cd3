package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * What a window says about one field.
 *
 * @param count perturbed values seen
 * @param rawHistogram frequencies of the perturbed values over the k input bins (outputs beyond the
 *     domain counted in the end bins); sums to 1 (all zeros when count is 0)
 * @param reconstructedHistogram the EM reconstruction over the same bins, or null
 * @param iterations EM iterations used (0 without reconstruction)
 * @param linear means of a classical field, else null
 * @param circular means of a circular field, else null
 * @param distribution a simultaneous 95 % band for the cumulative distribution of the window's
 *     inputs, with the quantiles and exceedance shares asked for ({@link DistributionQuery}) read
 *     off it; or null (an empty window, or a mechanism without a band). It is the histogram's
 *     uncertainty too: the share between two points lies in {@link CumulativeBand#share}.
 */
@PublicEvolving
public record FieldEstimate(
    long count,
    double[] rawHistogram,
    double[] reconstructedHistogram,
    int iterations,
    LinearMeans linear,
    CircularMeans circular,
    DistributionEstimate distribution) {}
