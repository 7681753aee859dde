package io.mmgr.stream.tasks;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Builds gate inputs from check labels written the way the seed's gate table reads, e.g.
 * {@code judge.clues_changed=0}: the metric key, then the value that passes. Tests write these
 * labels out themselves, so a gate that checks the wrong metric, the wrong value or the wrong
 * set of metrics disagrees with them.
 */
public final class MmgrGateFixture {

    private static final TaskCatalog CATALOG = TaskCatalog.load();

    private MmgrGateFixture() {
    }

    /** The gate the catalog wires to a task, so tests exercise the real wiring. */
    public static TaskGate gate(String task) {
        return CATALOG.find(task).orElseThrow(() -> new AssertionError("task not in catalog: " + task)).gate();
    }

    public static GateResult evaluate(String task, String modality, Map<String, Double> metrics) {
        return gate(task).evaluate(input(task, modality, metrics));
    }

    public static GateResult evaluate(String task, String modality, Map<String, Double> metrics, Set<String> parts) {
        return gate(task).evaluate(new GateInput(task, modality, metrics, parts));
    }

    /** {@code judge.clues_changed=0} -> {@code judge.clues_changed}. */
    public static String key(String label) {
        return label.substring(0, label.lastIndexOf('='));
    }

    /** {@code judge.clues_changed=0} -> 0.0. */
    public static double passValue(String label) {
        return Double.parseDouble(label.substring(label.lastIndexOf('=') + 1));
    }

    /** The other binary value. */
    public static double failValue(String label) {
        return 1.0 - passValue(label);
    }

    /** Metrics under which every labelled check holds (later lists override earlier ones). */
    @SafeVarargs
    public static Map<String, Double> passing(Collection<String>... labels) {
        Map<String, Double> metrics = new HashMap<>();
        Arrays.stream(labels).flatMap(Collection::stream).forEach(l -> metrics.put(key(l), passValue(l)));
        return metrics;
    }

    /** A copy with one value replaced (null allowed: "not applicable"). */
    public static Map<String, Double> with(Map<String, Double> metrics, String key, Double value) {
        Map<String, Double> copy = new HashMap<>(metrics);
        copy.put(key, value);
        return copy;
    }

    /** A copy with the labelled check's metric set to its failing value. */
    public static Map<String, Double> flipped(Map<String, Double> metrics, String label) {
        return with(metrics, key(label), failValue(label));
    }

    /** A copy without the labelled check's metric. */
    public static Map<String, Double> without(Map<String, Double> metrics, String label) {
        Map<String, Double> copy = new HashMap<>(metrics);
        copy.remove(key(label));
        return copy;
    }

    /** An input whose arrived parts are the parts named by the metric keys. */
    public static GateInput input(String task, String modality, Map<String, Double> metrics) {
        return new GateInput(task, modality, metrics, partsOf(metrics.keySet()));
    }

    public static Set<String> partsOf(Collection<String> keys) {
        return keys.stream().map(k -> k.substring(0, k.indexOf('.'))).collect(Collectors.toSet());
    }

    /** Labels of {@code all} not in {@code excluded}, keeping order. */
    public static List<String> minus(List<String> all, Collection<String> excluded) {
        return all.stream().filter(l -> !excluded.contains(l)).toList();
    }
}
