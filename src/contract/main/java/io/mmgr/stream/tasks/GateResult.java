package io.mmgr.stream.tasks;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of a task's gate.
 *
 * @param primary       the gated primary score (0/1 for MMGR; a fraction for some Magma tasks);
 *                      null when a required check has no value yet
 * @param primarySource which gate variant produced the primary (e.g. {@code vlm}, {@code pixel})
 * @param gates         every gate variant and composite, by name (null where it cannot be computed)
 * @param failedChecks  checks of the primary variant that did not hold, e.g. {@code judge.cross_wall=0}
 * @param missingChecks checks of the primary variant whose metric has not arrived, then those the
 *                      other variants would make on parts that have not arrived (see {@link #of})
 */
public record GateResult(Double primary, String primarySource, Map<String, Double> gates,
                         List<String> failedChecks, List<String> missingChecks) {

    public GateResult {
        gates = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(gates));
        failedChecks = List.copyOf(failedChecks);
        missingChecks = List.copyOf(missingChecks);
    }

    /**
     * The result of a gate with fallback variants, the primary being one of them. A sample scored by
     * its fallback (a maze image by its pixels, no judge configured or its verdict still coming) lists
     * the checks the absent part would have made, so every sample with a part missing says what it leaves out.
     */
    public static GateResult of(GateInput input, GateVariant.Outcome primary, Map<String, Double> gates,
                                GateVariant... variants) {
        Set<String> missing = new LinkedHashSet<>(primary.missing());
        for (GateVariant variant : variants) {
            missing.addAll(variant.absent(input));
        }
        return new GateResult(primary.value(), primary.name(), gates, primary.failed(), List.copyOf(missing));
    }
}
