package io.mmgr.stream.topology.status;

import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.CheckpointDone;
import io.mmgr.stream.avro.CheckpointKey;
import io.mmgr.stream.avro.CheckpointStatus;
import io.mmgr.stream.avro.CheckpointTaskStatus;
import io.mmgr.stream.avro.ComparisonResult;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.leaderboard.Aggregates;
import io.mmgr.stream.leaderboard.Wilson;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint status sub-flow on its own (its builder called directly, beside the global benchmark
 * table it reads): rows, comparisons and alerts are piped in as the leaderboard and comparison
 * sub-flows publish them, with counts chosen here, so every expected answer is known without the
 * scorer's code. Time is the driver's wall clock.
 */
@Tag("topology")
class CheckpointStatusTopologyTest {

    static final String RUN = "run-s";
    static final String M2W = "mind2web";
    static final String CLICK = "screenspot";

    @TempDir
    Path stateDir;

    TopologyFixture fx;
    TopologyTestDriver driver;
    Topics topics;
    TestInputTopic<String, BenchmarkItem> benchmark;
    TestInputTopic<LeaderboardKey, LeaderboardRow> rows;
    TestInputTopic<LeaderboardKey, CheckpointComparison> comparisons;
    TestInputTopic<LeaderboardKey, Alert> alerts;
    TestInputTopic<CheckpointKey, CheckpointDone> markers;
    TestInputTopic<byte[], byte[]> rawMarkers;
    TestOutputTopic<CheckpointKey, CheckpointStatus> statuses;
    TestOutputTopic<byte[], DeadLetter> deadLetters;

    @BeforeEach
    void start() {
        fx = TopologyFixture.builder("s.", stateDir).settings(s -> s.withPartitions(3))
                .startingAt(Instant.parse("2026-12-01T10:00:00Z"))
                .context(c -> c.tasks(TaskCatalog.load(), EvaluatorRegistry.load()).status(CheckpointStatusSettings.of(Map.of(CheckpointStatusSettings.TIMEOUT_KEY, "60000",
                        CheckpointStatusSettings.INTERVAL_KEY, "500"))))
                .subFlows((builder, ctx) -> {
                    // the global benchmark store intake builds in the whole topology
                    TopologyFixture.benchmarkTable(builder, ctx);
                    CheckpointStatusTopology.build(builder, ctx.statusDeps());
                });
        driver = fx.driver;
        topics = fx.topics;
        benchmark = fx.input(topics.benchmark);
        rows = input(topics.leaderboard);
        comparisons = input(topics.comparisons);
        alerts = input(topics.alerts);
        markers = input(topics.checkpointDone);
        rawMarkers = fx.rawInput(topics.checkpointDone);
        statuses = fx.output(topics.checkpointStatus);
        deadLetters = fx.deadLetters();
        // three Mind2Web episodes with one seed each, two ScreenSpot items with two seeds each: 3 + 4 samples expected
        for (int i = 0; i < 3; i++) {
            benchmark.pipeInput(SampleKeys.itemKey(M2W, "ep" + i), item(M2W, "ep" + i, 1));
        }
        for (int i = 0; i < 2; i++) {
            benchmark.pipeInput(SampleKeys.itemKey(CLICK, "c" + i), item(CLICK, "c" + i, 2));
        }
    }

    @AfterEach
    void close() {
        fx.close();
    }

    <K, V> TestInputTopic<K, V> input(io.mmgr.stream.contract.Topic<K, V> t) {
        return fx.input(t);
    }

    static BenchmarkItem item(String task, String sample, int seeds) {
        return BenchmarkItem.newBuilder().setTask(task).setSampleId(sample).setBenchmark("magma").setSeeds(seeds)
                .setGroundTruth(GroundTruth.newBuilder().build()).build();
    }

