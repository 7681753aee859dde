package io.mmgr.stream.contract.agreement;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Votes over one metric's answers. The majority is self-consistency's decision rule (Wang et al. 2022,
 * "Self-Consistency Improves Chain of Thought Reasoning in Language Models", arXiv:2203.11171: sample
 * several answers, keep the most frequent); the paper leaves ties open, here the lowest tied value wins,
 * so noise can hold a pass back but never make one.
 */
public final class Votes {

    private Votes() {
    }

    /** The most frequent value (ties: the lowest of them); null when no value is given. */
    public static Double majority(List<Double> values) {
        Map<Double, Integer> counts = new TreeMap<>();
        values.stream().filter(Objects::nonNull).forEach(v -> counts.merge(v, 1, Integer::sum));
        Double best = null;
        int bestCount = 0;
        for (Map.Entry<Double, Integer> e : counts.entrySet()) {
            // ascending: a later value must count strictly more to win, so ties stay with the lowest
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }

    /** The lowest value given; null when none is. */
    public static Double lowest(List<Double> values) {
        return values.stream().filter(Objects::nonNull).min(Double::compare).orElse(null);
    }

    /**
     * Self-agreement: the share of the given values equal to {@code decided} (a judge's n samples against their
     * majority); null when no value is given.
     */
    public static Double agreement(List<Double> values, Double decided) {
        long given = values.stream().filter(Objects::nonNull).count();
        if (given == 0 || decided == null) {
            return null;
        }
        return values.stream().filter(decided::equals).count() / (double) given;
    }
}
