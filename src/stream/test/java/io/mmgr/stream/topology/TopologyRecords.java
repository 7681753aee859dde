package io.mmgr.stream.topology;

import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.SampleStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Records as an upstream sub-flow publishes them, for tests that feed one sub-flow directly. */
public final class TopologyRecords {

    private TopologyRecords() {
    }

    /** A complete sample score of model {@code m} with this primary and one metric {@code echo.ok} equal to it. */
    public static SampleScore score(String run, String checkpoint, long step, String task, String sample, double primary) {
        return SampleScore.newBuilder().setRunId(run).setModel("m").setCheckpointId(checkpoint).setTrainingStep(step)
                .setTask(task).setSampleId(sample).setSeed(0).setModality("ui").setGenerationId("g-" + sample)
                .setStatus(SampleStatus.COMPLETE.name()).setPrimary(primary).setPrimarySource("overall_cv")
                .setMetrics(new HashMap<>(Map.of("echo.ok", primary))).setGates(new HashMap<>(Map.of("overall_cv", primary)))
                .setFailedChecks(primary == 1 ? List.of() : List.of("echo.ok=1")).setPartsUsed(List.of("echo@echo@1"))
                .setProducedAt(Instant.ofEpochMilli(1_700_000_000_000L)).setScoredAt(Instant.ofEpochMilli(1_700_000_001_000L))
                .build();
    }
}
