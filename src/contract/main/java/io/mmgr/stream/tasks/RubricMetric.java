package io.mmgr.stream.tasks;

import java.util.Objects;

/**
 * One fine-grained metric a judge rubric asks for.
 *
 * @param name        bare metric name, as the task's gate reads it after {@code judge.}
 * @param type        binary (0/1) or a fraction in [0,1]
 * @param videoOnly   the seed marks it "N/A" for images: not asked for images, reported as null
 * @param passValue   the value the task's gate requires, or null when the metric does not gate; fractions
 *                    enter the gate at this strict endpoint, and agreement statistics binarize with it
 * @param description what the judge is asked, in the seed's terms
 */
public record RubricMetric(String name, Type type, boolean videoOnly, Double passValue, String description) {

    public enum Type { BINARY, FRACTION }

    public RubricMetric {
        Objects.requireNonNull(name);
        Objects.requireNonNull(type);
        Objects.requireNonNull(description);
    }

    public static RubricMetric binary(String name, Double passValue, String description) {
        return new RubricMetric(name, Type.BINARY, false, passValue, description);
    }

    public static RubricMetric fraction(String name, Double passValue, String description) {
        return new RubricMetric(name, Type.FRACTION, false, passValue, description);
    }

    /** The same metric, asked for videos only. */
    public RubricMetric forVideoOnly() {
        return new RubricMetric(name, type, true, passValue, description);
    }

    public boolean appliesTo(String modality) {
        return !videoOnly || "video".equals(modality);
    }
}
