package io.mmgr.stream.topology;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.tasks.CostClass;
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
    /** Compacted; key {@code <task>/<sampleId>} so that a task's items can be counted by prefix. */
    public final Topic<String, BenchmarkItem> benchmark;
    /**
     * The evaluation worker's queues, one per cost class, so that cheap work never waits behind
     * expensive work: light (the original topic name, so requests an older version left there are still
     * read), image and video ({@link #evaluationRequests(CostClass)}).
     */
    public final Topic<SampleKey, EvaluationRequest> evaluationRequests;
    public final Topic<SampleKey, EvaluationRequest> imageEvaluationRequests;
    public final Topic<SampleKey, EvaluationRequest> videoEvaluationRequests;
    public final Topic<SampleKey, DeterministicResult> cvResults;
    public final Topic<SampleKey, JudgeRequest> judgeRequests;
    public final Topic<SampleKey, JudgeVerdict> judgeVerdicts;
    /** Compacted: final verdicts by cache key (judge model, rubric version, prompt and artifact digests), shared by judge workers. */
    public final Topic<String, JudgeVerdict> judgeCache;
    public final Topic<SampleKey, HumanLabel> humanLabels;
    /** Compacted: the latest score of every sample. */
    public final Topic<SampleKey, SampleScore> sampleScores;
    /** Compacted: the latest row of every run x checkpoint x task. */
    public final Topic<LeaderboardKey, LeaderboardRow> leaderboard;
    public final Topic<LeaderboardKey, Alert> alerts;
    /** Compacted: the latest comparison of every run x checkpoint x task with its previous and best earlier checkpoint. */
    public final Topic<LeaderboardKey, CheckpointComparison> comparisons;
    public final Topic<byte[], DeadLetter> deadLetter;

    private final List<Definition> definitions;

    public Topics(String prefix, int partitions, short replication, AvroSerdes serdes) {
        Serde<SampleKey> sampleKey = serdes.forKeys(SampleKey.class);
        Serde<LeaderboardKey> boardKey = serdes.forKeys(LeaderboardKey.class);
        generations = new Topic<>(prefix + "generations", Serdes.ByteArray(), serdes.forValues(GenerationEvent.class));
        benchmark = new Topic<>(prefix + "benchmark", Serdes.String(), serdes.forValues(BenchmarkItem.class));
        Serde<EvaluationRequest> request = serdes.forValues(EvaluationRequest.class);
        evaluationRequests = new Topic<>(prefix + "evaluation-requests", sampleKey, request);
        imageEvaluationRequests = new Topic<>(prefix + "evaluation-requests-image", sampleKey, request);
        videoEvaluationRequests = new Topic<>(prefix + "evaluation-requests-video", sampleKey, request);
        cvResults = new Topic<>(prefix + "cv-results", sampleKey, serdes.forValues(DeterministicResult.class));
        judgeRequests = new Topic<>(prefix + "judge-requests", sampleKey, serdes.forValues(JudgeRequest.class));
        judgeVerdicts = new Topic<>(prefix + "judge-verdicts", sampleKey, serdes.forValues(JudgeVerdict.class));
        judgeCache = new Topic<>(prefix + "judge-cache", Serdes.String(), serdes.forValues(JudgeVerdict.class));
        humanLabels = new Topic<>(prefix + "human-labels", sampleKey, serdes.forValues(HumanLabel.class));
        sampleScores = new Topic<>(prefix + "sample-scores", sampleKey, serdes.forValues(SampleScore.class));
        leaderboard = new Topic<>(prefix + "leaderboard", boardKey, serdes.forValues(LeaderboardRow.class));
        alerts = new Topic<>(prefix + "alerts", boardKey, serdes.forValues(Alert.class));
        comparisons = new Topic<>(prefix + "comparisons", boardKey, serdes.forValues(CheckpointComparison.class));
        deadLetter = new Topic<>(prefix + "dead-letter", Serdes.ByteArray(), serdes.forValues(DeadLetter.class));

        Map<String, String> compacted = Map.of("cleanup.policy", "compact");
        Map<String, String> kept30Days = Map.of("retention.ms", String.valueOf(30L * 24 * 3600 * 1000));
        definitions = List.of(
                new Definition(generations.name(), partitions, replication, Map.of()),
                new Definition(benchmark.name(), partitions, replication, compacted),
                new Definition(evaluationRequests.name(), partitions, replication, Map.of()),
                new Definition(imageEvaluationRequests.name(), partitions, replication, Map.of()),
                new Definition(videoEvaluationRequests.name(), partitions, replication, Map.of()),
                new Definition(cvResults.name(), partitions, replication, Map.of()),
                new Definition(judgeRequests.name(), partitions, replication, Map.of()),
                new Definition(judgeVerdicts.name(), partitions, replication, kept30Days),
                new Definition(judgeCache.name(), partitions, replication, compacted),
                new Definition(humanLabels.name(), partitions, replication, kept30Days),
                new Definition(sampleScores.name(), partitions, replication, compacted),
                new Definition(leaderboard.name(), partitions, replication, compacted),
                new Definition(alerts.name(), partitions, replication, kept30Days),
                new Definition(comparisons.name(), partitions, replication, compacted),
                new Definition(deadLetter.name(), partitions, replication, kept30Days));
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
