package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.contract.MetricKey;
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
 * <p>A metric on another scale (VisualWebBench's 0-100) is divided by {@code scale} to give the primary
 * in [0, 1], the range the primary rate, its interval and the checkpoint comparisons assume. A graded
 * primary (a ROUGE similarity, which the package caps just below 1) has no pass mark: it is never
 * reported as a failed check.
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
    private final double scale;
    private final boolean graded;

    /**
     * @param source        the evaluator id whose metric is primary, e.g. {@code magma-ui}
     * @param primaryMetric bare metric name, also the primary's name in the gates map
     * @param explaining    checks reported in {@code failedChecks} when they fail
     * @param companions    all-or-nothing gates reported beside the primary
     */
    MagmaGate(String source, String primaryMetric, List<Check> explaining, List<GateVariant> companions) {
        this(source, primaryMetric, explaining, companions, 1.0, false);
    }

    private MagmaGate(String source, String primaryMetric, List<Check> explaining, List<GateVariant> companions,
                      double scale, boolean graded) {
        this.source = source;
        this.primaryMetric = primaryMetric;
        this.explaining = List.copyOf(explaining);
        this.companions = List.copyOf(companions);
        this.scale = scale;
        this.graded = graded;
    }

    /** A primary metric on 0..{@code scale}; {@code graded} when it is a similarity without a pass mark. */
    static MagmaGate scaled(String source, String primaryMetric, double scale, boolean graded) {
        return new MagmaGate(source, primaryMetric, List.of(), List.of(), scale, graded);
    }

    String primaryKey() {
        return MetricKey.of(source, primaryMetric).toString();
    }

    @Override
    public GateResult evaluate(GateInput input) {
        // the check is on the scaled primary, its label on the metric's own scale (e.g. =100)
        Check primaryCheck = scale == 1.0 ? Check.isOne(primaryKey())
                : new Check(primaryKey(), "=" + (long) scale, v -> v == 1.0);
        Double primary = input.metrics().get(primaryKey());
        if (primary != null && primary.isNaN()) {
            primary = null;
        }
        if (primary != null && scale != 1.0) {
            primary = primary / scale;
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
        } else if (!graded && !primaryCheck.condition().test(primary)) {
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
