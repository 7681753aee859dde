package io.mmgr.stream.tasks.magma;

import static io.mmgr.stream.tasks.magma.MagmaFixtures.action;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.uiEvent;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.xy;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.ReleasedGroundTruth;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.SimulatedTask;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Magma's ground truth as the family's own payload (with its own copy of UiAction): the simulation and the eval
 * cases write it, the evaluators read it, and a sample of every Magma task whose item is written with GroundTruth
 * v2's shared fields scores exactly as its payload twin.
 */
@Tag("unit")
class MagmaTruthTest {

    /** AITW gold: every UiAction field the gold uses (touch, lift, screen boxes). */
    private static final List<UiAction> AITW_GOLD = List.of(
            action().setOp("DUAL_POINT").setPoint(xy(0.45, 0.45)).setLiftPoint(xy(0.45, 0.45))
                    .setScreenBoxes(List.of(List.of(0.4, 0.4, 0.1, 0.1))).build(),
            action().setOp("TYPE").setValue("coffee maker").build(),
            action().setOp("STATUS_TASK_COMPLETE").build());

    @TempDir
    Path dir;

    @Test
    void aPayloadCarriesEveryFieldUiStepsIncludedAndSurvivesJson() throws Exception {
        List<UiAction> steps = List.of(action().setElement("search").setBbox(List.of(0.0, 0.0, 10.0, 5.0)).setOp("CLICK").build(),
                AITW_GOLD.get(0), AITW_GOLD.get(1));
        for (MagmaTruth truth : List.of(MagmaTruth.steps(steps), MagmaTruth.click(List.of(1.0, 2.0, 3.0, 4.0), "icon"),
                MagmaTruth.trials(27), MagmaTruth.webGold("the cat", null, null), MagmaTruth.webGold(null, List.of("a", "b"), null),
                MagmaTruth.webGold(null, null, 7), new MagmaTruth(steps, List.of(0.5), "text", 3, "x", List.of("y"), 0))) {
            GroundTruth gt = truth.into(GroundTruth.newBuilder()).build();
            assertThat(gt.getFamily()).isEqualTo("magma");
            assertThat(gt.getUiSteps()).isNull();
            assertThat(MagmaTruth.of(gt)).isEqualTo(truth);
            assertThat(MagmaTruth.of(JsonAvro.read(JsonAvro.toJson(gt).toString(), GroundTruth.class))).isEqualTo(truth);
        }
    }

    @Test
    void everyTaskOfBeforeScoresExactlyAsItsPayloadTwin() throws Exception {
        Map<GenerationEvent, BenchmarkItem> samples = new LinkedHashMap<>();
        // Mind2Web, ScreenSpot and LIBERO as the demo and the load bench make them (payload items)
        MagmaSimulation simulation = new MagmaSimulation();
        Random random = new Random(3);
        for (BenchmarkItem item : simulation.benchmark(4, 11, dir)) {
            SimulatedTask.Answer answer = simulation.answer(item, 0, 0.6, random, dir);
            samples.put(GenerationEvent.newBuilder().setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(1)
                    .setTask(item.getTask()).setSampleId(item.getSampleId()).setModality(answer.modality())
                    .setInputs(answer.inputs()).setArtifacts(answer.artifacts()).setProducedAt(Instant.EPOCH).build(), item);
        }
        // AITW, and VisualWebBench's seven tasks with their hand-worked expectations (items of before)
        samples.put(uiEvent("aitw", List.of(action().setOp("DUAL_POINT").setPoint(xy(0.46, 0.44)).build(),
                action().setOp("TYPE").setValue("coffee maker").build(), action().setOp("PRESS_BACK").build())),
                MagmaFixtures.goldSteps("aitw", AITW_GOLD));
        for (VisualWebBenchSamples.Case c : VisualWebBenchSamples.cases()) {
            samples.put(c.event("r", "c", 1), c.item());
        }
        assertThat(samples.keySet()).extracting(GenerationEvent::getTask)
                .contains("mind2web", "screenspot", "libero-spatial", "aitw", "visualwebbench-webqa", "visualwebbench-element_ground");

        SampleScorer scorer = SampleScorer.load();
        LocalArtifactResolver resolver = new LocalArtifactResolver(List.of(dir), 1 << 20, dir.resolve("spill"));
        int scored = 0;
        for (Map.Entry<GenerationEvent, BenchmarkItem> s : samples.entrySet()) {
            BenchmarkItem item = s.getValue();
            MagmaTruth truth = MagmaTruth.of(item.getGroundTruth());
            BenchmarkItem now = BenchmarkItem.newBuilder(item).setGroundTruth(truth.into(GroundTruth.newBuilder()).build()).build();
            BenchmarkItem before = BenchmarkItem.newBuilder(item).setGroundTruth(ReleasedGroundTruth.writtenWith(2, shared(truth))).build();
            String what = item.getTask() + "/" + item.getSampleId();
            SampleScorer.Result r = ReleasedGroundTruth.assertScoredAlike(scorer, s.getKey(), now, before, resolver, what);
            assertThat(r.rejection()).as(what).isNull();
            scored++;
        }
        assertThat(scored).isEqualTo(samples.size());
        // the known verdicts hold on the payload items
        for (VisualWebBenchSamples.Case c : VisualWebBenchSamples.cases()) {
            if (c.fails()) {
                continue;
            }
            BenchmarkItem now = BenchmarkItem.newBuilder(c.item())
                    .setGroundTruth(MagmaTruth.of(c.truth()).into(GroundTruth.newBuilder()).build()).build();
            Map<String, Double> metrics = scorer.score(c.event("r", "c", 1), now, resolver).sample().metrics();
            c.expected().forEach((metric, v) -> assertThat(metrics).as(c.sampleId()).containsEntry("visualwebbench." + metric, v));
        }
    }

    /** The same truth in the shared fields items carried before the payload. */
    private static GroundTruth shared(MagmaTruth t) {
        return GroundTruth.newBuilder().setUiSteps(t.uiSteps()).setTargetBox(t.targetBox()).setElementKind(t.elementKind())
                .setProtocolTrials(t.protocolTrials()).setAnswer(t.answer()).setAnswers(t.answers()).setChoiceIndex(t.choiceIndex()).build();
    }
}
