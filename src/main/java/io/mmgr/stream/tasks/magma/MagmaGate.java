package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.tasks.Check;
import io.mmgr.stream.tasks.GateInput;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.GateVariant;
import io.mmgr.stream.tasks.TaskGate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gate of a Magma task. Unlike MMGR's AND-gates, the primary is the seed's primary metric
 * itself, a fraction: the step success rate of an episode (Mind2Web, AITW) or the success rate of a
 * robot task's trials, 0/1 for a ScreenSpot click. Averaging those per-sample fractions is exactly
 * how the benchmarks report them (Mind2Web's macro average over tasks; a task's trial success rate);
 * collapsing them to all-or-nothing would report task success instead, which the gates map keeps
 * beside it where it exists.
 *
 * <p>The primary is null while its metric has not arrived. {@code failedChecks} says why a sample
 * fell short of 1: the primary's own check and any of the {@code explaining} checks that failed
 * (e.g. element accuracy or operation F1 below 1).
 */
final class MagmaGate implements TaskGate {

    private final String source;
    private final String primaryMetric;
    private final List<Check> explaining;
    private final List<GateVariant> companions;

    /**
     * @param source        the evaluator id whose metric is primary, e.g. {@code magma-ui}
     * @param primaryMetric bare metric name, also the primary's name in the gates map
     * @param explaining    checks reported in {@code failedChecks} when they fail
     * @param companions    all-or-nothing gates reported beside the primary
     */
    MagmaGate(String source, String primaryMetric, List<Check> explaining, List<GateVariant> companions) {
        this.source = source;
        this.primaryMetric = primaryMetric;
        this.explaining = List.copyOf(explaining);
        this.companions = List.copyOf(companions);
    }

    String primaryKey() {
        return source + "." + primaryMetric;
    }

    @Override
    public GateResult evaluate(GateInput input) {
        Check primaryCheck = Check.isOne(primaryKey());
        Double primary = input.metrics().get(primaryKey());
        if (primary != null && primary.isNaN()) {
            primary = null;
        }
        Map<String, Double> gates = new LinkedHashMap<>();
        gates.put(primaryMetric, primary);
        for (GateVariant companion : companions) {
            gates.put(companion.name(), companion.evaluate(input).value());
        }
        List<String> failed = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        if (primary == null) {
            missing.add(primaryCheck.label());
        } else if (!primaryCheck.condition().test(primary)) {
            failed.add(primaryCheck.label());
        }
        for (Check check : explaining) {
            Double v = input.metrics().get(check.metric());
            if (v != null && !v.isNaN() && !check.condition().test(v)) {
                failed.add(check.label());
            }
        }
        return new GateResult(primary, source, gates, failed, missing);
    }
}
