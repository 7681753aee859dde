package io.mmgr.stream.contract;

import io.mmgr.stream.avro.AgreementCounts;
import io.mmgr.stream.avro.AgreementKey;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.CheckpointDone;
import io.mmgr.stream.avro.CheckpointStatus;
import io.mmgr.stream.avro.FrechetSample;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.ItemScoreKey;
import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.avro.JudgeSpend;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.ParkedEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.registry.AvroSerdes;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The typed registry of the scorer's state stores, beside {@link Topics}: every sub-flow, processor
 * and store query takes its stores from here, so no sub-flow reaches into another for a store's name.
 * The names are public contract (they name the changelog topics, {@code <application.id>-<name>-changelog}):
 * renaming one loses its state.
 */
public final class Stores {

    // intake
    /** Global: the valid benchmark items, keyed {@code <task>/<sampleId>}; read by every sub-flow that counts expected samples. */
    public final Store<String, BenchmarkItem> benchmarkItems;
    /** Valid events waiting for their benchmark item, by offset in their generations partition. */
    public final Store<Long, ParkedEvent> parkedEvents;

    // assembly
    /** Each sample's plan and the parts that arrived. */
    public final Store<SampleKey, AssemblyState> assembly;

    // leaderboard
    /** The sample-score table: the latest score of every sample (queried by the REST API). */
    public final Store<SampleKey, SampleScore> sampleScores;
    public final Store<ItemScoreKey, ScoreAggregate> leaderboardItems;
    public final Store<LeaderboardKey, ScoreAggregate> leaderboardTaskSums;
    /** Task rows with their expected counts: the store behind the per-task leaderboard. */
    public final Store<LeaderboardKey, ScoreAggregate> leaderboardTasks;
    public final Store<LeaderboardKey, ScoreAggregate> leaderboardCheckpoints;
    /** Agreement counts per task x model (judge, evaluators, human labels). */
    public final Store<AgreementKey, AgreementCounts> agreement;
    /** Task rows with their live FID / FVD joined in. */
    public final Store<LeaderboardKey, ScoreAggregate> taskFrechet;
    /** Task rows as published: the live FID / FVD and the task x model agreement joined in. */
    public final Store<LeaderboardKey, ScoreAggregate> taskRows;
    /** Every row as published (task and all-tasks), with the time it last changed: what the REST API serves. */
    public final Store<LeaderboardKey, LeaderboardRow> leaderboardRows;

    // frechet
    /** Each sample's latest feature vector, keyed {@code run/checkpoint/task/sample#seed}. */
    public final Store<String, FrechetSample> frechetVectors;
    /** Each leaderboard row's latest distance. */
    public final Store<LeaderboardKey, FrechetStat> frechetStats;

    // comparison: string keys of fields joined by NUL ({@link ComparisonKeys}), so a prefix scans a run x task
    /** Latest primary per sample: key {@code run NUL task NUL checkpoint NUL sample NUL seed}. */
    public final Store<String, Double> comparisonOutcomes;
    /** Primary sums per checkpoint: key {@code run NUL task NUL checkpoint}. */
    public final Store<String, ScoreAggregate> comparisonCheckpoints;
    /** Latest comparison per checkpoint: key {@code run NUL task NUL checkpoint} (queried by the REST API). */
    public final Store<String, CheckpointComparison> comparisonResults;
    /** Alerts raised: key {@code run NUL task NUL checkpoint NUL kind} (queried by the REST API). */
    public final Store<String, Alert> comparisonAlerts;

    // checkpoint status: string keys of fields joined by NUL (topology.status.StatusKeys); a checkpoint's own
    // key ends in NUL, so it is the prefix of its rows, comparisons and alerts
    /** Latest leaderboard row: key {@code run NUL checkpoint NUL task}. */
    public final Store<String, LeaderboardRow> statusRows;
    /** Latest comparison: key {@code run NUL checkpoint NUL task}. */
    public final Store<String, CheckpointComparison> statusComparisons;
    /** Alerts: key {@code run NUL checkpoint NUL task NUL kind NUL baseline}. */
    public final Store<String, Alert> statusAlerts;
    /** Latest done marker: key {@code run NUL checkpoint NUL}. */
    public final Store<String, CheckpointDone> statusMarkers;
    /** When the latest marker times out (the scorer's wall clock, epoch ms): key {@code run NUL checkpoint NUL}. */
    public final Store<String, Long> statusDeadlines;
    /** The latest answer: key {@code run NUL checkpoint NUL}. */
    public final Store<String, CheckpointStatus> statusAnswers;

