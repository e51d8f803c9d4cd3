package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.MechanismType;

/**
 * A mechanism whose window-mean interval would have been narrower for a window whose readings the
 * field's own mechanism could not place: an unbiased mechanism without end bands, with its expected
 * 95 % interval width at the window's count and the field's epsilon, the largest for readings
 * anywhere in the window's interval.
 *
 * @param mechanism the mechanism
 * @param expectedWidth its expected interval width at the window's count for readings anywhere in
 *     the window's interval, in the field's units
 */
@PublicEvolving
public record MeanAlternative(MechanismType mechanism, double expectedWidth) {}
