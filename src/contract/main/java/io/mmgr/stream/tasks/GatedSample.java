package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.PartResult;
import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.contract.PartStatus;
import io.mmgr.stream.contract.SampleStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A sample's arrived parts through its task's gate: the typed part metrics ({@code <part>.<metric>}),
 * the parts' errors, the gate's result and the sample's status. The stream's assembly
 * ({@code ScoreAssembler}) and {@link SampleScorer} both score with this.
 *
 * @param status         COMPLETE, PARTIAL (parts unavailable), PENDING (a part still coming) or FAILED
 * @param metrics        the usable parts' metrics, as the gate saw them
 * @param errors         the reason of each part that failed, by part
 * @param justifications the judge's, by metric
 * @param used           {@code <part>@<source>} of every usable part
 * @param gate           the task's gate over {@link #metrics}
 */
public record GatedSample(SampleStatus status, Map<String, Double> metrics, Map<String, String> errors,
                          Map<String, String> justifications, List<String> used, GateResult gate) {

    public GatedSample {
        metrics = Collections.unmodifiableMap(new TreeMap<>(metrics));
        errors = Collections.unmodifiableMap(new TreeMap<>(errors));
        justifications = Collections.unmodifiableMap(new TreeMap<>(justifications));
        used = List.copyOf(used);
    }

    /**
     * Gates one sample.
     *
     * @param spec        its task (empty: a task this build does not know, which has no gate)
     * @param arrived     its planned parts that arrived and are not pending
     * @param unavailable parts that cannot arrive, by name
     * @param waiting     whether a planned part is still coming
     */
    public static GatedSample of(String task, Optional<TaskSpec> spec, String modality, Collection<PartResult> arrived,
                                 Map<String, String> unavailable, boolean waiting) {
        Map<String, Double> metrics = new TreeMap<>();
        Map<String, String> errors = new TreeMap<>();
        Map<String, String> justifications = new TreeMap<>();
        Set<String> usable = new HashSet<>();
        List<String> used = new ArrayList<>();
        for (PartResult part : arrived) {
            if (PartStatus.OK.is(part.getStatus())) {
                usable.add(part.getPart());
                used.add(part.getPart() + "@" + part.getSource());
                part.getMetrics().forEach((m, v) -> metrics.put(MetricKey.wire(part.getPart(), m), v));
                if (TaskSpec.JUDGE_PART.equals(part.getPart())) {
                    justifications.putAll(part.getDetail());
                }
            } else {
                errors.put(part.getPart(), part.getError() == null ? part.getStatus() : part.getError());
            }
        }
        GateResult gate = spec
                .map(s -> s.gate().evaluate(new GateInput(task, modality, metrics, usable)))
                .orElse(new GateResult(null, null, Map.of(), List.of(), List.of("no gate for task " + task)));
        SampleStatus status = waiting ? SampleStatus.PENDING
                : !errors.isEmpty() ? SampleStatus.FAILED
                : !unavailable.isEmpty() ? SampleStatus.PARTIAL
                : SampleStatus.COMPLETE;
        return new GatedSample(status, metrics, errors, justifications, used, gate);
    }
}
