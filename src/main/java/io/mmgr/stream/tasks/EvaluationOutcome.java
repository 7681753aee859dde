package io.mmgr.stream.tasks;

import java.util.Map;

/**
 * Metrics of one evaluation, by bare name (the assembly prefixes them with the evaluator id).
 * A null value means "not applicable" (e.g. Action Reflection of an image).
 */
public record EvaluationOutcome(Map<String, Double> metrics, Map<String, String> diagnostics) {

    public EvaluationOutcome {
        metrics = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metrics));
        diagnostics = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(diagnostics));
    }

    public static EvaluationOutcome of(Map<String, Double> metrics) {
        return new EvaluationOutcome(metrics, Map.of());
    }
}
