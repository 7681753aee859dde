package io.mmgr.stream.tasks;

import java.util.Map;
import java.util.Optional;

/**
 * Metrics of one evaluation, by bare name (the assembly prefixes them with the evaluator id).
 * A null value means "not applicable" (e.g. Action Reflection of an image).
 *
 * @param detail the evaluator's own typed result behind the metrics (e.g. one Mind2Web episode's step
 *               results), or null. In-process only, never serialised: a benchmark's set-level
 *               aggregation (micro averages, the official column sums) needs more than the per-sample
 *               metrics, and recomputing it from rounded metrics would not give the same bits.
 */
public record EvaluationOutcome(Map<String, Double> metrics, Map<String, String> diagnostics, Object detail) {

    public EvaluationOutcome {
        metrics = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metrics));
        diagnostics = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(diagnostics));
    }

    public EvaluationOutcome(Map<String, Double> metrics, Map<String, String> diagnostics) {
        this(metrics, diagnostics, null);
    }

    public static EvaluationOutcome of(Map<String, Double> metrics) {
        return new EvaluationOutcome(metrics, Map.of());
    }

    /** The detail, when the evaluator attached one of this type. */
    public <T> Optional<T> detail(Class<T> type) {
        return type.isInstance(detail) ? Optional.of(type.cast(detail)) : Optional.empty();
    }
}
