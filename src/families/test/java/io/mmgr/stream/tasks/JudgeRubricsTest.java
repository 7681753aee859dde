package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.arc.ArcTruth;
import io.mmgr.stream.tasks.math.MathTruth;
import io.mmgr.stream.tasks.physics.PhysicsTruth;
import io.mmgr.stream.tasks.sudoku.SudokuTruth;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every judged task's rubric against its task spec and gate, its prompts, its schema and its parser. */
@Tag("unit")
class JudgeRubricsTest {

    static final TaskCatalog TASKS = TaskCatalog.load();
    static final RubricCatalog RUBRICS = RubricCatalog.load();

    static ArtifactRef ref(String role, String mediaType) {
        return ArtifactRef.newBuilder().setRole(role).setUri("file:///data/" + role).setSha256("ab".repeat(32))
                .setMediaType(mediaType).build();
    }

    /** An item with every input any rubric reads. */
    static BenchmarkItem fullItem(String task) {
        return BenchmarkItem.newBuilder().setTask(task).setSampleId("s1").setPrompt("a ball rolls down a ramp")
                .setArtifacts(List.of(ref("problem", "image/png"), ref("solution", "image/png"),
                        ref("demonstration-input-1", "image/png"), ref("demonstration-output-1", "image/png")))
                .setGroundTruth(GroundTruth.newBuilder().setAnswer("1234341221434321").setGivens("1..4.4...1.....1")
                        .setGridSize(4).setGrid(List.of(List.of(1, 2), List.of(3, 4))).setContext("kitchen, target by the sink")
                        .setPhysicsFocus("rolling friction").build())
                .build();
    }

    static GenerationEvent event(String task, String modality) {
        GenerationEvent.Builder b = GenerationEvent.newBuilder().setRunId("r").setModel("m").setCheckpointId("c")
                .setTrainingStep(1).setTask(task).setSampleId("s1").setModality(modality).setProducedAt(Instant.now());
        if (modality.equals("text")) {
            b.setInputs(GenerationInputs.newBuilder().setText("x = 4").build());
        } else {
            b.setArtifacts(List.of(ref("output", modality.equals("video") ? "video/mp4" : "image/png")));
        }
        return b.build();
    }

    @Test
    void everyJudgedTaskHasItsRubricForEveryModality() {
        Set<String> judged = new LinkedHashSet<>();
        for (TaskSpec spec : TASKS.all()) {
            if (spec.judged()) {
                judged.add(spec.id());
                JudgeRubric r = RUBRICS.find(spec.rubric().orElseThrow()).orElseThrow(() -> new AssertionError(spec.id()));
                assertThat(r.id()).isEqualTo(spec.id());
                assertThat(r.modalities()).as(spec.id()).containsAll(spec.modalities());
                assertThat(r.version()).startsWith("v1-").hasSize(11);
            }
        }
        assertThat(judged).containsExactlyInAnyOrder("maze", "sudoku", "arc", "math", "nav-last-mile", "nav-top-down",
                "nav-3d-real-world", "nav-slag", "physical-concepts", "sports");
    }

    @Test
    void theRubricsMetricsAreTheOnesTheGatesRead() {
        for (TaskSpec spec : TASKS.all()) {
            if (!spec.judged()) {
                continue;
            }
            JudgeRubric r = RUBRICS.find(spec.id()).orElseThrow();
            String modality = spec.modalities().contains("video") ? "video" : spec.modalities().iterator().next();
            Map<String, Double> passing = new HashMap<>();
            for (RubricMetric m : r.metricsFor(modality)) {
                passing.put("judge." + m.name(), m.passValue() != null ? m.passValue() : 1.0);
            }
            GateResult all = spec.gate().evaluate(new GateInput(spec.id(), modality, passing, Set.of("judge")));
            assertThat(all.failedChecks()).as(spec.id()).noneMatch(c -> c.startsWith("judge."));
            for (RubricMetric m : r.metricsFor(modality)) {
                Map<String, Double> one = new HashMap<>(passing);
                double fail = m.passValue() == null ? 0.0 : m.passValue() == 1.0 ? (m.type() == RubricMetric.Type.FRACTION ? 0.9 : 0.0)
                        : (m.type() == RubricMetric.Type.FRACTION ? 0.1 : 1.0);
                one.put("judge." + m.name(), fail);
                GateResult res = spec.gate().evaluate(new GateInput(spec.id(), modality, one, Set.of("judge")));
                if (m.passValue() != null) {
                    assertThat(res.failedChecks()).as(spec.id() + " " + m.name()).anyMatch(c -> c.startsWith("judge." + m.name()));
                } else {
                    assertThat(res.failedChecks()).as(spec.id() + " " + m.name() + " never gates").isEqualTo(all.failedChecks());
                }
            }
        }
    }

