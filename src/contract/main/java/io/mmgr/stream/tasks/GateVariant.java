package io.mmgr.stream.tasks;

import io.mmgr.stream.contract.MetricKey;
import java.util.ArrayList;
import java.util.List;

/**
 * A strict AND over checks. Three-valued: any failed check gives 0 (a single failure decides the
 * gate whatever is still missing); otherwise a missing metric gives null; otherwise 1.
 */
public record GateVariant(String name, List<Check> checks) {

    public GateVariant {
        checks = List.copyOf(checks);
        if (checks.isEmpty()) {
            throw new IllegalArgumentException("gate " + name + " has no checks");
        }
    }

    public static GateVariant of(String name, Check... checks) {
        return new GateVariant(name, List.of(checks));
    }

    public Outcome evaluate(GateInput input) {
        List<String> failed = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Check check : checks) {
            Double value = input.metrics().get(check.metric());
            if (value == null || value.isNaN()) {
                missing.add(check.label());
            } else if (!check.condition().test(value)) {
                failed.add(check.label());
            }
        }
        Double value = !failed.isEmpty() ? Double.valueOf(0.0) : !missing.isEmpty() ? null : Double.valueOf(1.0);
        return new Outcome(name, value, failed, missing);
    }

    /**
     * Labels of this variant's checks on parts that have not arrived with usable metrics (still
     * coming, unavailable or failed), whether or not the variant is the primary.
     */
    public List<String> absent(GateInput input) {
        List<String> absent = new ArrayList<>();
        for (Check check : checks) {
            if (input.parts().stream().noneMatch(part -> MetricKey.tryParse(check.metric()).filter(k -> k.isOf(part)).isPresent())) {
                absent.add(check.label());
            }
        }
        return absent;
    }

    /** The variant's value (0, 1 or null) with the checks that failed or are missing. */
    public record Outcome(String name, Double value, List<String> failed, List<String> missing) {
        /** True when every check's metric has arrived. */
        public boolean complete() {
            return missing.isEmpty();
        }
    }
}
