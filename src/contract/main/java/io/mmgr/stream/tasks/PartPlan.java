package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.contract.Reasons;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Which parts a sample needs and what cannot arrive, decided before anything is evaluated: the task's
 * deterministic evaluators that are installed (each precheck passing), then its judge rubric when a
 * judge is configured. Intake plans every sample with this; {@link SampleScorer} too. Besides whole parts,
 * {@code unavailable} names single metrics a planned part cannot give
 * ({@link DeterministicEvaluator#unavailableMetrics}) by their {@code <part>.<metric>} key: the sample is
 * then PARTIAL, as without a judge, and its score's {@code pending} says why.
 *
 * @param rejection   why the event cannot be scored (a precheck refused it), or null
 * @param planned     the parts to wait for, evaluators first, then {@value TaskSpec#JUDGE_PART}
 * @param unavailable parts (and single metrics of planned parts) that cannot arrive, with the reason, by name
 */
public record PartPlan(String rejection, List<String> planned, Map<String, String> unavailable) {

    public PartPlan {
        planned = List.copyOf(planned);
        unavailable = Collections.unmodifiableMap(new TreeMap<>(unavailable));
    }

    public boolean rejected() {
        return rejection != null;
    }

    /**
     * Plans one sample.
     *
     * @param prechecks    the evaluator to precheck with, by id; empty when it is not in this build
     * @param judgeEnabled whether a judge is configured (else the judged part is unavailable)
     */
    public static PartPlan of(TaskSpec spec, Function<String, Optional<DeterministicEvaluator>> prechecks,
                              GenerationEvent event, BenchmarkItem item, boolean judgeEnabled) {
        List<String> planned = new ArrayList<>();
        Map<String, String> unavailable = new TreeMap<>();
        for (String id : spec.evaluators()) {
            Optional<DeterministicEvaluator> evaluator = prechecks.apply(id);
            if (evaluator.isEmpty()) {
                unavailable.put(id, "evaluator '" + id + "' is not installed in this build");
                continue;
            }
            Optional<String> problem;
            Map<String, String> missing = Map.of();
            try {
                problem = evaluator.get().precheck(event, item);
                if (problem.isEmpty()) {
                    missing = evaluator.get().unavailableMetrics(event, item);
                }
            } catch (RuntimeException e) {
                problem = Optional.of("precheck failed: " + Reasons.describe(e));
            }
            if (problem.isPresent()) {
                return new PartPlan(id + ": " + problem.get(), List.of(), Map.of());
            }
            planned.add(id);
            missing.forEach((metric, why) -> unavailable.put(MetricKey.wire(id, metric), why));
        }
        if (spec.judged()) {
            if (judgeEnabled) {
                planned.add(TaskSpec.JUDGE_PART);
            } else {
                unavailable.put(TaskSpec.JUDGE_PART, "no judge configured");
            }
        }
        return new PartPlan(null, planned, unavailable);
    }
}
