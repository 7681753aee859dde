package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.leaderboard.Table5;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A family is registered once and carries its own parts: every evaluator and rubric a task names
 * comes from the task's own family, every prior is for one of its tasks, and the catalogs the scorer
 * loads hold exactly what the families list.
 */
@Tag("unit")
class TaskFamilyTest {

    static final List<TaskFamily> FAMILIES = TaskFamily.installed();

    /** The class names every {@code META-INF/services/io.mmgr.stream.tasks.TaskFamily} on the class path lists. */
    static Set<String> registered() throws IOException {
        Set<String> out = new TreeSet<>();
        for (URL file : Collections.list(TaskFamilyTest.class.getClassLoader().getResources("META-INF/services/" + TaskFamily.class.getName()))) {
            try (InputStream in = file.openStream()) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(l -> l.replaceFirst("#.*", "").strip())
                        .filter(l -> !l.isEmpty()).forEach(out::add);
            }
        }
        return out;
    }

    @Test
    void theFamiliesAreExactlyTheRegisteredOnesEachInAFolderOfItsOwn() throws IOException {
        // no list of families here: the registrations are the list
        assertThat(FAMILIES).extracting(f -> f.getClass().getName()).containsExactlyInAnyOrderElementsOf(registered());
        assertThat(FAMILIES).isNotEmpty();
        Set<String> folders = new TreeSet<>();
        for (TaskFamily f : FAMILIES) {
            String pkg = f.getClass().getPackageName();
            assertThat(pkg).as("%s lives in a family folder", f.getClass()).matches("io\\.mmgr\\.stream\\.tasks\\.[a-z0-9]+")
                    .isNotEqualTo("io.mmgr.stream.tasks.cli");
            assertThat(folders.add(pkg)).as("one family per folder: %s", pkg).isTrue();
        }
        for (String retired : List.of("DeterministicEvaluator", "RubricProvider", "SimulatedTask")) {
            assertThat(Collections.list(getClass().getClassLoader().getResources("META-INF/services/io.mmgr.stream.tasks." + retired)))
                    .as("a family lists its %s itself", retired).isEmpty();
        }
    }

    @Test
    void everyEvaluatorAndRubricATaskNamesComesFromItsOwnFamily() {
        for (TaskFamily family : FAMILIES) {
            Set<String> evaluators = family.evaluators().stream().map(Supplier::get).map(DeterministicEvaluator::id)
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> rubrics = family.rubrics().stream().map(JudgeRubric::id).collect(Collectors.toCollection(TreeSet::new));
            Set<String> named = new TreeSet<>();
            Set<String> namedRubrics = new TreeSet<>();
            for (TaskSpec spec : family.tasks()) {
                named.addAll(spec.evaluators());
                spec.rubric().ifPresent(namedRubrics::add);
            }
            String name = family.getClass().getSimpleName();
            assertThat(evaluators).as("%s's evaluators", name).isEqualTo(named);
            assertThat(rubrics).as("%s's rubrics", name).isEqualTo(namedRubrics);
            Set<String> tasks = family.tasks().stream().map(TaskSpec::id).collect(Collectors.toSet());
            assertThat(family.agreementPriors()).as("%s's priors", name).allSatisfy(p -> assertThat(tasks).contains(p.task()));
        }
    }

    @Test
    void theCatalogsHoldWhatTheFamiliesList() {
        List<String> evaluators = new ArrayList<>();
        List<String> rubrics = new ArrayList<>();
        List<String> tasks = new ArrayList<>();
        for (TaskFamily f : FAMILIES) {
            f.evaluators().forEach(e -> evaluators.add(e.get().id()));
            f.rubrics().forEach(r -> rubrics.add(r.id()));
            f.tasks().forEach(t -> tasks.add(t.id()));
        }
        assertThat(EvaluatorRegistry.load().ids()).containsExactlyInAnyOrderElementsOf(evaluators);
        assertThat(RubricCatalog.load().all()).extracting(JudgeRubric::id).containsExactlyInAnyOrderElementsOf(rubrics);
        assertThat(TaskCatalog.load().ids()).containsExactlyInAnyOrderElementsOf(tasks);
        // each evaluator factory makes a new instance: stream threads must not share engines
        for (TaskFamily f : FAMILIES) {
            for (Supplier<DeterministicEvaluator> e : f.evaluators()) {
                assertThat(e.get()).isNotSameAs(e.get());
            }
        }
    }

    @Test
    void table5IsBuiltFromTheFamiliesPriorsAndAnUnlistedModelGetsTheLowestFigureStably() {
        Table5 table5 = Table5.of(FAMILIES);
        assertThat(table5.priors("maze", "Veo-3")).containsOnlyKeys("maze-pixel~human");
        assertThat(table5.priors("maze", "Veo-3").get("maze-pixel~human").agreement()).isEqualTo(0.9556);
        assertThat(table5.priors("nav-slag", "nano banana pro").get("judge~human").agreement()).isEqualTo(0.6239);
        // three models tie at 1.0: the first by name, every time
        assertThat(table5.priors("sudoku", "some-new-model").get("sudoku-ocr~human"))
                .isEqualTo(new Table5.Figure(1.0, "lowest listed model, Sora-2"));
        assertThat(table5.priors("mind2web", "Veo-3")).isEmpty();
    }
}
