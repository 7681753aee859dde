package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.tasks.FamilyPayload;
import io.mmgr.stream.tasks.SimulatedTask;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import java.util.function.Supplier;
import io.mmgr.stream.tasks.Check;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.GateVariant;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import io.mmgr.stream.contract.MetricKey;
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
    public Optional<FamilyPayload> payload() {
        return Optional.of(MagmaTruth.PAYLOAD);
    }

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
        return new MagmaGate(p, MagmaMetrics.STEP_SUCCESS_RATE,
                List.of(Check.isOne(MetricKey.of(p, MagmaMetrics.ELEMENT_SELECTION_ACCURACY)),
                        Check.isOne(MetricKey.of(p, MagmaMetrics.OPERATION_F1))),
                List.of(GateVariant.of(MagmaMetrics.TASK_SUCCESS, Check.isOne(MetricKey.of(p, MagmaMetrics.TASK_SUCCESS)))));
    }

    static MagmaGate aitwGate() {
        return new MagmaGate(AitwEvaluator.ID, MagmaMetrics.STEP_SUCCESS_RATE, List.of(),
                List.of(GateVariant.of(MagmaMetrics.TASK_SUCCESS, Check.isOne(MetricKey.of(AitwEvaluator.ID, MagmaMetrics.TASK_SUCCESS)))));
    }

    static MagmaGate screenSpotGate() {
        return new MagmaGate(ClickEvaluator.ID, MagmaMetrics.CLICK_CORRECT, List.of(), List.of());
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
        Check protocol = Check.isZero(MetricKey.of(RobotTrialsEvaluator.ID, MagmaMetrics.TRIAL_COUNT_MISMATCH));
        return new MagmaGate(RobotTrialsEvaluator.ID, MagmaMetrics.SUCCESS_RATE, List.of(protocol),
                List.of(GateVariant.of("trial_protocol", protocol)));
    }

    @Override
    public List<Supplier<DeterministicEvaluator>> evaluators() {
        return List.of(MagmaUiEvaluator::new, AitwEvaluator::new, ClickEvaluator::new, RobotTrialsEvaluator::new,
                VisualWebBenchEvaluator::new);
    }

    @Override
    public List<EvalAdapter> evalAdapters() {
        return List.of(
                new EvalAdapter("screenspot", ClickEvaluator.ID, ClickEvaluator::new, ScreenSpotEvalCase::sample),
                EvalAdapter.grouped("mind2web", MagmaUiEvaluator.ID, MagmaUiEvaluator::new, Mind2WebEvalCase.EPISODES),
                EvalAdapter.grouped("aitw", AitwEvaluator.ID, AitwEvaluator::new, AitwEvalCase.EPISODES),
                EvalAdapter.grouped("robot", RobotTrialsEvaluator.ID, RobotTrialsEvaluator::new,
                        RobotEvalCase::samples),
                EvalAdapter.grouped("visualwebbench", VisualWebBenchEvaluator.ID, VisualWebBenchEvaluator::new,
                        new VisualWebBenchEvalCase()));
    }

    @Override
    public List<SimulatedTask> simulations() {
        return List.of(new MagmaSimulation());
    }

    @Override
    public List<Object> evalCommands() {
        return List.of(new EvalMind2WebCommand(), new EvalAitwCommand(), new EvalScreenSpotCommand(), new EvalRobotCommand(),
                new EvalVisualWebBenchCommand());
    }
}
