package io.mmgr.stream.tasks.magma;

import static io.mmgr.stream.tasks.magma.MagmaFixtures.action;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.box;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.context;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.goldSteps;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.item;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.robotEvent;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.trials;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.uiEvent;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.xy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MagmaEvaluatorsTest {

    // ---- Mind2Web ----------------------------------------------------------------------------

    private static final List<UiAction> MIND2WEB_GOLD = List.of(
            action().setElement("search").setBbox(box(0, 0, 100, 20)).setOp("CLICK").build(),
            action().setElement("city").setBbox(box(0, 30, 100, 50)).setOp("TYPE").setValue("new york").build(),
            action().setElement("go").setBbox(box(110, 30, 140, 50)).setOp("CLICK").build());

    private final MagmaUiEvaluator ui = new MagmaUiEvaluator();

    @Test
    void mind2webEpisodeMetrics() throws Exception {
        GenerationEvent event = uiEvent("mind2web", List.of(
                action().setPoint(xy(100, 20)).setOp("click").build(),                // box corner, right
                action().setElement("city").setOp("TYPE").setValue("New Jersey").build(), // F1 2/3
                action().setElement("nope").setPoint(xy(141, 40)).setOp("CLICK").build())); // just outside
        EvaluationOutcome out = ui.evaluate(context(event, goldSteps("mind2web", MIND2WEB_GOLD)));
        Map<String, Double> m = out.metrics();
        assertThat(m.get("element_selection_accuracy")).isCloseTo(2.0 / 3, within(1e-15));
        assertThat(m.get("operation_f1")).isCloseTo((1 + 2.0 / 3 + 1) / 3, within(1e-15));
        assertThat(m.get("step_success_rate")).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(m.get("task_success")).isEqualTo(0.0);
        assertThat(m.get("steps")).isEqualTo(3.0);
        assertThat(out.diagnostics()).containsEntry("failed_steps", "1,2");
    }

    @Test
    void mind2webFewerStepsFailTheMissingOnesMoreAreIgnored() throws Exception {
        BenchmarkItem item = goldSteps("mind2web", MIND2WEB_GOLD);
        GenerationEvent shortEvent = uiEvent("mind2web", List.of(action().setElement("search").setOp("CLICK").build()));
        assertThat(ui.precheck(shortEvent, item)).isEmpty();
        EvaluationOutcome shortOut = ui.evaluate(context(shortEvent, item));
        assertThat(shortOut.metrics().get("step_success_rate")).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(shortOut.metrics().get("operation_f1")).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(shortOut.diagnostics()).containsEntry("missing_steps", "2");

        List<UiAction> all = new ArrayList<>(List.of(
                action().setElement("search").setOp("CLICK").build(),
                action().setElement("city").setOp("TYPE").setValue("NEW YORK").build(),
                action().setElement("go").setOp("CLICK").build(),
                action().setElement("extra").setOp("CLICK").build()));
        EvaluationOutcome longOut = ui.evaluate(context(uiEvent("mind2web", all), item));
        assertThat(longOut.metrics().get("step_success_rate")).isEqualTo(1.0);
        assertThat(longOut.metrics().get("task_success")).isEqualTo(1.0);
        assertThat(longOut.diagnostics()).containsEntry("extra_predicted_steps", "1");
    }

    @Test
    void mind2webPrecheckReasons() {
        BenchmarkItem item = goldSteps("mind2web", MIND2WEB_GOLD);
        GenerationEvent noInputs = MagmaFixtures.event("mind2web", "ui", null);
        assertThat(ui.precheck(noInputs, item)).hasValueSatisfying(r -> assertThat(r).contains("inputs.uiActions is missing"));

        GenerationEvent ok = uiEvent("mind2web", List.of(action().setElement("search").setOp("CLICK").build()));
        assertThat(ui.precheck(ok, item(("mind2web"), GroundTruth.newBuilder().build())))
                .hasValueSatisfying(r -> assertThat(r).contains("no gold steps"));

        GenerationEvent noTarget = uiEvent("mind2web", List.of(
                action().setElement("search").setOp("CLICK").build(), action().setOp("TYPE").setValue("x").build()));
        assertThat(ui.precheck(noTarget, item))
                .hasValueSatisfying(r -> assertThat(r).isEqualTo("predicted step 1: a predicted step needs an element id or a point"));

        BenchmarkItem badBox = goldSteps("mind2web", List.of(action().setElement("a").setBbox(List.of(1.0, 2.0, 3.0)).setOp("CLICK").build()));
        assertThat(ui.precheck(ok, badBox)).hasValueSatisfying(r -> assertThat(r).startsWith("gold step 0: bbox must be"));
        BenchmarkItem flippedBox = goldSteps("mind2web", List.of(action().setElement("a").setBbox(box(5, 0, 1, 1)).setOp("CLICK").build()));
        assertThat(ui.precheck(ok, flippedBox)).hasValueSatisfying(r -> assertThat(r).contains("x1 <= x2"));

        GenerationEvent badPoint = uiEvent("mind2web", List.of(action().setPoint(List.of(1.0)).setOp("CLICK").build()));
        assertThat(ui.precheck(badPoint, item)).hasValueSatisfying(r -> assertThat(r).contains("point must be [x, y]"));

        // evaluate refuses the same input with the same reason
        assertThatThrownBy(() -> ui.evaluate(context(noTarget, item)))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("predicted step 1: a predicted step needs an element id or a point");
    }

    @Test
    void anEmptyPredictedStepIsOneTheModelSkippedAndFails() throws Exception {
        BenchmarkItem item = goldSteps("mind2web", MIND2WEB_GOLD);
        GenerationEvent skipped = uiEvent("mind2web", List.of(
                action().setElement("search").setOp("CLICK").build(),
                action().build(),                                           // no step here: fails
                action().setElement("go").setOp("CLICK").build()));
        assertThat(ui.precheck(skipped, item)).isEmpty();
        EvaluationOutcome out = ui.evaluate(context(skipped, item));
        assertThat(out.metrics().get("element_selection_accuracy")).isCloseTo(2.0 / 3, within(1e-15));
        assertThat(out.metrics().get("operation_f1")).isCloseTo(2.0 / 3, within(1e-15));
        assertThat(out.diagnostics()).containsEntry("failed_steps", "1").containsEntry("missing_steps", "1");
        UiStepMetrics.EpisodeResult detail = out.detail(UiStepMetrics.EpisodeResult.class).orElseThrow();
        assertThat(detail.steps().get(1).predicted()).isFalse();
        assertThat(detail.steps().get(2).success()).isTrue();

        GenerationEvent aitwSkipped = uiEvent("aitw", List.of(
                action().setOp("DUAL_POINT").setPoint(xy(0.46, 0.44)).build(),
                action().build(),
                action().setOp("DUAL_POINT").setPoint(xy(0.5, 0.1)).setLiftPoint(xy(0.52, 0.9)).build()));
        BenchmarkItem aitwGold = goldSteps("aitw", AITW_GOLD);
        assertThat(aitw.precheck(aitwSkipped, aitwGold)).isEmpty();
        EvaluationOutcome aitwOut = aitw.evaluate(context(aitwSkipped, aitwGold));
        assertThat(aitwOut.diagnostics()).containsEntry("unmatched_steps", "1,3");
        assertThat(aitwOut.detail(AitwActionMatching.EpisodeResult.class).orElseThrow().matched())
                .containsExactly(true, false, true, false);
    }

    // ---- AITW --------------------------------------------------------------------------------

    private final AitwEvaluator aitw = new AitwEvaluator();

    private static final List<UiAction> AITW_GOLD = List.of(
            action().setOp("DUAL_POINT").setPoint(xy(0.45, 0.45)).setLiftPoint(xy(0.45, 0.45))
                    .setScreenBoxes(List.of(List.of(0.4, 0.4, 0.1, 0.1))).build(),
            action().setOp("TYPE").setValue("coffee maker").build(),
            action().setOp("DUAL_POINT").setPoint(xy(0.5, 0.8)).setLiftPoint(xy(0.5, 0.2)).build(),
            action().setOp("STATUS_TASK_COMPLETE").build());

    @Test
    void aitwEpisodeMetrics() throws Exception {
        GenerationEvent event = uiEvent("aitw", List.of(
                action().setOp("DUAL_POINT").setPoint(xy(0.35, 0.56)).build(),          // same grown box
                action().setOp("TYPE").setValue("tea kettle").build(),                  // type only: matches
                action().setOp("DUAL_POINT").setPoint(xy(0.2, 0.5)).setLiftPoint(xy(0.8, 0.5)).build(), // horizontal
                action().setOp("PRESS_BACK").build()));
        EvaluationOutcome out = aitw.evaluate(context(event, goldSteps("aitw", AITW_GOLD)));
        assertThat(out.metrics().get("action_match_accuracy")).isEqualTo(0.5);
        assertThat(out.metrics().get("step_success_rate")).isEqualTo(0.5);
        assertThat(out.metrics().get("task_success")).isEqualTo(0.0);
        assertThat(out.metrics().get("steps")).isEqualTo(4.0);
        assertThat(out.diagnostics()).containsEntry("unmatched_steps", "2,3");

        GenerationEvent perfect = uiEvent("aitw", List.of(
                action().setOp("DUAL_POINT").setPoint(xy(0.46, 0.44)).build(),
                action().setOp("TYPE").setValue("coffee maker").build(),
                action().setOp("DUAL_POINT").setPoint(xy(0.5, 0.1)).setLiftPoint(xy(0.52, 0.9)).build(),
                action().setOp("status_task_complete").build()));
        EvaluationOutcome perfectOut = aitw.evaluate(context(perfect, goldSteps("aitw", AITW_GOLD)));
        assertThat(perfectOut.metrics().get("task_success")).isEqualTo(1.0);
    }

    @Test
    void aitwPrecheckReasons() {
        BenchmarkItem item = goldSteps("aitw", AITW_GOLD);
        GenerationEvent pixels = uiEvent("aitw", List.of(action().setOp("DUAL_POINT").setPoint(xy(540, 1200)).build()));
        assertThat(aitw.precheck(pixels, item)).hasValueSatisfying(r -> assertThat(r)
                .startsWith("predicted step 0: point").contains("normalized"));
        GenerationEvent noOp = uiEvent("aitw", List.of(action().setPoint(xy(0.5, 0.5)).build()));
        assertThat(aitw.precheck(noOp, item)).hasValueSatisfying(r -> assertThat(r).contains("needs an op"));
        GenerationEvent noTouch = uiEvent("aitw", List.of(action().setOp("DUAL_POINT").build()));
        assertThat(aitw.precheck(noTouch, item)).hasValueSatisfying(r -> assertThat(r).contains("touch point"));
        GenerationEvent fine = uiEvent("aitw", List.of(action().setOp("PRESS_HOME").build()));
        assertThat(aitw.precheck(fine, item)).isEmpty();
        BenchmarkItem mind2webGold = goldSteps("aitw", List.of(action().setOp("CLICK").setElement("a").build()));
        assertThat(aitw.precheck(fine, mind2webGold)).hasValueSatisfying(r -> assertThat(r)
                .startsWith("gold step 0: op 'CLICK' is not an AITW action type"));
        BenchmarkItem badBox = goldSteps("aitw", List.of(action().setOp("DUAL_POINT").setPoint(xy(0.1, 0.1))
                .setScreenBoxes(List.of(List.of(0.1, 0.1))).build()));
        assertThat(aitw.precheck(fine, badBox)).hasValueSatisfying(r -> assertThat(r).contains("[y, x, height, width]"));
    }

    // ---- ScreenSpot --------------------------------------------------------------------------

    private final ClickEvaluator click = new ClickEvaluator();

    private static BenchmarkItem screenSpot(String kind) {
        return item("screenspot", GroundTruth.newBuilder().setTargetBox(box(100, 200, 180, 240)).setElementKind(kind).build());
    }

    @Test
    void clickMetricsPerKind() throws Exception {
        EvaluationOutcome textHit = click.evaluate(context(
                uiEvent("screenspot", List.of(action().setPoint(xy(180, 240)).build())), screenSpot("text")));
        assertThat(textHit.metrics()).containsEntry("click_correct", 1.0).containsEntry("click_correct_text", 1.0)
                .containsEntry("click_correct_icon", null);

        EvaluationOutcome iconMiss = click.evaluate(context(
                uiEvent("screenspot", List.of(action().setPoint(xy(181, 240)).build())), screenSpot("icon")));
        assertThat(iconMiss.metrics()).containsEntry("click_correct", 0.0).containsEntry("click_correct_icon", 0.0)
                .containsEntry("click_correct_text", null);
    }

    @Test
    void clickPrecheckReasons() {
        GenerationEvent ok = uiEvent("screenspot", List.of(action().setPoint(xy(150, 220)).build()));
        assertThat(click.precheck(ok, screenSpot("icon"))).isEmpty();
        assertThat(click.precheck(uiEvent("screenspot", List.of(action().setElement("a").build())), screenSpot("icon")))
                .hasValueSatisfying(r -> assertThat(r).contains("has no point"));
        assertThat(click.precheck(uiEvent("screenspot", List.of()), screenSpot("icon")))
                .hasValueSatisfying(r -> assertThat(r).contains("is empty"));
        assertThat(click.precheck(ok, screenSpot("widget")))
                .hasValueSatisfying(r -> assertThat(r).contains("text or icon"));
        assertThat(click.precheck(ok, item("screenspot", GroundTruth.newBuilder().setElementKind("text").build())))
                .hasValueSatisfying(r -> assertThat(r).contains("targetBox"));
        assertThat(click.precheck(ok, item("screenspot", GroundTruth.newBuilder()
                .setTargetBox(box(180, 200, 100, 240)).setElementKind("text").build())))
                .hasValueSatisfying(r -> assertThat(r).startsWith("groundTruth.targetBox: bbox must be"));
    }

    // ---- robot trials ------------------------------------------------------------------------

    private final RobotTrialsEvaluator robot = new RobotTrialsEvaluator();

    private static BenchmarkItem robotItem(String task, Integer protocolTrials) {
        return item(task, GroundTruth.newBuilder().setProtocolTrials(protocolTrials).build());
    }

    @Test
    void robotSuccessRateAndProtocol() throws Exception {
        EvaluationOutcome libero = robot.evaluate(context(robotEvent("libero-object", trials(50, 43)), robotItem("libero-object", null)));
        assertThat(libero.metrics()).containsEntry("success_rate", 43 / 50.0).containsEntry("trials", 50.0)
                .containsEntry("protocol_trials", 50.0).containsEntry("trial_count_mismatch", 0.0);

        EvaluationOutcome shortRun = robot.evaluate(context(robotEvent("libero-10", trials(10, 10)), robotItem("libero-10", null)));
        assertThat(shortRun.metrics()).containsEntry("success_rate", 1.0).containsEntry("trial_count_mismatch", 1.0);

        EvaluationOutcome widowx = robot.evaluate(context(robotEvent("simplerenv-widowx", trials(24, 6)), robotItem("simplerenv-widowx", null)));
        assertThat(widowx.metrics()).containsEntry("success_rate", 0.25).containsEntry("trial_count_mismatch", 0.0);

        EvaluationOutcome google = robot.evaluate(context(robotEvent("simplerenv-google-robot", trials(27, 9)),
                robotItem("simplerenv-google-robot", 27)));
        assertThat(google.metrics().get("success_rate")).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(google.metrics()).containsEntry("protocol_trials", 27.0).containsEntry("trial_count_mismatch", 0.0);
    }

    @Test
    void robotPrecheckReasons() {
        assertThat(robot.precheck(robotEvent("simplerenv-google-robot", trials(27, 9)), robotItem("simplerenv-google-robot", null)))
                .hasValueSatisfying(r -> assertThat(r).contains("protocolTrials is missing"));
        assertThat(robot.precheck(robotEvent("libero-90", List.of()), robotItem("libero-90", null)))
                .hasValueSatisfying(r -> assertThat(r).contains("no trials"));
        assertThat(robot.precheck(MagmaFixtures.event("libero-90", "robot", GenerationInputs.newBuilder().build()),
                robotItem("libero-90", null)))
                .hasValueSatisfying(r -> assertThat(r).contains("inputs.trials is missing"));
        List<RobotTrial> twice = new ArrayList<>(trials(3, 1));
        twice.add(RobotTrial.newBuilder().setTrial(1).setSuccess(true).build());
        assertThat(robot.precheck(robotEvent("libero-90", twice), robotItem("libero-90", null)))
                .hasValueSatisfying(r -> assertThat(r).contains("trial 1 is reported twice"));
    }

    @Test
    void evaluatorsAreRegistered() {
        EvaluatorRegistry registry = EvaluatorRegistry.load();
        assertThat(registry.ids()).contains("magma-ui", "magma-aitw", "magma-click", "robot-trials");
        DeterministicEvaluator e = registry.newInstance("magma-click").orElseThrow();
        assertThat(e).isInstanceOf(ClickEvaluator.class);
    }
}