    @Test
    void promptsCarryTheInputsTheSeedNamesAndTheAnswerFormat() throws Exception {
        for (JudgeRubric r : RUBRICS.all()) {
            for (String modality : r.modalities()) {
                JudgePrompt p = r.prompt(event(r.id(), modality), fullItem(r.id()));
                List<JudgePrompt.Media> media = new ArrayList<>();
                StringBuilder text = new StringBuilder(p.system());
                for (JudgePrompt.Part part : p.parts()) {
                    if (part instanceof JudgePrompt.Media m) {
                        media.add(m);
                    } else {
                        text.append(((JudgePrompt.Text) part).text());
                    }
                }
                assertThat(text.toString()).as(r.id() + "/" + modality).doesNotContain("{{");
                for (RubricMetric m : r.metrics()) {
                    if (m.appliesTo(modality)) {
                        assertThat(p.system()).contains("\"" + m.name() + "\"");
                    } else {
                        assertThat(p.system()).doesNotContain("\"" + m.name() + "\"");
                    }
                }
                if (!modality.equals("text")) {
                    assertThat(media).as(r.id()).filteredOn(JudgePrompt.Media::generation).hasSize(1);
                    assertThat(media.stream().filter(JudgePrompt.Media::generation).findFirst().orElseThrow().video())
                            .isEqualTo(modality.equals("video"));
                }
                switch (r.id()) {
                    case "maze" -> assertThat(media).extracting(m -> m.artifact().getRole()).contains("solution", "problem");
                    case "sudoku" -> assertThat(text.toString()).contains("1 2 3 4\n3 4 1 2").contains("1 . . 4");
                    case "arc" -> {
                        assertThat(media).extracting(m -> m.artifact().getRole())
                                .contains("demonstration-input-1", "demonstration-output-1", "problem", "solution");
                        assertThat(text.toString()).contains("1 2\n3 4");
                    }
                    case "math" -> assertThat(text.toString()).contains("1234341221434321");
                    case "physical-concepts", "sports" -> assertThat(text.toString()).contains("rolling friction")
                            .contains("physics-aware video analysis expert");
                    default -> assertThat(text.toString()).contains("kitchen, target by the sink");
                }
                if (r.id().equals("math") && modality.equals("text")) {
                    assertThat(text.toString()).contains("x = 4");
                }
            }
        }
    }

    /**
     * Each judged family's ground truth in its own payload (the shared context stays shared) prompts the judge
     * exactly as the same truth in GroundTruth v2's shared fields, written with that released schema.
     */
    @Test
    void aPayloadPromptsExactlyAsTheSharedFieldsOfBefore() throws Exception {
        GroundTruth v2 = ReleasedGroundTruth.writtenWith(2, fullItem("any").getGroundTruth());
        Map<String, Integer> payloads = new HashMap<>();
        for (JudgeRubric r : RUBRICS.all()) {
            GroundTruth.Builder gt = GroundTruth.newBuilder().setContext(v2.getContext());
            switch (r.id()) {
                case "sudoku" -> new SudokuTruth(v2.getGridSize(), v2.getGivens(), v2.getAnswer()).into(gt);
                case "arc" -> new ArcTruth(v2.getGrid(), null).into(gt);
                case "math" -> new MathTruth(v2.getAnswer()).into(gt);
                case "physical-concepts", "sports" -> new PhysicsTruth(v2.getPhysicsFocus()).into(gt);
                default -> { } // maze's rubric reads images, navigation's the shared context
            }
            if (gt.getPayload() != null) {
                payloads.merge(gt.getFamily(), 1, Integer::sum);
            }
            for (String modality : r.modalities()) {
                BenchmarkItem before = BenchmarkItem.newBuilder(fullItem(r.id())).setGroundTruth(v2).build();
                BenchmarkItem now = BenchmarkItem.newBuilder(fullItem(r.id())).setGroundTruth(gt.build()).build();
                GenerationEvent event = event(r.id(), modality);
                assertThat(r.prompt(event, now)).as(r.id() + "/" + modality).isEqualTo(r.prompt(event, before));
            }
        }
        assertThat(payloads).containsOnlyKeys("sudoku", "arc", "math", "physics");
    }

