package io.mmgr.stream.tasks;

import io.mmgr.stream.contract.MetricKey;
import java.util.function.DoublePredicate;

/**
 * One required check of an AND-gate: a metric key and the condition its value must meet.
 * Fractional metrics enter at their strict endpoints (seed: "violation = 0, accuracy = perfect/1.0"),
 * so equality checks are exact.
 *
 * @param metric      {@code <part>.<metric>} key in {@link GateInput#metrics()} (a {@link MetricKey}'s wire form)
 * @param expectation human-readable condition, e.g. {@code =0}, {@code >0.8}
 */
public record Check(String metric, String expectation, DoublePredicate condition) {

    public static Check isOne(String metric) {
        return new Check(metric, "=1", v -> v == 1.0);
    }

    public static Check isZero(String metric) {
        return new Check(metric, "=0", v -> v == 0.0);
    }

    public static Check above(String metric, double threshold) {
        return new Check(metric, ">" + threshold, v -> v > threshold);
    }

    public static Check isOne(MetricKey key) {
        return isOne(key.toString());
    }

    public static Check isZero(MetricKey key) {
        return isZero(key.toString());
    }

    public static Check above(MetricKey key, double threshold) {
        return above(key.toString(), threshold);
    }

    /** {@code judge.cross_wall=0} */
    public String label() {
        return metric + expectation;
    }
}
