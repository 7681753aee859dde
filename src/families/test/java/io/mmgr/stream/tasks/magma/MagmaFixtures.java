package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.EvaluationContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Avro records for the Magma evaluator tests. */
final class MagmaFixtures {

    private MagmaFixtures() {
    }

    static GenerationEvent event(String task, String modality, GenerationInputs inputs) {
        return GenerationEvent.newBuilder()
                .setRunId("run-1").setModel("magma-8b").setCheckpointId("ckpt-1").setTrainingStep(100)
                .setTask(task).setSampleId("s1").setModality(modality)
                .setInputs(inputs).setProducedAt(Instant.ofEpochMilli(1_700_000_000_000L))
                .build();
    }

    static GenerationEvent uiEvent(String task, List<UiAction> actions) {
        return event(task, "ui", GenerationInputs.newBuilder().setUiActions(actions).build());
    }

    static GenerationEvent robotEvent(String task, List<RobotTrial> trials) {
        return event(task, "robot", GenerationInputs.newBuilder().setTrials(trials).build());
    }

    static BenchmarkItem item(String task, GroundTruth gt) {
        return BenchmarkItem.newBuilder().setTask(task).setSampleId("s1").setBenchmark("magma")
                .setGroundTruth(gt).build();
    }

    static BenchmarkItem goldSteps(String task, List<UiAction> steps) {
        return item(task, GroundTruth.newBuilder().setUiSteps(steps).build());
    }

    static UiAction.Builder action() {
        return UiAction.newBuilder();
    }

    static List<Double> xy(double x, double y) {
        return List.of(x, y);
    }

    static List<Double> box(double x1, double y1, double x2, double y2) {
        return List.of(x1, y1, x2, y2);
    }

    static List<RobotTrial> trials(int n, int successes) {
        List<RobotTrial> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(RobotTrial.newBuilder().setTrial(i).setSuccess(i < successes).build());
        }
        return out;
    }

    static EvaluationContext context(GenerationEvent event, BenchmarkItem item) {
        // the Magma evaluators score precomputed inputs; touching an artifact is a bug
        ArtifactResolver none = new ArtifactResolver() {
            @Override
            public byte[] read(io.mmgr.stream.avro.ArtifactRef ref) {
                throw new AssertionError("no artifact expected");
            }

            @Override
            public java.nio.file.Path file(io.mmgr.stream.avro.ArtifactRef ref) {
                throw new AssertionError("no artifact expected");
            }
        };
        return new EvaluationContext(event, item, none);
    }
}
