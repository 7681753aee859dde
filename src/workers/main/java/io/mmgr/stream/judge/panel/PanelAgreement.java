package io.mmgr.stream.judge.panel;

import io.mmgr.stream.contract.agreement.JudgeAnswers;
import io.mmgr.stream.contract.agreement.Kappa;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.contract.VerdictStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Inter-judge agreement (Cohen's kappa for two judges, Fleiss' for more, {@link Kappa}) and self-agreement
 * per rubric and metric, from the panel verdicts this worker decided (each distinct prompt once: copies
 * from the cache are not counted again). An item counts toward a metric's kappa when every judge gave it
 * a value (its samples' majority). Shown as {@code mmgr.judge.panel_kappa{rubric,metric,method,bound}}
 * (bound: estimate, low, high of the 95 % interval), {@code mmgr.judge.panel_items{rubric,metric}} and
 * {@code mmgr.judge.self_agreement{rubric,metric}}; held in memory, per worker.
 */
public final class PanelAgreement {

    /** One rubric x metric's figures. */
    public record Figures(Kappa.Estimate kappa, Double selfAgreement) {
    }

    private final class Cell {
        final Kappa.Cohen cohen;
        final Kappa.Fleiss fleiss;
        final DoubleAdder selfSum = new DoubleAdder();
        final LongAdder selfCount = new LongAdder();

        Cell() {
            cohen = judges == 2 ? new Kappa.Cohen() : null;
            fleiss = judges > 2 ? new Kappa.Fleiss(judges) : null;
        }

        Kappa.Estimate kappa() {
            return cohen != null ? cohen.estimate() : fleiss != null ? fleiss.estimate() : null;
        }

        Double self() {
            long n = selfCount.sum();
            return n == 0 ? null : selfSum.sum() / n;
        }
    }

    private final int judges;
    private final MeterRegistry registry;
    private final Map<String, Cell> cells = new ConcurrentHashMap<>();

    /** @param judges the panel's size (1: self-agreement only) */
    public PanelAgreement(int judges, MeterRegistry registry) {
        this.judges = judges;
        this.registry = registry;
    }

    /** Counts a panel verdict decided here. */
    public void observe(JudgeVerdict v) {
        if (!VerdictStatus.VALID.is(v.getStatus())) {
            return;
        }
        v.getSelfAgreement().forEach((metric, share) -> {
            Cell c = cell(v.getRubric(), metric);
            c.selfSum.add(share);
            c.selfCount.increment();
        });
        if (judges < 2) {
            return;
        }
        Map<String, Map<String, Double>> byJudge = JudgeAnswers.of(v);
        if (byJudge.size() != judges) {
            return;
        }
        for (String metric : v.getMetrics().keySet()) {
            List<Double> values = new ArrayList<>();
            for (Map<String, Double> answers : byJudge.values()) {
                values.add(answers.get(metric));
            }
            if (values.contains(null)) {
                continue;
            }
            Cell c = cell(v.getRubric(), metric);
            if (c.cohen != null) {
                c.cohen.add(values.get(0), values.get(1));
            } else {
                Map<Double, Integer> counts = new HashMap<>();
                values.forEach(x -> counts.merge(x, 1, Integer::sum));
                c.fleiss.add(counts);
            }
        }
    }

    /** Figures by {@code rubric / metric}. */
    public Map<String, Figures> figures() {
        Map<String, Figures> out = new TreeMap<>();
        cells.forEach((k, c) -> out.put(k, new Figures(c.kappa(), c.self())));
        return out;
    }

    private Cell cell(String rubric, String metric) {
        return cells.computeIfAbsent(rubric + " / " + metric, k -> {
            Cell c = new Cell();
            if (registry != null) {
                Gauge.builder("mmgr.judge.self_agreement", () -> orNaN(c.self()))
                        .description("share of a judge's repeated samples equal to their majority, mean over verdicts")
                        .tag("rubric", rubric).tag("metric", metric).register(registry);
                if (judges >= 2) {
                    String method = judges == 2 ? "cohen" : "fleiss";
                    Gauge.builder("mmgr.judge.panel_items", () -> c.kappa().items()).tag("rubric", rubric).tag("metric", metric)
                            .description("items every panel judge rated").register(registry);
                    Gauge.builder("mmgr.judge.panel_kappa", () -> c.kappa().kappa()).tag("rubric", rubric).tag("metric", metric)
                            .tag("method", method).tag("bound", "estimate").register(registry);
                    Gauge.builder("mmgr.judge.panel_kappa", () -> c.kappa().low()).tag("rubric", rubric).tag("metric", metric)
                            .tag("method", method).tag("bound", "low").register(registry);
                    Gauge.builder("mmgr.judge.panel_kappa", () -> c.kappa().high()).tag("rubric", rubric).tag("metric", metric)
                            .tag("method", method).tag("bound", "high").register(registry);
                }
            }
            return c;
        });
    }

    private static double orNaN(Double d) {
        return d == null ? Double.NaN : d;
    }
}
