package io.mmgr.stream.tasks;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the scorer knows about one benchmark task: which modalities it accepts, which
 * deterministic evaluators and which judge rubric produce its parts, and its gate.
 *
 * @param id          task id as it appears in events, e.g. {@code maze}, {@code mind2web}
 * @param family      task family folder, e.g. {@code maze}, {@code nav}, {@code magma}
 * @param benchmark   {@code mmgr} or {@code magma}
 * @param modalities  accepted {@code modality} values of generation events
 * @param evaluators  ids of the deterministic evaluators that score this task (parts named by id)
 * @param rubric      the judge rubric id when the task has a judged half; the part is named {@value #JUDGE_PART}
 * @param gate        turns the arrived metrics into the gated primary score
 */
public record TaskSpec(String id, String family, String benchmark, Set<String> modalities,
                       List<String> evaluators, Optional<String> rubric, TaskGate gate) {

    /** Name of the judge's part in a sample's assembly. */
    public static final String JUDGE_PART = "judge";

    public TaskSpec {
        Objects.requireNonNull(id);
        Objects.requireNonNull(family);
        Objects.requireNonNull(benchmark);
        modalities = Set.copyOf(modalities);
        evaluators = List.copyOf(evaluators);
        Objects.requireNonNull(rubric);
        Objects.requireNonNull(gate);
    }

    public boolean judged() {
        return rubric.isPresent();
    }
}
