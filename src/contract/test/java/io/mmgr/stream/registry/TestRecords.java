package io.mmgr.stream.registry;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricStat;
import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.UiAction;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Records of the project's generated types that exercise nesting, maps, arrays, unions and nulls. */
final class TestRecords {

    private TestRecords() {
    }

    static SampleKey key(String sampleId, int seed) {
        return SampleKey.newBuilder().setRunId("run-7").setCheckpointId("ckpt-0420").setTask("maze")
                .setSampleId(sampleId).setSeed(seed).build();
    }

    /** Nested records in an array and in a union, maps, arrays of arrays, timestamp-millis, non-ASCII text. */
    static GenerationEvent generationEvent() {
        Map<String, List<Double>> features = new LinkedHashMap<>();
        features.put("inception", List.of(0.25, -1.5, 3.0e-7));
        features.put("i3d", List.of());
        GenerationInputs inputs = GenerationInputs.newBuilder()
                .setUiActions(List.of(
                        UiAction.newBuilder().setElement("btn-42").setOp("CLICK").setPoint(List.of(10.5, 20.25)).build(),
                        UiAction.newBuilder().setOp("TYPE").setValue("héllo wörld ✓").build()))
                .setTrials(List.of(
                        RobotTrial.newBuilder().setTrial(0).setSuccess(true).setSteps(118).setEpisodeSeed(99L).build(),
                        RobotTrial.newBuilder().setTrial(1).setSuccess(false).build()))
                .setTrajectory3d(List.of(Pose.newBuilder().setFrame(3).setX(1.0).setY(-2.0).setZ(0.5).build()))
                .setFeatures(features)
                .setValues(Map.of("lpips", 0.125))
                .build();
        return GenerationEvent.newBuilder()
                .setRunId("run-7").setModel("veo-ish").setCheckpointId("ckpt-0420").setTrainingStep(420_000L)
                .setTask("maze").setSampleId("maze-0003").setSeed(2).setModality("image")
                .setArtifacts(List.of(
                        ArtifactRef.newBuilder().setUri("file:/data/out/maze-0003.png").setMediaType("image/png")
                                .setSha256("ab".repeat(32)).setWidth(512).setHeight(512).setSizeBytes(70_123L).build(),
                        ArtifactRef.newBuilder().setRole("reference").setUri("data:application/json;base64,e30=")
                                .setMediaType("application/json").build()))
                .setInputs(inputs)
                .setProducedAt(Instant.ofEpochMilli(1_764_460_800_123L))
                .setAttributes(Map.of("host", "worker-3", "attempt", "1"))
                .build();
    }

    /** The same type with every optional part left null or empty. */
    static GenerationEvent sparseGenerationEvent() {
        return GenerationEvent.newBuilder()
                .setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(0L).setTask("math")
                .setSampleId("s").setModality("text").setProducedAt(Instant.ofEpochMilli(0L))
                .build();
    }

    static BenchmarkItem benchmarkItem() {
        GroundTruth truth = GroundTruth.newBuilder()
                .setMazeRows(2).setMazeCols(2)
                .setMazeLattice(List.of("#####", "#..##", "##..#", "#####", "#####"))
                .setSolutionPath(List.of(List.of(0, 0), List.of(0, 1), List.of(1, 1)))
                .setGrid(List.of(List.of(1, 2, 3), List.of(), List.of(-4)))
                .setUiSteps(List.of(UiAction.newBuilder().setElement("e1").setBbox(List.of(0.0, 0.0, 1.0, 1.0)).build()))
                .setGoal3d(List.of(1.0, 2.0, 3.0))
                .setExtra(Map.of("note", "a\u0000b"))
                .build();
        return BenchmarkItem.newBuilder()
                .setTask("maze").setSampleId("maze-0003").setDifficulty("hard").setSeeds(4)
                .setPrompt("Draw the path from S to T.")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("problem").setUri("file:/p.png")
                        .setMediaType("image/png").build()))
                .setGroundTruth(truth)
                .setAttributes(Map.of())
                .build();
    }

    /** A map whose values are a union with null. */
    static DeterministicResult deterministicResult() {
        Map<String, Double> metrics = new HashMap<>();
        metrics.put("layout_iou", 0.875);
        metrics.put("path_valid", null);
        metrics.put("nan_is_kept", Double.NaN);
        return DeterministicResult.newBuilder()
                .setGenerationId("gen-1").setEvaluator("maze-pixel").setEvaluatorVersion("1.0.0")
                .setMetrics(metrics).setDiagnostics(Map.of("why", "no path"))
                .setError(null).setDurationMicros(1234L).setEvaluatedAt(Instant.ofEpochMilli(1_764_460_801_000L))
                .build();
    }

    /** Maps of nested records. */
    static LeaderboardRow leaderboardRow() {
        return LeaderboardRow.newBuilder()
                .setRunId("run-7").setCheckpointId("ckpt-0420").setTrainingStep(420_000L).setTask("*")
                .setSamplesExpected(100L).setSamplesScored(97L).setPrimaryCount(95L).setPrimarySuccesses(60L)
                .setPrimaryRate(60.0 / 95).setPrimaryCiLow(null).setPrimaryCiHigh(0.72)
                .setMetrics(Map.of("maze-pixel.layout_iou", new MetricStat(0.81, 95L)))
                .setPassAtK(Map.of("pass@1", new MetricStat(0.6, 25L), "pass@4", new MetricStat(0.84, 25L)))
                .setTaskPrimaryRates(Map.of())
                .setUpdatedAt(Instant.ofEpochMilli(1_764_460_802_000L))
                .build();
    }

    /** Bytes fields, including an empty one. */
    static DeadLetter deadLetter() {
        return DeadLetter.newBuilder()
                .setSourceTopic("mmgr.generations").setSourcePartition(3).setSourceOffset(1L << 40)
                .setStage("intake").setReason("artifact digest mismatch")
                .setOriginalKey(ByteBuffer.wrap(new byte[0]))
                .setOriginalValue(ByteBuffer.wrap("{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8)))
                .setFailedAt(Instant.ofEpochMilli(1_764_460_803_000L))
                .build();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