    /** A row as the leaderboard publishes it, from the primaries of the samples scored so far (null: pending). */
    static LeaderboardRow row(String ckpt, String task, long expected, Double... primaries) {
        ScoreAggregate a = Aggregates.empty();
        a.setModel("m");
        a.setTrainingStep(step(ckpt));
        a.setExpected(expected);
        for (Double p : primaries) {
            if (p == null) {
                a.setPending(a.getPending() + 1);
            } else {
                a.setScored(a.getScored() + 1);
                a.setPrimaryCount(a.getPrimaryCount() + 1);
                a.setPrimarySum(a.getPrimarySum() + p);
                a.setSuccesses(a.getSuccesses() + (p == 1.0 ? 1 : 0));
            }
        }
        return Aggregates.toRow(RUN, ckpt, task, a, Instant.parse("2026-12-01T10:00:01Z"));
    }

    static long step(String ckpt) {
        return Long.parseLong(ckpt.substring(ckpt.indexOf('-') + 1));
    }

    static CheckpointComparison comparison(String ckpt, String task, LeaderboardRow row, String previous) {
        return comparison(ckpt, task, row, previous, null);
    }

    /** @param baselineSamples the previous checkpoint's samples with a primary it was computed on (null: not said) */
    static CheckpointComparison comparison(String ckpt, String task, LeaderboardRow row, String previous, Long baselineSamples) {
        ComparisonResult vs = previous == null ? null : ComparisonResult.newBuilder()
                .setBaselineCheckpointId(previous).setBaselineStep(step(previous)).setMethod("paired").setSamples(row.getPrimaryCount())
                .setPartial(false).setNote("paired on all " + row.getPrimaryCount() + " samples")
                .setRate(row.getPrimaryRate()).setBaselineRate(0.5).setDifference(row.getPrimaryRate() - 0.5)
                .setCiLow(-0.1).setCiHigh(0.4).setPValue(0.2).setSignificantDrop(false)
                .setBaselineSamplesWithPrimary(baselineSamples).build();
        return CheckpointComparison.newBuilder().setRunId(RUN).setTask(task).setCheckpointId(ckpt).setTrainingStep(step(ckpt))
                .setSamplesWithPrimary(row.getPrimaryCount()).setSamplesExpected(row.getSamplesExpected())
                .setRate(row.getPrimaryRate()).setVsPrevious(vs).setVsBest(null)
                .setUpdatedAt(Instant.parse("2026-12-01T10:00:02Z")).build();
    }

    void publish(LeaderboardRow r) {
        rows.pipeInput(new LeaderboardKey(r.getRunId(), r.getCheckpointId(), r.getTask()), r);
    }

    void publish(CheckpointComparison c) {
        comparisons.pipeInput(new LeaderboardKey(c.getRunId(), c.getCheckpointId(), c.getTask()), c);
    }

    void mark(String ckpt, String doneId, Long expected, Long timeoutMs, List<String> tasks) {
        markers.pipeInput(new CheckpointKey(RUN, ckpt), CheckpointDone.newBuilder().setDoneId(doneId).setRunId(RUN)
                .setCheckpointId(ckpt).setModel("m").setTrainingStep(step(ckpt)).setTasks(tasks).setExpected(expected)
                .setTimeoutMs(timeoutMs).setSentAt(Instant.parse("2026-12-01T09:59:59Z")).build());
    }

    void tick(long millis) {
        driver.advanceWallClockTime(Duration.ofMillis(millis));
    }

    /** The all-tasks row of the given task rows, as the leaderboard's checkpoint aggregate builds it. */
    static LeaderboardRow allTasks(String ckpt, Double[]... perTask) {
        return row(ckpt, SampleKeys.ALL_TASKS, 0, java.util.Arrays.stream(perTask).flatMap(java.util.Arrays::stream).toArray(Double[]::new));
    }

    static CheckpointTaskStatus task(CheckpointStatus s, String task) {
        return s.getTasks().stream().filter(t -> t.getTask().equals(task)).findFirst().orElseThrow();
    }

