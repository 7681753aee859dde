package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.GateInput;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MagmaTasksTest {

    private static final Map<String, String> EVALUATOR_BY_TASK = Map.ofEntries(
            Map.entry("mind2web", "magma-ui"),
            Map.entry("aitw", "magma-aitw"),
            Map.entry("screenspot", "magma-click"),
            Map.entry("libero-spatial", "robot-trials"),
            Map.entry("libero-object", "robot-trials"),
            Map.entry("libero-goal", "robot-trials"),
            Map.entry("libero-10", "robot-trials"),
            Map.entry("libero-90", "robot-trials"),
            Map.entry("simplerenv-google-robot", "robot-trials"),
            Map.entry("simplerenv-widowx", "robot-trials"),
            Map.entry("visualwebbench-web_caption", "visualwebbench"),
            Map.entry("visualwebbench-webqa", "visualwebbench"),
            Map.entry("visualwebbench-heading_ocr", "visualwebbench"),
            Map.entry("visualwebbench-element_ocr", "visualwebbench"),
            Map.entry("visualwebbench-element_ground", "visualwebbench"),
            Map.entry("visualwebbench-action_prediction", "visualwebbench"),
            Map.entry("visualwebbench-action_ground", "visualwebbench"));

    @Test
    void catalogHoldsTheMagmaTasks() {
        TaskCatalog catalog = TaskCatalog.load();
        EvaluatorRegistry registry = EvaluatorRegistry.load();
        EVALUATOR_BY_TASK.forEach((task, evaluator) -> {
            TaskSpec spec = catalog.find(task).orElseThrow(() -> new AssertionError("missing task " + task));
            assertThat(spec.benchmark()).isEqualTo("magma");
            assertThat(spec.family()).isEqualTo("magma");
            assertThat(spec.modalities()).containsExactly(switch (evaluator) {
                case "robot-trials" -> "robot";
                case "visualwebbench" -> "text";
                default -> "ui";
            });
            assertThat(spec.evaluators()).containsExactly(evaluator);
            assertThat(spec.judged()).isFalse();
            assertThat(registry.contains(evaluator)).as(evaluator).isTrue();
        });
        assertThat(new MagmaTasks().tasks()).hasSize(EVALUATOR_BY_TASK.size());
    }

    private static GateInput input(String task, String modality, Map<String, Double> metrics) {
        Set<String> parts = new java.util.HashSet<>();
        metrics.keySet().forEach(k -> parts.add(k.substring(0, k.indexOf('.'))));
        return new GateInput(task, modality, metrics, parts);
    }

    private static GateResult gate(String task, Map<String, Double> metrics) {
        TaskSpec spec = TaskCatalog.load().find(task).orElseThrow();
        return spec.gate().evaluate(input(task, spec.modalities().iterator().next(), metrics));
    }

    @Test
    void mind2webPrimaryIsTheEpisodeStepSuccessRate() {
        GateResult r = gate("mind2web", Map.of(
                "magma-ui.element_selection_accuracy", 0.75,
                "magma-ui.operation_f1", 1.0,
                "magma-ui.step_success_rate", 0.75,
                "magma-ui.task_success", 0.0,
                "magma-ui.steps", 4.0));
        assertThat(r.primary()).isEqualTo(0.75);
        assertThat(r.primarySource()).isEqualTo("magma-ui");
        assertThat(r.gates()).containsEntry("step_success_rate", 0.75).containsEntry("task_success", 0.0);
        assertThat(r.failedChecks()).containsExactly("magma-ui.step_success_rate=1", "magma-ui.element_selection_accuracy=1");
        assertThat(r.missingChecks()).isEmpty();

        GateResult perfect = gate("mind2web", Map.of(
                "magma-ui.element_selection_accuracy", 1.0, "magma-ui.operation_f1", 1.0,
                "magma-ui.step_success_rate", 1.0, "magma-ui.task_success", 1.0));
        assertThat(perfect.primary()).isEqualTo(1.0);
        assertThat(perfect.gates()).containsEntry("task_success", 1.0);
        assertThat(perfect.failedChecks()).isEmpty();
    }

    @Test
    void missingPrimaryGivesNull() {
        GateResult r = gate("mind2web", Map.of("magma-ui.operation_f1", 0.5));
        assertThat(r.primary()).isNull();
        assertThat(r.gates()).containsEntry("step_success_rate", null).containsEntry("task_success", null);
        assertThat(r.missingChecks()).containsExactly("magma-ui.step_success_rate=1");
        assertThat(r.failedChecks()).containsExactly("magma-ui.operation_f1=1");

        Map<String, Double> nan = new HashMap<>();
        nan.put("robot-trials.success_rate", Double.NaN);
        assertThat(gate("libero-goal", nan).primary()).isNull();
        assertThat(gate("screenspot", Map.of()).primary()).isNull();
        assertThat(gate("aitw", Map.of("magma-ui.step_success_rate", 1.0)).primary())
                .as("another evaluator's metric of the same name").isNull();
    }

    @Test
    void aitwAndScreenSpotPrimaries() {
        GateResult aitw = gate("aitw", Map.of("magma-aitw.step_success_rate", 0.6,
                "magma-aitw.action_match_accuracy", 0.6, "magma-aitw.task_success", 0.0));
        assertThat(aitw.primary()).isEqualTo(0.6);
        assertThat(aitw.primarySource()).isEqualTo("magma-aitw");
        assertThat(aitw.gates()).containsEntry("task_success", 0.0);
        assertThat(aitw.failedChecks()).containsExactly("magma-aitw.step_success_rate=1");

        GateResult hit = gate("screenspot", Map.of("magma-click.click_correct", 1.0));
        assertThat(hit.primary()).isEqualTo(1.0);
        assertThat(hit.primarySource()).isEqualTo("magma-click");
        assertThat(hit.failedChecks()).isEmpty();
        GateResult miss = gate("screenspot", Map.of("magma-click.click_correct", 0.0));
        assertThat(miss.primary()).isEqualTo(0.0);
        assertThat(miss.failedChecks()).containsExactly("magma-click.click_correct=1");
    }

    @Test
    void visualWebBenchPrimariesAreTheirColumnMetricOver100() {
        GateResult caption = gate("visualwebbench-web_caption", Map.of("visualwebbench.rouge_1", 80.0,
                "visualwebbench.rouge_2", 40.0, "visualwebbench.rouge_l", 62.5));
        assertThat(caption.primary()).isEqualTo(0.625);
        assertThat(caption.primarySource()).isEqualTo("visualwebbench");
        assertThat(caption.gates()).containsEntry("rouge_l", 0.625);
        // a similarity has no pass mark (ROUGE never reaches 100): no failed check
        assertThat(caption.failedChecks()).isEmpty();
        assertThat(gate("visualwebbench-webqa", Map.of("visualwebbench.f1", 25.0)).primary()).isEqualTo(0.25);
        // a WebQA sample the official code drops has no f1, so no primary
        Map<String, Double> dropped = new HashMap<>();
        dropped.put("visualwebbench.f1", null);
        assertThat(gate("visualwebbench-webqa", dropped).primary()).isNull();

        GateResult right = gate("visualwebbench-action_ground", Map.of("visualwebbench.accuracy", 100.0));
        assertThat(right.primary()).isEqualTo(1.0);
        assertThat(right.failedChecks()).isEmpty();
        GateResult wrong = gate("visualwebbench-element_ground", Map.of("visualwebbench.accuracy", 0.0));
        assertThat(wrong.primary()).isEqualTo(0.0);
        assertThat(wrong.failedChecks()).containsExactly("visualwebbench.accuracy=100");
    }

    @Test
    void robotPrimaryIsTheSuccessRateAndAMismatchIsReported() {
        for (String task : List.of("libero-spatial", "simplerenv-google-robot", "simplerenv-widowx")) {
            GateResult ok = gate(task, Map.of("robot-trials.success_rate", 0.86, "robot-trials.trial_count_mismatch", 0.0));
            assertThat(ok.primary()).isEqualTo(0.86);
            assertThat(ok.primarySource()).isEqualTo("robot-trials");
            assertThat(ok.gates()).containsEntry("success_rate", 0.86).containsEntry("trial_protocol", 1.0);
            assertThat(ok.failedChecks()).containsExactly("robot-trials.success_rate=1");
        }
        GateResult mismatch = gate("libero-90", Map.of("robot-trials.success_rate", 1.0, "robot-trials.trial_count_mismatch", 1.0));
        assertThat(mismatch.primary()).isEqualTo(1.0);
        assertThat(mismatch.gates()).containsEntry("trial_protocol", 0.0);
        assertThat(mismatch.failedChecks()).containsExactly("robot-trials.trial_count_mismatch=0");
    }
}
