package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.MechanismType;

/**
 * A mechanism whose window-mean interval would have been narrower for a window whose readings the
 * field's own mechanism could not place: its expected 95 % interval width at the window's count,
 * the same for every input (an unbiased mechanism without end bands), at the field's epsilon.
 *
 * @param mechanism the mechanism
 * @param expectedWidth its expected interval width at the window's count, in the field's units
 */
@PublicEvolving
public record MeanAlternative(MechanismType mechanism, double expectedWidth) {}
