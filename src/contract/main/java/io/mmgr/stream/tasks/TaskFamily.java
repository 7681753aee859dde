package io.mmgr.stream.tasks;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * A folder of related tasks (maze, sudoku, nav, magma, ...) and everything the scorer needs of it: its
 * task specs, deterministic evaluators, judge rubrics, agreement priors, demo simulation, the input
 * adapters of its {@code mmgr eval} commands and the commands themselves. A family is registered once, in
 * {@code META-INF/services/io.mmgr.stream.tasks.TaskFamily}; the catalogs and the eval commands read
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

    /** Its input adapters for {@code mmgr eval <command>}, for commands that take a case of its own shape. */
    default List<EvalAdapter> evalAdapters() {
        return List.of();
    }

    /**
     * Its {@code mmgr eval <name>} commands, picocli command objects (built on {@code tasks.cli}), new ones at
     * each call: the app adds them under {@code eval}, so a family's command lives in its folder.
     */
    default List<Object> evalCommands() {
        return List.of();
    }

    /** Its {@code mmgr bench generate <name>} commands (benchmark items with known ground truth), as {@link #evalCommands()}. */
    default List<Object> generateCommands() {
        return List.of();
    }

    /** Its own ground truth's schema ({@code groundTruth.payload}), if it has one: the dashboard shows a payload decoded. */
    default Optional<FamilyPayload> payload() {
        return Optional.empty();
    }

    /** The families on the class path. */
    static List<TaskFamily> installed() {
        return ServiceLoader.load(TaskFamily.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    /** The installed adapter serving {@code mmgr eval <command>}. */
    static EvalAdapter evalAdapter(String command) {
        return installed().stream().flatMap(f -> f.evalAdapters().stream()).filter(a -> a.command().equals(command))
                .findFirst().orElseThrow(() -> new IllegalStateException("no installed family serves eval " + command));
    }
}