    @Test
    void missingInputsAreClearErrors() {
        BenchmarkItem noSolution = BenchmarkItem.newBuilder(fullItem("maze")).setArtifacts(List.of(ref("problem", "image/png"))).build();
        assertThatThrownBy(() -> RUBRICS.find("maze").orElseThrow().prompt(event("maze", "image"), noSolution))
                .isInstanceOf(EvaluationException.class).hasMessageContaining("solution");
        BenchmarkItem noAnswer = BenchmarkItem.newBuilder(fullItem("math"))
                .setGroundTruth(GroundTruth.newBuilder().build()).build();
        assertThatThrownBy(() -> RUBRICS.find("math").orElseThrow().prompt(event("math", "image"), noAnswer))
                .isInstanceOf(EvaluationException.class).hasMessageContaining("ground-truth answer");
        assertThatThrownBy(() -> RUBRICS.find("sports").orElseThrow().prompt(event("sports", "image"), fullItem("sports")))
                .isInstanceOf(EvaluationException.class).hasMessageContaining("no prompt for modality 'image'");
        GenerationEvent noOutput = GenerationEvent.newBuilder(event("arc", "image")).setArtifacts(List.of()).build();
        assertThatThrownBy(() -> RUBRICS.find("arc").orElseThrow().prompt(noOutput, fullItem("arc")))
                .isInstanceOf(EvaluationException.class).hasMessageContaining("role 'output'");
    }

    @Test
    void theSchemaAsksForExactlyTheModalitysMetrics() {
        JudgeRubric sudoku = RUBRICS.find("sudoku").orElseThrow();
        @SuppressWarnings("unchecked")
        Map<String, Object> props = (Map<String, Object>) sudoku.answerSchema("image").get("properties");
        assertThat(props).containsOnlyKeys("clues_changed", "constraint_violation", "completion_accuracy");
        assertThat(sudoku.answerSchema("image").get("required")).isEqualTo(List.copyOf(props.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Object> video = (Map<String, Object>) sudoku.answerSchema("video").get("properties");
        assertThat(video).containsKey("action_reflection");
        @SuppressWarnings("unchecked")
        Map<String, Object> cv = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) props.get("constraint_violation"))
                .get("properties")).get("score");
        assertThat(cv).containsEntry("type", "number").containsEntry("minimum", 0).containsEntry("maximum", 1);
    }

    @Test
    void parsingIsTolerantOfWrappingAndStrictAboutValues() throws Exception {
        JudgeRubric maze = RUBRICS.find("maze").orElseThrow();
        String fenced = "Here is my grading:\n```json\n{\"maze_changed\": {\"score\": 0, \"justification\": \"walls intact\"},"
                + " \"cross_wall\": {\"score\": \"no\"}, 'target_achievement': {score: true, justification: 'reaches red'},}\n```\nDone.";
        RubricAnswer a = maze.parse("image", fenced);
        assertThat(a.metrics()).containsEntry("maze_changed", 0.0).containsEntry("cross_wall", 0.0)
                .containsEntry("target_achievement", 1.0).containsEntry("action_reflection", null);
        assertThat(a.justifications()).containsEntry("maze_changed", "walls intact").containsEntry("target_achievement", "reaches red");
        RubricAnswer flat = maze.parse("video", "{\"maze_changed\": 1, \"cross_wall\": 0, \"action_reflection\": 1, \"target_achievement\": 0}");
        assertThat(flat.metrics()).containsEntry("maze_changed", 1.0).containsEntry("action_reflection", 1.0)
                .containsEntry("target_achievement", 0.0);

        assertThatThrownBy(() -> maze.parse("video", "{\"maze_changed\": 1, \"cross_wall\": 0, \"target_achievement\": 1}"))
                .isInstanceOf(RubricAnswerException.class).hasMessageContaining("action_reflection");
        assertThatThrownBy(() -> maze.parse("image", "{\"maze_changed\": 0.5, \"cross_wall\": 0, \"target_achievement\": 1}"))
                .hasMessageContaining("binary").hasMessageContaining("0.5");
        assertThatThrownBy(() -> maze.parse("image", "{\"maze_changed\": 0, \"cross_wall\": 0, \"target_achievement\": \"maybe\"}"))
                .hasMessageContaining("not a number");
        assertThatThrownBy(() -> maze.parse("image", "{\"maze_changed\": 0, \"cross_wall\": {\"score\": 0"))
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> maze.parse("image", "I cannot grade this.")).hasMessageContaining("no JSON object");

        JudgeRubric sudoku = RUBRICS.find("sudoku").orElseThrow();
        RubricAnswer s = sudoku.parse("image", "{\"clues_changed\": 0, \"constraint_violation\": 0.25, \"completion_accuracy\": 0.75}");
        assertThat(s.metrics()).containsEntry("constraint_violation", 0.25).containsEntry("completion_accuracy", 0.75);
        assertThatThrownBy(() -> sudoku.parse("image", "{\"clues_changed\": 0, \"constraint_violation\": 1.5, \"completion_accuracy\": 1}"))
                .hasMessageContaining("[0, 1]");
    }
}