    @Test
    void completeOnceEveryExpectedSampleIsScoredAndTheComparisonsHaveCaughtUp() {
        String c = "ckpt-2000";
        mark(c, "done-1", null, null, List.of());
        Double[] m2w = {1.0, 0.5, 1.0};
        Double[] clicksSoFar = {1.0, 0.0};
        publish(row(c, M2W, 3, m2w));
        publish(row(c, CLICK, 4, clicksSoFar));
        publish(allTasks(c, m2w, clicksSoFar));
        tick(1000);
        assertThat(statuses.isEmpty()).as("2 of 4 ScreenSpot samples scored: no answer yet").isTrue();

        Double[] clicks = {1.0, 0.0, 1.0, 1.0};
        LeaderboardRow m2wRow = row(c, M2W, 3, m2w);
        LeaderboardRow clickRow = row(c, CLICK, 4, clicks);
        LeaderboardRow all = allTasks(c, m2w, clicks);
        publish(clickRow);
        publish(all);
        tick(1000);
        assertThat(statuses.isEmpty()).as("every sample scored, but no comparison has caught up yet").isTrue();

        CheckpointComparison m2wCmp = comparison(c, M2W, m2wRow, "ckpt-1000");
        CheckpointComparison clickCmp = comparison(c, CLICK, clickRow, "ckpt-1000");
        publish(m2wCmp);
        publish(clickCmp);
        tick(1000);
        assertThat(statuses.isEmpty()).as("the all-tasks comparison is still missing").isTrue();
        CheckpointComparison allCmp = comparison(c, SampleKeys.ALL_TASKS, all, "ckpt-1000");
        publish(allCmp);
        Alert alert = Alert.newBuilder().setRunId(RUN).setTask(CLICK).setKind("DROP_VS_BEST").setCheckpointId(c)
                .setBaselineCheckpointId("ckpt-500").setRate(0.75).setBaselineRate(1.0).setDifference(-0.25).setPValue(0.004)
                .setMessage("dropped").setRaisedAt(Instant.parse("2026-12-01T10:00:03Z")).build();
        alerts.pipeInput(new LeaderboardKey(RUN, c, CLICK), alert);
        tick(1000);

        var out = statuses.readKeyValuesToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).key).isEqualTo(new CheckpointKey(RUN, c));
        CheckpointStatus s = out.get(0).value;
        assertThat(s.getStatus()).isEqualTo("COMPLETE");
        assertThat(s.getDoneId()).isEqualTo("done-1");
        assertThat(s.getExpectedFrom()).isEqualTo("benchmark");
        assertThat(s.getTrainingStep()).isEqualTo(2000);
        assertThat(s.getRows()).containsExactly(m2wRow, clickRow, all);
        assertThat(s.getComparisons()).containsExactly(m2wCmp, clickCmp, allCmp);
        CheckpointTaskStatus overall = s.getOverall();
        assertThat(overall.getTask()).isEqualTo(SampleKeys.ALL_TASKS);
        assertThat(overall.getSamplesExpected()).isEqualTo(7);
        assertThat(overall.getSamplesScored()).isEqualTo(7);
        assertThat(overall.getSamplesPending()).isZero();
        // the primary and its interval are the all-tasks row's: (1 + .5 + 1 + 1 + 0 + 1 + 1) / 7
        assertThat(overall.getPrimaryRate()).isEqualTo(5.5 / 7);
        double[] ci = Wilson.interval(5.5 / 7, 7, Wilson.Z95);
        assertThat(overall.getPrimaryCiLow()).isEqualTo(ci[0]);
        assertThat(overall.getPrimaryCiHigh()).isEqualTo(ci[1]);
        assertThat(overall.getVsPrevious()).isEqualTo(allCmp.getVsPrevious());
        CheckpointTaskStatus click = task(s, CLICK);
        assertThat(click.getSamplesExpected()).isEqualTo(4);
        assertThat(click.getPrimaryRate()).isEqualTo(0.75);
        assertThat(click.getVsPrevious()).isEqualTo(clickCmp.getVsPrevious());
        assertThat(click.getAlerts()).containsExactly(alert);
        assertThat(task(s, M2W).getAlerts()).isEmpty();
        assertThat(s.getDecidedAt()).isBetween(Instant.parse("2026-12-01T10:00:03Z"), Instant.parse("2026-12-01T10:00:04Z"));

        // the same row once more (the leaderboard re-emits): the answer is not rewritten
        publish(clickRow);
        tick(1000);
        assertThat(statuses.isEmpty()).isTrue();
    }

    /**
     * A marker can reach the status flow before the benchmark items its samples need reach the global
     * store (the job publishes the benchmark, then outputs, then the marker; items pass validation first).
     * The answer counts the items as they are when the samples are in, not as they were at the marker:
     * CI once saw 5 of 7 expected, the count of the first punctuation, answered COMPLETE a moment later.
     */
    @Test
    void itemsThatArriveAfterTheMarkerCountInTheAnswer() {
        String task = "aitw";
        String c = "ckpt-3000";
        benchmark.pipeInput(SampleKeys.itemKey(task, "e0"), item(task, "e0", 1));
        mark(c, "done-late-items", null, null, List.of(task));
        tick(500);
        assertThat(statuses.isEmpty()).as("nothing scored yet").isTrue();

        benchmark.pipeInput(SampleKeys.itemKey(task, "e1"), item(task, "e1", 1));
        benchmark.pipeInput(SampleKeys.itemKey(task, "e2"), item(task, "e2", 1));
        Double[] two = {1.0, 0.0};
        LeaderboardRow partial = row(c, task, 3, two);
        publish(partial);
        publish(allTasks(c, two));
        publish(comparison(c, task, partial, null));
        publish(comparison(c, SampleKeys.ALL_TASKS, allTasks(c, two), null));
        tick(500);
        assertThat(statuses.isEmpty()).as("2 of the 3 items' samples scored: the first count (1) must not stand").isTrue();

        Double[] three = {1.0, 0.0, 1.0};
        LeaderboardRow full = row(c, task, 3, three);
        publish(full);
        publish(allTasks(c, three));
        publish(comparison(c, task, full, null));
        publish(comparison(c, SampleKeys.ALL_TASKS, allTasks(c, three), null));
        tick(500);
        var out = statuses.readValuesToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).getStatus()).isEqualTo("COMPLETE");
        assertThat(out.get(0).getOverall().getSamplesExpected()).isEqualTo(3);
        assertThat(out.get(0).getOverall().getSamplesScored()).isEqualTo(3);
    }

    /** Both checkpoints' rows, task and all-tasks, with their comparisons. */
    void scored(String ckpt, String previous, Long baselineSamples, Double... m2w) {
        LeaderboardRow r = row(ckpt, M2W, 3, m2w);
        LeaderboardRow all = allTasks(ckpt, m2w);
        publish(r);
        publish(all);
        publish(comparison(ckpt, M2W, r, previous, baselineSamples));
        publish(comparison(ckpt, SampleKeys.ALL_TASKS, all, previous, baselineSamples));
    }

    @Test
    void anAnswerComparingWithAMarkedPreviousCheckpointWaitsForItsAnswerAndForTheComparisonOnItsFinalRow() {
        String first = "ckpt-100";
        String second = "ckpt-200";
        mark(first, "done-100", null, null, List.of(M2W));
        mark(second, "done-200", null, null, List.of(M2W));
        // the second checkpoint is scored first, compared with the one sample of the first scored so far
        publish(row(first, M2W, 3, 0.0));
        publish(allTasks(first, new Double[] {0.0}));
        scored(second, first, 1L, 1.0, 1.0, 1.0);
        tick(1000);
        tick(1000);
        assertThat(statuses.isEmpty()).as("ckpt-200 is all scored, but ckpt-100 (marked done) is not").isTrue();

        scored(first, null, null, 0.0, 1.0, 0.0);
        tick(1000);
        assertThat(statuses.readKeyValuesToList()).extracting(kv -> kv.key.getCheckpointId()).containsExactly(first);
        tick(1000);
        assertThat(statuses.isEmpty()).as("ckpt-200's comparison still counts 1 of ckpt-100's 3 samples").isTrue();

        scored(second, first, 3L, 1.0, 1.0, 1.0);
        tick(1000);
        CheckpointStatus s = statuses.readValue();
        assertThat(s.getCheckpointId()).isEqualTo(second);
        assertThat(s.getStatus()).isEqualTo("COMPLETE");
        assertThat(s.getOverall().getVsPrevious().getBaselineSamplesWithPrimary()).isEqualTo(3L);
        assertThat(task(s, M2W).getVsPrevious().getBaselineSamplesWithPrimary()).isEqualTo(3L);
        assertThat(statuses.isEmpty()).isTrue();
    }

    @Test
    void aPreviousCheckpointStillScoringAtTheDeadlineLeavesTheAnswerCompleteWithThePartialComparison() {
        String first = "ckpt-100";
        String second = "ckpt-200";
        mark(first, "done-100", null, null, List.of(M2W));
        publish(row(first, M2W, 3, 0.0));
        scored(second, first, 1L, 1.0, 1.0, 1.0);
        mark(second, "done-200", null, 5000L, List.of(M2W));
        tick(4000);
        assertThat(statuses.isEmpty()).isTrue();
        tick(1500);
        CheckpointStatus s = statuses.readValue();
        assertThat(s.getCheckpointId()).isEqualTo(second);
        assertThat(s.getStatus()).as("its own samples are all scored").isEqualTo("COMPLETE");
        assertThat(s.getOverall().getVsPrevious().getBaselineSamplesWithPrimary()).isEqualTo(1L);
        assertThat(statuses.isEmpty()).as("ckpt-100 has not been answered").isTrue();
    }

    @Test
    void aPreviousCheckpointNobodyMarkedDoneDoesNotHoldTheAnswer() {
        publish(row("ckpt-100", M2W, 3, 0.0));
        scored("ckpt-200", "ckpt-100", 1L, 1.0, 1.0, 1.0);
        mark("ckpt-200", "done-200", null, null, List.of(M2W));
        tick(1000);
        assertThat(statuses.readValue().getStatus()).isEqualTo("COMPLETE");
    }

    @Test
    void aMissingSampleTimesOutWithTheCountAndTheLateSampleTurnsTheAnswerComplete() {
        String c = "ckpt-3000";
        Double[] twoOfThree = {1.0, 0.0};
        publish(row(c, M2W, 3, twoOfThree));
        publish(allTasks(c, twoOfThree));
        publish(comparison(c, M2W, row(c, M2W, 3, twoOfThree), null));
        publish(comparison(c, SampleKeys.ALL_TASKS, allTasks(c, twoOfThree), null));
        mark(c, "done-t", null, 5000L, List.of(M2W));
        tick(4000);
        assertThat(statuses.isEmpty()).as("before the marker's 5 s deadline").isTrue();
        tick(1500);

        CheckpointStatus timedOut = statuses.readValue();
        assertThat(timedOut.getStatus()).isEqualTo("TIMED_OUT");
        assertThat(timedOut.getDeadline()).isEqualTo(Instant.parse("2026-12-01T10:00:05Z"));
        assertThat(timedOut.getOverall().getSamplesExpected()).isEqualTo(3);
        assertThat(timedOut.getOverall().getSamplesScored()).isEqualTo(2);
        assertThat(timedOut.getOverall().getSamplesPending()).isEqualTo(1);
        assertThat(timedOut.getTasks()).extracting(CheckpointTaskStatus::getTask).containsExactly(M2W);
        assertThat(task(timedOut, M2W).getSamplesPending()).isEqualTo(1);
        tick(5000);
        assertThat(statuses.isEmpty()).as("a timed-out answer is not repeated").isTrue();

        Double[] all3 = {1.0, 0.0, 1.0};
        publish(row(c, M2W, 3, all3));
        publish(allTasks(c, all3));
        publish(comparison(c, M2W, row(c, M2W, 3, all3), null));
        publish(comparison(c, SampleKeys.ALL_TASKS, allTasks(c, all3), null));
        tick(1000);
        List<CheckpointStatus> late = statuses.readValuesToList();
        CheckpointStatus complete = late.get(late.size() - 1);
        assertThat(complete.getStatus()).isEqualTo("COMPLETE");
        assertThat(complete.getDoneId()).isEqualTo("done-t");
        assertThat(complete.getOverall().getSamplesPending()).isZero();
        assertThat(complete.getOverall().getPrimaryRate()).isEqualTo(2.0 / 3);
        assertThat(complete.getDecidedAt()).as("first answered at the deadline").isEqualTo(timedOut.getDecidedAt());
        assertThat(complete.getUpdatedAt()).isAfter(timedOut.getUpdatedAt());
    }

    @Test
    void theScorersDefaultTimeoutAppliesWhenTheMarkerNamesNone() {
        String c = "ckpt-4000";
        Double[] one = {1.0};
        publish(row(c, M2W, 3, one));
        publish(allTasks(c, one));
        mark(c, "done-d", null, null, List.of());
        tick(59_000);
        assertThat(statuses.isEmpty()).isTrue();
        tick(1_500);
        CheckpointStatus s = statuses.readValue();
        assertThat(s.getStatus()).isEqualTo("TIMED_OUT");
        assertThat(s.getOverall().getSamplesPending()).isEqualTo(2);
    }

    @Test
    void anExpectedCountInTheMarkerReplacesTheBenchmarksAndANewMarkerIsAnsweredAgain() {
        String c = "ckpt-5000";
        Double[] two = {1.0, 1.0};
        LeaderboardRow r = row(c, M2W, 3, two);
        publish(r);
        publish(allTasks(c, two));
        publish(comparison(c, M2W, r, null));
        publish(comparison(c, SampleKeys.ALL_TASKS, allTasks(c, two), null));
        tick(1000);
        assertThat(statuses.isEmpty()).as("no marker, nobody asked").isTrue();

        mark(c, "done-a", 2L, null, List.of());
        tick(1000);
        CheckpointStatus first = statuses.readValue();
        assertThat(first.getStatus()).as("2 of the benchmark's 3, but the job expects 2").isEqualTo("COMPLETE");
        assertThat(first.getExpectedFrom()).isEqualTo("marker");
        assertThat(first.getOverall().getSamplesExpected()).isEqualTo(2);

        mark(c, "done-b", null, 2000L, List.of());
        tick(1000);
        assertThat(statuses.isEmpty()).as("the new marker expects the benchmark's 3").isTrue();
        tick(1500);
        CheckpointStatus second = statuses.readValue();
        assertThat(second.getDoneId()).isEqualTo("done-b");
        assertThat(second.getStatus()).isEqualTo("TIMED_OUT");
        assertThat(second.getOverall().getSamplesPending()).isEqualTo(1);
    }

    @Test
    void unusableMarkersGoToTheDeadLetterTopicWithTheirReasonAndTheNextOneIsAnswered() {
        rawMarkers.pipeInput("k".getBytes(StandardCharsets.UTF_8), "not avro".getBytes(StandardCharsets.UTF_8));
        mark("ckpt-6000", "done-0", 0L, null, List.of());
        mark("ckpt-6000", " ", null, null, List.of());
        List<DeadLetter> letters = deadLetters.readValuesToList();
        assertThat(letters).hasSize(3);
        assertThat(letters).allSatisfy(l -> {
            assertThat(l.getStage()).isEqualTo("checkpoint-done");
            assertThat(l.getSourceTopic()).isEqualTo(topics.checkpointDone.name());
        });
        assertThat(letters.get(0).getReason()).startsWith("not a readable CheckpointDone");
        assertThat(letters.get(0).getOriginalValue()).isEqualTo(java.nio.ByteBuffer.wrap("not avro".getBytes(StandardCharsets.UTF_8)));
        assertThat(letters.get(1).getReason()).contains("expected must be at least 1");
        assertThat(letters.get(2).getReason()).contains("needs runId, checkpointId and doneId");

        Double[] three = {1.0, 1.0, 0.0};
        LeaderboardRow r = row("ckpt-6000", M2W, 3, three);
        publish(r);
        publish(allTasks("ckpt-6000", three));
        publish(comparison("ckpt-6000", M2W, r, null));
        publish(comparison("ckpt-6000", SampleKeys.ALL_TASKS, allTasks("ckpt-6000", three), null));
        mark("ckpt-6000", "done-ok", null, null, List.of());
        tick(1000);
        assertThat(statuses.readValue().getStatus()).isEqualTo("COMPLETE");
    }
}
