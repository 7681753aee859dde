package io.mmgr.stream.tasks;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a gate sees of one sample.
 *
 * @param task     task id
 * @param modality the generation's modality ({@code image}, {@code video}, ...)
 * @param metrics  every arrived metric as {@code <part>.<metric>} (e.g. {@code judge.cross_wall},
 *                 {@code maze-pixel.layout_iou}); a null value means the part reported it as not applicable
 * @param parts    parts that arrived with usable metrics (status OK / VALID)
 */
public record GateInput(String task, String modality, Map<String, Double> metrics, Set<String> parts) {

    public GateInput {
        metrics = java.util.Collections.unmodifiableMap(new java.util.HashMap<>(metrics));
        parts = Set.copyOf(parts);
    }

    public Optional<Double> metric(String key) {
        return Optional.ofNullable(metrics.get(key));
    }

    public boolean has(String part) {
        return parts.contains(part);
    }

    public boolean isVideo() {
        return "video".equals(modality);
    }
}
