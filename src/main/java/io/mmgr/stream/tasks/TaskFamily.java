package io.mmgr.stream.tasks;

import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * A folder of related tasks (maze, sudoku, nav, magma, ...) and everything the scorer needs of it: its
 * task specs, deterministic evaluators, judge rubrics, agreement priors and demo simulation. A family is
 * registered once, in {@code META-INF/services/io.mmgr.stream.tasks.TaskFamily}; the catalogs read
 * their parts from it, so a new family plugs in without touching them.
 */
public interface TaskFamily {

    List<TaskSpec> tasks();

    /** Factories of its evaluators: each stream or worker thread makes its own (they may hold engines). */
    default List<Supplier<DeterministicEvaluator>> evaluators() {
        return List.of();
    }

    default List<JudgeRubric> rubrics() {
        return List.of();
    }

    /** Published human-agreement figures of its raters, the reliability flags' prior until labels exist. */
    default List<AgreementPrior> agreementPriors() {
        return List.of();
    }

    /** Its simulated training run for {@code bin/mmgr demo}, if it has one. */
    default List<SimulatedTask> simulations() {
        return List.of();
    }

    /** The families on the class path. */
    static List<TaskFamily> installed() {
        return ServiceLoader.load(TaskFamily.class).stream().map(ServiceLoader.Provider::get).toList();
    }
}
