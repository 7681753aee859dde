package io.mmgr.stream.tasks;

import java.util.Map;

/**
 * A judge's answer after validation: every metric the rubric asked for, by bare name (null: not
 * applicable to the modality), and the judge's justification of each.
 */
public record RubricAnswer(Map<String, Double> metrics, Map<String, String> justifications) {

    public RubricAnswer {
        metrics = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metrics));
        justifications = Map.copyOf(justifications);
    }
}
