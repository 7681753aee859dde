package io.mmgr.stream.contract;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.CheckpointDone;
import io.mmgr.stream.avro.CheckpointKey;
import io.mmgr.stream.avro.CheckpointStatus;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.FrechetSample;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.contract.CostClass;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The typed registry of public topics: every topology and client takes its topics from here.
 * Sample-keyed topics share one partition count so that all parts of a sample meet in one task.
 */
public final class Topics {

    /** Producers' key is free; intake reads raw bytes and deserializes itself so unreadable records reach the dead-letter topic intact. */
    public final Topic<byte[], GenerationEvent> generations;
    /** Input, compacted; intake validates it into {@link #benchmarkValid}. Read as raw bytes so that oversized or unreadable items are dead-lettered. */
    public final Topic<String, BenchmarkItem> benchmark;
    /**
     * Compacted; the benchmark items that passed intake's checks, keyed {@code <task>/<sampleId>} from the
     * item's own fields so that a task's items can be counted by prefix. Written by the scorer only; the
     * global table of items reads it.
     */
    public final Topic<String, BenchmarkItem> benchmarkValid;
    /**
     * The evaluation worker's queues, one per cost class, so that cheap work never waits behind
     * expensive work: light (the original topic name, so requests an older version left there are still
     * read), image and video ({@link #evaluationRequests(CostClass)}).
     */
    public final Topic<SampleKey, EvaluationRequest> evaluationRequests;
    public final Topic<SampleKey, EvaluationRequest> imageEvaluationRequests;
    public final Topic<SampleKey, EvaluationRequest> videoEvaluationRequests;
    /** Internal work queue: feature vectors for the live FID / FVD, keyed by their leaderboard row. */
    public final Topic<LeaderboardKey, FrechetSample> frechetSamples;
    public final Topic<SampleKey, DeterministicResult> cvResults;
    public final Topic<SampleKey, JudgeRequest> judgeRequests;
    public final Topic<SampleKey, JudgeVerdict> judgeVerdicts;
    /** Compacted: final verdicts by cache key (judge model, rubric version, prompt and artifact digests), shared by judge workers. */
    public final Topic<String, JudgeVerdict> judgeCache;
    /**
     * Compacted: the judge's batch lane, one record per batch by its local id (state, provider id, custom id to
     * request key), a JSON document (io.mmgr.stream.judge.batch.BatchRecord); read to its end when a judge worker starts.
     */
    public final Topic<String, byte[]> judgeBatches;
    /**
     * Compacted: each judge worker start's projected cost per run x checkpoint, keyed
     * {@code run NUL checkpoint NUL worker} ({@link JudgeCostKeys}); every scorer reads all of it (a global table).
     */
    public final Topic<String, JudgeProjection> judgeProjections;
    public final Topic<SampleKey, HumanLabel> humanLabels;
    /** Compacted: the latest score of every sample. */
    public final Topic<SampleKey, SampleScore> sampleScores;
    /** Compacted: the latest row of every run x checkpoint x task. */
    public final Topic<LeaderboardKey, LeaderboardRow> leaderboard;
    public final Topic<LeaderboardKey, Alert> alerts;
    /** Compacted: the latest comparison of every run x checkpoint x task with its previous and best earlier checkpoint. */
    public final Topic<LeaderboardKey, CheckpointComparison> comparisons;
    public final Topic<byte[], DeadLetter> deadLetter;
    /** Input, compacted: a training job's marker that a checkpoint's outputs are all submitted (the latest counts). */
    public final Topic<CheckpointKey, CheckpointDone> checkpointDone;
    /** Compacted: the scorer's answer to each checkpoint's marker, COMPLETE or TIMED_OUT, rewritten when a late part changes it. */
    public final Topic<CheckpointKey, CheckpointStatus> checkpointStatus;

    private final List<Definition> definitions;

