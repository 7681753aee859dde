package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import io.mmgr.stream.tasks.magma.MagmaTruth;
import io.mmgr.stream.tasks.sudoku.SudokuTruth;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The families' {@code eval} input adapters: each serves one command, prints one of its own family's
 * evaluators for one of its tasks, and turns a case into the event and item intake would join.
 */
@Tag("unit")
class EvalAdapterTest {

    @Test
    void eachAdapterServesOneCommandWithAnEvaluatorOfItsOwnFamily() {
        List<String> commands = new ArrayList<>();
        for (TaskFamily family : TaskFamily.installed()) {
            Set<String> evaluators = family.evaluators().stream().map(Supplier::get).map(DeterministicEvaluator::id)
                    .collect(Collectors.toCollection(TreeSet::new));
            for (EvalAdapter a : family.evalAdapters()) {
                commands.add(a.command());
                assertThat(evaluators).as("%s's evaluator", a.command()).contains(a.evaluator());
                assertThat(a.evaluatorFactory().get().id()).isEqualTo(a.evaluator());
                assertThat(TaskFamily.evalAdapter(a.command()).evaluator()).isEqualTo(a.evaluator());
            }
        }
        assertThat(commands).contains("sudoku", "arc").doesNotHaveDuplicates();
        assertThatThrownBy(() -> TaskFamily.evalAdapter("no-such-command")).hasMessageContaining("no-such-command");
    }

    @Test
    void aSudokuCaseBecomesTheEventAndItemTheStreamWouldJoin() throws Exception {
        ObjectNode c = new ObjectMapper().createObjectNode().put("size", 4).put("givens", "1...............")
                .put("solution", "1234341221434321").put("output", "out/answer.mp4");
        EvalSample s = TaskFamily.evalAdapter("sudoku").sample(new EvalCase(c));
        assertThat(s.item().getTask()).isEqualTo(s.event().getTask());
        assertThat(s.item().getSampleId()).isEqualTo(s.event().getSampleId()).isEqualTo(EvalSample.CLI);
        assertThat(SudokuTruth.of(s.item().getGroundTruth())).isEqualTo(new SudokuTruth(4, "1...............", "1234341221434321"));
        assertThat(s.event().getModality()).isEqualTo("video");
        assertThat(s.event().getModel()).as("a blank model").isEqualTo(EvalSample.CLI);
        assertThat(s.event().getArtifacts()).singleElement().satisfies(a -> {
            assertThat(a.getMediaType()).isEqualTo("video/mp4");
            assertThat(a.getUri()).isEqualTo(Path.of("out/answer.mp4").toAbsolutePath().normalize().toUri().toString());
        });
        c.remove("solution");
        assertThatThrownBy(() -> TaskFamily.evalAdapter("sudoku").sample(new EvalCase(c)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("case is missing 'solution'");
    }

    @Test
    void caseFieldsAreCheckedByName() {
        ObjectNode c = new ObjectMapper().createObjectNode().put("n", 2.5).put("blank", " ");
        c.putArray("xs").add(1).add("two");
        EvalCase e = new EvalCase(c);
        assertThat(e.integer("absent", 7)).isEqualTo(7);
        assertThat(e.integers("absent")).isNull();
        assertThatThrownBy(() -> e.integer("n", 0)).hasMessage("case's 'n' must be an integer");
        assertThatThrownBy(() -> e.requiredText("blank")).hasMessage("case is missing 'blank'");
        assertThatThrownBy(() -> e.integers("xs")).hasMessage("case's 'xs' must be an array of numbers");
        assertThatThrownBy(() -> e.integers("n")).hasMessage("case's 'n' must be an array of numbers");
        c.putArray("region").add(0).add(2).add(10.9).add(5);
        assertThat(e.integers("region")).as("truncated, as the flags' integers").containsExactly(0, 2, 10, 5);
    }

    @Test
    void aScreenSpotLineBecomesOneClickSampleAndItsFieldErrorsCarryTheLine() throws Exception {
        ObjectNode c = new ObjectMapper().createObjectNode().put("id", "s1").put("kind", "icon");
        c.putArray("bbox").add(0).add(0).add(10).add(10);
        c.putArray("point").add(4).add(5.5);
        EvalAdapter adapter = TaskFamily.evalAdapter("screenspot");
        EvalSample s = adapter.sample(new EvalCase(c, 3));
        assertThat(s.event().getTask()).isEqualTo("screenspot").isEqualTo(s.item().getTask());
        assertThat(s.event().getInputs().getUiActions()).singleElement()
                .satisfies(a -> assertThat(a.getPoint()).containsExactly(4.0, 5.5));
        assertThat(MagmaTruth.of(s.item().getGroundTruth()).targetBox()).containsExactly(0.0, 0.0, 10.0, 10.0);
        assertThat(MagmaTruth.of(s.item().getGroundTruth()).elementKind()).isEqualTo("icon");

        c.putArray("point").add(1).add("x");
        assertThatThrownBy(() -> adapter.sample(new EvalCase(c, 3)))
                .isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(3))
                .hasMessage("'point' must be an array of numbers");
    }

    @Test
    void withoutAGroupingEachCaseIsItsOwnSampleKeyedByItsLine() throws Exception {
        ObjectNode c = new ObjectMapper().createObjectNode().put("kind", "text");
        c.putArray("bbox").add(0).add(0).add(1).add(1);
        c.putArray("point").add(0).add(0);
        List<EvalAdapter.Group> groups = TaskFamily.evalAdapter("screenspot")
                .samples(List.of(new EvalCase(c, 1), new EvalCase(c, 4)));
        assertThat(groups).extracting(EvalAdapter.Group::key).containsExactly("line-1", "line-4");

        EvalAdapter grouped = EvalAdapter.grouped("g", "e", () -> null,
                cases -> List.of(new EvalAdapter.Group("all", null)));
        assertThat(grouped.samples(List.of(new EvalCase(c, 1), new EvalCase(c, 2))))
                .extracting(EvalAdapter.Group::key).containsExactly("all");
        assertThatThrownBy(() -> grouped.sample(new EvalCase(c, 2)))
                .isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(2));
    }

    @Test
    void aConversionErrorBecomesTheCasesUnderWhere() {
        EvalCase c = new EvalCase(new ObjectMapper().createObjectNode(), 9);
        assertThatThrownBy(() -> CaseFields.convert(c, "gold", () -> {
            throw new IllegalArgumentException("no op");
        })).isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(9))
                .hasMessage("gold: no op");
        assertThat(CaseFields.convert(c, "gold", () -> 5)).isEqualTo(5);
    }
}
