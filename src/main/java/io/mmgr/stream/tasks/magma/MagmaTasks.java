package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.tasks.Check;
import io.mmgr.stream.tasks.GateVariant;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The Magma agentic tasks: UI navigation (Mind2Web, AITW, ScreenSpot), robot manipulation suites, and
 * VisualWebBench's seven web-understanding tasks (in Magma's evaluation list), one task each, scored
 * from the model's raw text.
 */
public final class MagmaTasks implements TaskFamily {

    public static final String FAMILY = "magma";
    public static final String BENCHMARK = "magma";

    public static final List<String> ROBOT_TASKS = List.of(
            "libero-spatial", "libero-object", "libero-goal", "libero-10", "libero-90",
            "simplerenv-google-robot", "simplerenv-widowx");

    @Override
    public List<TaskSpec> tasks() {
        List<TaskSpec> specs = new ArrayList<>();
        specs.add(spec("mind2web", "ui", MagmaUiEvaluator.ID, mind2webGate()));
        specs.add(spec("aitw", "ui", AitwEvaluator.ID, aitwGate()));
        specs.add(spec("screenspot", "ui", ClickEvaluator.ID, screenSpotGate()));
        for (String task : ROBOT_TASKS) {
            specs.add(spec(task, "robot", RobotTrialsEvaluator.ID, robotGate()));
        }
        for (VisualWebBench.Subtask task : VisualWebBench.Subtask.values()) {
            specs.add(spec(VisualWebBenchEvaluator.taskId(task), "text", VisualWebBenchEvaluator.ID, visualWebBenchGate(task)));
        }
        return specs;
    }

    private static TaskSpec spec(String id, String modality, String evaluator, MagmaGate gate) {
        return new TaskSpec(id, FAMILY, BENCHMARK, Set.of(modality), List.of(evaluator), Optional.empty(), gate);
    }

    static MagmaGate mind2webGate() {
        String p = MagmaUiEvaluator.ID;
        return new MagmaGate(MagmaUiEvaluator.ID, "step_success_rate",
                List.of(Check.isOne(MetricKey.of(p, "element_selection_accuracy")), Check.isOne(MetricKey.of(p, "operation_f1"))),
                List.of(GateVariant.of("task_success", Check.isOne(MetricKey.of(p, "task_success")))));
    }

    static MagmaGate aitwGate() {
        return new MagmaGate(AitwEvaluator.ID, "step_success_rate", List.of(),
                List.of(GateVariant.of("task_success", Check.isOne(MetricKey.of(AitwEvaluator.ID, "task_success")))));
    }

    static MagmaGate screenSpotGate() {
        return new MagmaGate(ClickEvaluator.ID, "click_correct", List.of(), List.of());
    }

    /**
     * The primary is the task's column metric (ROUGE-L, WebQA F1, accuracy) over 100, so the primary rate of
     * a task row is the paper's number / 100; ROUGE-L is graded, accuracy is right or wrong.
     */
    static MagmaGate visualWebBenchGate(VisualWebBench.Subtask task) {
        return MagmaGate.scaled(VisualWebBenchEvaluator.ID, task.headline(), 100.0,
                task.answerKind() != VisualWebBench.AnswerKind.CHOICE);
    }

    static MagmaGate robotGate() {
        Check protocol = Check.isZero(MetricKey.of(RobotTrialsEvaluator.ID, "trial_count_mismatch"));
        return new MagmaGate(RobotTrialsEvaluator.ID, "success_rate", List.of(protocol),
                List.of(GateVariant.of("trial_protocol", protocol)));
    }
}
