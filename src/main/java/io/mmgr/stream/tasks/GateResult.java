package io.mmgr.stream.tasks;

import java.util.List;
import java.util.Map;

/**
 * The outcome of a task's gate.
 *
 * @param primary       the gated primary score (0/1 for MMGR; a fraction for some Magma tasks);
 *                      null when a required check has no value yet
 * @param primarySource which gate variant produced the primary (e.g. {@code vlm}, {@code pixel})
 * @param gates         every gate variant and composite, by name (null where it cannot be computed)
 * @param failedChecks  checks of the primary variant that did not hold, e.g. {@code judge.cross_wall=0}
 * @param missingChecks checks of the primary variant whose metric has not arrived
 */
public record GateResult(Double primary, String primarySource, Map<String, Double> gates,
                         List<String> failedChecks, List<String> missingChecks) {

    public GateResult {
        gates = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(gates));
        failedChecks = List.copyOf(failedChecks);
        missingChecks = List.copyOf(missingChecks);
    }
}