    // judge cost: string keys of fields joined by NUL ({@link JudgeCostKeys}), so a prefix scans a run
    /** The judge's spend per checkpoint in this partition's verdicts: key {@code run NUL checkpoint} (queried by the REST API). */
    public final Store<String, JudgeSpend> judgeSpend;
    /** Global: every judge worker start's projection, as the judge-projections topic has it (queried by the REST API). */
    public final Store<String, JudgeProjection> judgeProjections;

    public Stores(AvroSerdes serdes) {
        Serde<String> text = Serdes.String();
        Serde<LeaderboardKey> boardKey = serdes.forKeys(LeaderboardKey.class);
        Serde<ScoreAggregate> aggregate = serdes.forValues(ScoreAggregate.class);
        benchmarkItems = new Store<>("benchmark-items", text, serdes.forValues(BenchmarkItem.class));
        parkedEvents = new Store<>("intake-parked-events", Serdes.Long(), serdes.forValues(ParkedEvent.class));
        assembly = new Store<>("sample-assembly", serdes.forKeys(SampleKey.class), serdes.forValues(AssemblyState.class));
        sampleScores = new Store<>("sample-scores", serdes.forKeys(SampleKey.class), serdes.forValues(SampleScore.class));
        leaderboardItems = new Store<>("leaderboard-items", serdes.forKeys(ItemScoreKey.class), aggregate);
        leaderboardTaskSums = new Store<>("leaderboard-task-sums", boardKey, aggregate);
        leaderboardTasks = new Store<>("leaderboard-tasks", boardKey, aggregate);
        leaderboardCheckpoints = new Store<>("leaderboard-checkpoints", boardKey, aggregate);
        agreement = new Store<>("leaderboard-agreement", serdes.forKeys(AgreementKey.class), serdes.forValues(AgreementCounts.class));
        taskFrechet = new Store<>("leaderboard-task-frechet", boardKey, aggregate);
        taskRows = new Store<>("leaderboard-task-rows", boardKey, aggregate);
        leaderboardRows = new Store<>("leaderboard-rows", boardKey, serdes.forValues(LeaderboardRow.class));
        frechetVectors = new Store<>("frechet-vectors", text, serdes.forValues(FrechetSample.class));
        frechetStats = new Store<>("frechet-stats", boardKey, serdes.forValues(FrechetStat.class));
        comparisonOutcomes = new Store<>("comparison-outcomes", text, Serdes.Double());
        comparisonCheckpoints = new Store<>("comparison-checkpoints", text, aggregate);
        comparisonResults = new Store<>("checkpoint-comparisons", text, serdes.forValues(CheckpointComparison.class));
        comparisonAlerts = new Store<>("comparison-alerts", text, serdes.forValues(Alert.class));
        statusRows = new Store<>("checkpoint-status-rows", text, serdes.forValues(LeaderboardRow.class));
        statusComparisons = new Store<>("checkpoint-status-comparisons", text, serdes.forValues(CheckpointComparison.class));
        statusAlerts = new Store<>("checkpoint-status-alerts", text, serdes.forValues(Alert.class));
        statusMarkers = new Store<>("checkpoint-status-markers", text, serdes.forValues(CheckpointDone.class));
        statusDeadlines = new Store<>("checkpoint-status-deadlines", text, Serdes.Long());
        statusAnswers = new Store<>("checkpoint-status-answers", text, serdes.forValues(CheckpointStatus.class));
        judgeSpend = new Store<>("judge-spend", text, serdes.forValues(JudgeSpend.class));
        judgeProjections = new Store<>("judge-projections", text, serdes.forValues(JudgeProjection.class));
    }
}