    public Topics(String prefix, int partitions, short replication, AvroSerdes serdes) {
        Serde<SampleKey> sampleKey = serdes.forKeys(SampleKey.class);
        Serde<LeaderboardKey> boardKey = serdes.forKeys(LeaderboardKey.class);
        generations = new Topic<>(prefix + "generations", Serdes.ByteArray(), serdes.forValues(GenerationEvent.class));
        benchmark = new Topic<>(prefix + "benchmark", Serdes.String(), serdes.forValues(BenchmarkItem.class));
        benchmarkValid = new Topic<>(prefix + "benchmark-valid", Serdes.String(), serdes.forValues(BenchmarkItem.class));
        Serde<EvaluationRequest> request = serdes.forValues(EvaluationRequest.class);
        evaluationRequests = new Topic<>(prefix + "evaluation-requests", sampleKey, request);
        imageEvaluationRequests = new Topic<>(prefix + "evaluation-requests-image", sampleKey, request);
        videoEvaluationRequests = new Topic<>(prefix + "evaluation-requests-video", sampleKey, request);
        frechetSamples = new Topic<>(prefix + "frechet-samples", boardKey, serdes.forValues(FrechetSample.class));
        cvResults = new Topic<>(prefix + "cv-results", sampleKey, serdes.forValues(DeterministicResult.class));
        judgeRequests = new Topic<>(prefix + "judge-requests", sampleKey, serdes.forValues(JudgeRequest.class));
        judgeVerdicts = new Topic<>(prefix + "judge-verdicts", sampleKey, serdes.forValues(JudgeVerdict.class));
        judgeCache = new Topic<>(prefix + "judge-cache", Serdes.String(), serdes.forValues(JudgeVerdict.class));
        judgeBatches = new Topic<>(prefix + "judge-batches", Serdes.String(), Serdes.ByteArray());
        judgeProjections = new Topic<>(prefix + "judge-projections", Serdes.String(), serdes.forValues(JudgeProjection.class));
        humanLabels = new Topic<>(prefix + "human-labels", sampleKey, serdes.forValues(HumanLabel.class));
        sampleScores = new Topic<>(prefix + "sample-scores", sampleKey, serdes.forValues(SampleScore.class));
        leaderboard = new Topic<>(prefix + "leaderboard", boardKey, serdes.forValues(LeaderboardRow.class));
        alerts = new Topic<>(prefix + "alerts", boardKey, serdes.forValues(Alert.class));
        comparisons = new Topic<>(prefix + "comparisons", boardKey, serdes.forValues(CheckpointComparison.class));
        // the original key, cut: a dead letter must fit whatever key its record had
        deadLetter = new Topic<>(prefix + "dead-letter", Serdes.serdeFrom((topic, key) -> DeadLetterKey.of(key),
                Serdes.ByteArray().deserializer()), serdes.forValues(DeadLetter.class));
        Serde<CheckpointKey> checkpointKey = serdes.forKeys(CheckpointKey.class);
        checkpointDone = new Topic<>(prefix + "checkpoint-done", checkpointKey, serdes.forValues(CheckpointDone.class));
        checkpointStatus = new Topic<>(prefix + "checkpoint-status", checkpointKey, serdes.forValues(CheckpointStatus.class));

        Map<String, String> compacted = Map.of("cleanup.policy", "compact");
        Map<String, String> kept30Days = Map.of("retention.ms", String.valueOf(30L * 24 * 3600 * 1000));
        definitions = List.of(
                new Definition(generations.name(), partitions, replication, Map.of()),
                new Definition(benchmark.name(), partitions, replication, compacted),
                new Definition(benchmarkValid.name(), partitions, replication, compacted),
                new Definition(evaluationRequests.name(), partitions, replication, Map.of()),
                new Definition(frechetSamples.name(), partitions, replication, Map.of()),
                new Definition(imageEvaluationRequests.name(), partitions, replication, Map.of()),
                new Definition(videoEvaluationRequests.name(), partitions, replication, Map.of()),
                new Definition(cvResults.name(), partitions, replication, Map.of()),
                new Definition(judgeRequests.name(), partitions, replication, Map.of()),
                new Definition(judgeVerdicts.name(), partitions, replication, kept30Days),
                new Definition(judgeCache.name(), partitions, replication, compacted),
                new Definition(judgeBatches.name(), partitions, replication, compacted),
                // a few records a checkpoint: one partition, so that every scorer's global table reads it in one go
                new Definition(judgeProjections.name(), 1, replication, compacted),
                new Definition(humanLabels.name(), partitions, replication, kept30Days),
                new Definition(sampleScores.name(), partitions, replication, compacted),
                new Definition(leaderboard.name(), partitions, replication, compacted),
                new Definition(alerts.name(), partitions, replication, kept30Days),
                new Definition(comparisons.name(), partitions, replication, compacted),
                new Definition(deadLetter.name(), partitions, replication, kept30Days),
                new Definition(checkpointDone.name(), partitions, replication, compacted),
                new Definition(checkpointStatus.name(), partitions, replication, compacted));
    }

    /** The work queue of a cost class. */
    public Topic<SampleKey, EvaluationRequest> evaluationRequests(CostClass costClass) {
        return switch (costClass) {
            case LIGHT -> evaluationRequests;
            case IMAGE -> imageEvaluationRequests;
            case VIDEO -> videoEvaluationRequests;
        };
    }

    /** Every public topic with its partitions, replication and configuration, for creation at start-up. */
    public List<Definition> definitions() {
        return definitions;
    }

    /** How a topic is created. */
    public record Definition(String name, int partitions, short replication, Map<String, String> config) {
    }
}
