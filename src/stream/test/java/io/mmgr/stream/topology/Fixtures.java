package io.mmgr.stream.topology;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.JudgeVerdict;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builders of test events, items and verdicts. */
public final class Fixtures {

    private Fixtures() {
    }

    public static GenerationEvent event(String run, String checkpoint, long step, String task, String sample, int seed,
                                 Map<String, Double> values) {
        GenerationInputs inputs = GenerationInputs.newBuilder().setValues(values == null ? null : new HashMap<>(values)).build();
        return GenerationEvent.newBuilder()
                .setRunId(run).setModel("model-x").setCheckpointId(checkpoint).setTrainingStep(step)
                .setTask(task).setSampleId(sample).setSeed(seed).setModality("ui")
                .setArtifacts(List.of()).setInputs(inputs)
                .setProducedAt(Instant.ofEpochMilli(1_700_000_000_000L)).setAttributes(Map.of())
                .build();
    }

    public static BenchmarkItem item(String task, String sample, int seeds) {
        return BenchmarkItem.newBuilder()
                .setTask(task).setSampleId(sample).setSeeds(seeds)
                .setGroundTruth(GroundTruth.newBuilder().build())
                .build();
    }

    public static JudgeVerdict verdict(String requestId, String generationId, String status, String version, Map<String, Double> metrics) {
        return JudgeVerdict.newBuilder()
                .setRequestId(requestId).setGenerationId(generationId).setRubric("echo").setRubricVersion(version)
                .setJudgeModel("judge-model").setStatus(status).setMetrics(new HashMap<>(metrics))
                .setReason(status.equals("VALID") ? null : "circuit open: judge unavailable")
                .setDecidedAt(Instant.now())
                .build();
    }
}
