package io.mmgr.stream.topology;

import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Stores;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.ComparisonResult;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import org.apache.kafka.streams.state.KeyValueStore;
import io.mmgr.stream.leaderboard.AlertRule;
import io.mmgr.stream.topology.comparison.ComparisonSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint comparison on the whole topology: the echo task's outcomes are chosen by the test, so
 * rates, pairs and McNemar's discordant counts are known here without the scorer's code.
 */
@Tag("topology")
class CheckpointComparisonTest {

    static final int ITEMS = 60;
    static final String RUN = "run-cmp";

    @TempDir
    Path stateDir;

    TopologyFixture fx;
    TopologyTestDriver driver;
    Topics topics;
    Stores stores;
    TestOutputTopic<LeaderboardKey, Alert> alerts;
    TestOutputTopic<LeaderboardKey, CheckpointComparison> comparisons;

    @BeforeEach
    void start() {
        fx = TopologyFixture.builder("c.", stateDir)
                .context(c -> c.comparisons(new ComparisonSettings(new AlertRule(0.01, 0.05, 20), Duration.ofMillis(500))))
                .scorer();
        driver = fx.driver;
        topics = fx.topics;
        stores = fx.stores;
        alerts = fx.output(topics.alerts);
        comparisons = fx.output(topics.comparisons);
        for (int i = 0; i < ITEMS; i++) {
            fx.item(Fixtures.item(EchoTask.TASK, sample(i), 1));
        }
    }

    @AfterEach
    void close() {
        fx.close();
    }

    static String sample(int i) {
        return "s" + i;
    }

    /** Seeded pass/fail draws with the given pass probability: the checkpoint's "quality". */
    static int[] outcomes(double quality, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] out = new int[ITEMS];
        for (int i = 0; i < ITEMS; i++) {
            out[i] = r.nextDouble() < quality ? 1 : 0;
        }
        return out;
    }

    void publish(String checkpoint, long step, int[] outcomes, int from, int to) {
        for (int i = from; i < to; i++) {
            var e = Fixtures.event(RUN, checkpoint, step, EchoTask.TASK, sample(i), 0, Map.of("ok", (double) outcomes[i]));
            fx.send(e);
        }
        fx.evaluation().drain();
    }

    void compare() {
        driver.advanceWallClockTime(Duration.ofSeconds(1));
    }

    static double rate(int[] o, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += o[i];
        }
        return s / (to - from);
    }

    /** Two-sided exact McNemar worked from the discordant counts, independently of the scorer's code. */
    static double mcNemar(int[] candidate, int[] baseline, int from, int to) {
        int gained = 0;
        int lost = 0;
        for (int i = from; i < to; i++) {
            gained += candidate[i] == 1 && baseline[i] == 0 ? 1 : 0;
            lost += candidate[i] == 0 && baseline[i] == 1 ? 1 : 0;
        }
        int m = gained + lost;
        java.math.BigInteger tail = java.math.BigInteger.ZERO;
        java.math.BigInteger binom = java.math.BigInteger.ONE;
        for (int i = 0; i <= Math.min(gained, lost); i++) {
            tail = tail.add(binom);
            binom = binom.multiply(java.math.BigInteger.valueOf(m - i)).divide(java.math.BigInteger.valueOf(i + 1));
        }
        return Math.min(1.0, 2 * new java.math.BigDecimal(tail)
                .divide(new java.math.BigDecimal(java.math.BigInteger.TWO.pow(m)), java.math.MathContext.DECIMAL64).doubleValue());
    }

    @Test
    void aCheckpointMadeWorseOnPurposeRaisesAnAlertAndOneOfEqualQualityDoesNot() {
        int[] c1 = outcomes(0.8, 1);
        int[] c2 = outcomes(0.8, 2); // equal quality, independent draws
        int[] c3 = outcomes(0.4, 3); // made worse on purpose
        publish("ckpt-1000", 1000, c1, 0, ITEMS);
        compare();
        publish("ckpt-2000", 2000, c2, 0, ITEMS);
        compare();

        Map<LeaderboardKey, CheckpointComparison> byKey = comparisons.readKeyValuesToMap();
        ComparisonResult equal = byKey.get(new LeaderboardKey(RUN, "ckpt-2000", EchoTask.TASK)).getVsPrevious();
        assertThat(equal.getBaselineCheckpointId()).isEqualTo("ckpt-1000");
        assertThat(equal.getMethod()).isEqualTo("paired");
        assertThat(equal.getPartial()).isFalse();
        assertThat(equal.getSamples()).isEqualTo(ITEMS);
        assertThat(equal.getRate()).isCloseTo(rate(c2, 0, ITEMS), within(1e-12));
        assertThat(equal.getBaselineRate()).isCloseTo(rate(c1, 0, ITEMS), within(1e-12));
        assertThat(equal.getPValue()).isCloseTo(mcNemar(c2, c1, 0, ITEMS), within(1e-12));
        assertThat(equal.getSignificantDrop()).isFalse();
        assertThat(alerts.isEmpty()).as("no alert for a checkpoint of equal quality").isTrue();

        publish("ckpt-3000", 3000, c3, 0, ITEMS);
        compare();

        List<Alert> raised = alerts.readValuesToList();
        // a one-task run's all-tasks comparison is the task's: the same numbers, and no second alert
        assertThat(raised).extracting(Alert::getTask).containsOnly(EchoTask.TASK);
        ComparisonResult overall = comparisons.readKeyValuesToMap().get(new LeaderboardKey(RUN, "ckpt-3000", SampleKeys.ALL_TASKS))
                .getVsPrevious();
        Alert drop = raised.stream().filter(a -> a.getKind().equals("DROP_VS_PREVIOUS")).findFirst().orElseThrow();
        assertThat(overall.getPValue()).isEqualTo(drop.getPValue());
        assertThat(overall.getDifference()).isEqualTo(drop.getDifference());
        assertThat(overall.getSignificantDrop()).isTrue();
        assertThat(drop.getRunId()).isEqualTo(RUN);
        assertThat(drop.getTask()).isEqualTo(EchoTask.TASK);
        assertThat(drop.getCheckpointId()).isEqualTo("ckpt-3000");
        assertThat(drop.getBaselineCheckpointId()).isEqualTo("ckpt-2000");
        assertThat(drop.getRate()).isCloseTo(rate(c3, 0, ITEMS), within(1e-12));
        assertThat(drop.getBaselineRate()).isCloseTo(rate(c2, 0, ITEMS), within(1e-12));
        assertThat(drop.getDifference()).isCloseTo(rate(c3, 0, ITEMS) - rate(c2, 0, ITEMS), within(1e-12));
        assertThat(drop.getPValue()).isCloseTo(mcNemar(c3, c2, 0, ITEMS), within(1e-12)).isLessThan(0.01);
        assertThat(drop.getCiHigh()).isLessThan(0.0);
        assertThat(drop.getSamples()).isEqualTo(ITEMS);
        assertThat(drop.getMessage()).contains("ckpt-3000", "ckpt-2000", "paired on all 60 samples");
        // the best earlier checkpoint is the better of the first two; when that is not the previous, a second alert
        String best = rate(c1, 0, ITEMS) > rate(c2, 0, ITEMS) ? "ckpt-1000" : "ckpt-2000";
        assertThat(raised.stream().filter(a -> a.getKind().equals("DROP_VS_BEST")).map(Alert::getBaselineCheckpointId).toList())
                .isEqualTo(best.equals("ckpt-2000") ? List.of() : List.of("ckpt-1000"));
        assertThat(raised).allMatch(a -> a.getCheckpointId().equals("ckpt-3000"));

        // nothing changed: the next run of the comparison raises nothing again
        compare();
        assertThat(alerts.isEmpty()).isTrue();
    }

    @Test
    void aPartialCheckpointIsComparedOnTheSamplesBothHaveAndSaysSo() {
        int[] c1 = outcomes(0.7, 11);
        int[] c2 = outcomes(0.7, 12);
        publish("ckpt-1000", 1000, c1, 0, ITEMS);
        publish("ckpt-2000", 2000, c2, 20, 45);
        compare();

        Map<LeaderboardKey, CheckpointComparison> latest = comparisons.readKeyValuesToMap();
        CheckpointComparison c = latest.get(new LeaderboardKey(RUN, "ckpt-2000", EchoTask.TASK));
        ComparisonResult r = c.getVsPrevious();
        assertThat(c.getSamplesWithPrimary()).isEqualTo(25);
        assertThat(c.getSamplesExpected()).isEqualTo(ITEMS);
        assertThat(r.getPartial()).isTrue();
        assertThat(r.getSamples()).isEqualTo(25);
        assertThat(r.getBaselineRate()).as("the baseline only on the shared samples").isCloseTo(rate(c1, 20, 45), within(1e-12));
        assertThat(r.getRate()).isCloseTo(rate(c2, 20, 45), within(1e-12));
        assertThat(r.getPValue()).isCloseTo(mcNemar(c2, c1, 20, 45), within(1e-12));
        assertThat(r.getNote()).contains("partial", "25 samples both have", "ckpt-2000: 25 of 60");

        // all tasks: paired on the same samples (named task/sample), expected from the tasks the checkpoint has
        CheckpointComparison star = latest.get(new LeaderboardKey(RUN, "ckpt-2000", SampleKeys.ALL_TASKS));
        assertThat(star.getSamplesExpected()).isEqualTo(ITEMS);
        assertThat(star.getVsPrevious().getPartial()).isTrue();
        assertThat(star.getVsPrevious().getSamples()).isEqualTo(25);
        assertThat(star.getVsPrevious().getPValue()).isEqualTo(r.getPValue());
        assertThat(star.getVsPrevious().getNote()).isEqualTo(r.getNote());
    }

    void publish(String task, String checkpoint, long step, int[] outcomes) {
        for (int i = 0; i < ITEMS; i++) {
            var e = Fixtures.event(RUN, checkpoint, step, task, sample(i), 0, Map.of("ok", (double) outcomes[i]));
            fx.send(e);
        }
        fx.evaluation().drain();
    }

    static int[] concat(int[] a, int[] b) {
        int[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void theAllTasksComparisonPairsEveryTasksSamplesAndAlertsOnItsOwnDrop() {
        for (int i = 0; i < ITEMS; i++) {
            fx.item(Fixtures.item(EchoTask.SECOND_TASK, sample(i), 1));
        }
        // both tasks a little worse at the second checkpoint
        int[] a1 = outcomes(0.8, 41);
        int[] b1 = outcomes(0.8, 42);
        int[] a2 = outcomes(0.6, 43);
        int[] b2 = outcomes(0.6, 44);
        publish(EchoTask.TASK, "ckpt-1000", 1000, a1);
        publish(EchoTask.SECOND_TASK, "ckpt-1000", 1000, b1);
        compare();
        publish(EchoTask.TASK, "ckpt-2000", 2000, a2);
        publish(EchoTask.SECOND_TASK, "ckpt-2000", 2000, b2);
        compare();

        CheckpointComparison star = comparisons.readKeyValuesToMap().get(new LeaderboardKey(RUN, "ckpt-2000", SampleKeys.ALL_TASKS));
        int[] before = concat(a1, b1);
        int[] after = concat(a2, b2);
        ComparisonResult r = star.getVsPrevious();
        assertThat(star.getSamplesExpected()).isEqualTo(2 * ITEMS);
        assertThat(r.getSamples()).as("paired task by task, sample by sample").isEqualTo(2 * ITEMS);
        assertThat(r.getPartial()).isFalse();
        assertThat(r.getRate()).isCloseTo(rate(after, 0, 2 * ITEMS), within(1e-12));
        assertThat(r.getBaselineRate()).isCloseTo(rate(before, 0, 2 * ITEMS), within(1e-12));
        assertThat(r.getPValue()).isCloseTo(mcNemar(after, before, 0, 2 * ITEMS), within(1e-12));
        assertThat(r.getPValue()).isLessThan(0.01);
        assertThat(r.getSignificantDrop()).isTrue();
        List<Alert> overall = alerts.readValuesToList().stream().filter(a -> a.getTask().equals(SampleKeys.ALL_TASKS)).toList();
        assertThat(overall).singleElement().satisfies(a -> {
            assertThat(a.getKind()).isEqualTo("DROP_VS_PREVIOUS");
            assertThat(a.getPValue()).isEqualTo(r.getPValue());
            assertThat(a.getSamples()).isEqualTo(2 * ITEMS);
            assertThat(a.getMessage()).contains("ckpt-2000 on all tasks dropped");
        });
    }

    @Test
    void aReScoredSampleReplacesItsOutcome() {
        int[] c1 = outcomes(0.9, 21);
        int[] c2 = outcomes(0.9, 22);
        publish("ckpt-1000", 1000, c1, 0, ITEMS);
        publish("ckpt-2000", 2000, c2, 0, ITEMS);
        compare();
        comparisons.readKeyValuesToMap();

        // the training job re-sends ten of ckpt-2000's samples, now failing
        int[] worse = c2.clone();
        for (int i = 0; i < 10; i++) {
            worse[i] = 0;
        }
        publish("ckpt-2000", 2000, worse, 0, 10);
        compare();

        CheckpointComparison c = comparisons.readKeyValuesToMap().get(new LeaderboardKey(RUN, "ckpt-2000", EchoTask.TASK));
        assertThat(c.getSamplesWithPrimary()).as("replaced, not added").isEqualTo(ITEMS);
        assertThat(c.getRate()).isCloseTo(rate(worse, 0, ITEMS), within(1e-12));
        assertThat(c.getVsPrevious().getSamples()).isEqualTo(ITEMS);
        assertThat(c.getVsPrevious().getPValue()).isCloseTo(mcNemar(worse, c1, 0, ITEMS), within(1e-12));
    }

    @Test
    void aCheckpointArrivingBetweenTwoOthersBecomesTheLatersBaseline() {
        int[] c1 = outcomes(0.8, 31);
        int[] c3 = outcomes(0.8, 33);
        int[] c2 = outcomes(0.8, 32);
        publish("ckpt-1000", 1000, c1, 0, ITEMS);
        publish("ckpt-3000", 3000, c3, 0, ITEMS);
        compare();
        assertThat(comparisons.readKeyValuesToMap().get(new LeaderboardKey(RUN, "ckpt-3000", EchoTask.TASK))
                .getVsPrevious().getBaselineCheckpointId()).isEqualTo("ckpt-1000");

        publish("ckpt-2000", 2000, c2, 0, ITEMS);
        compare();
        Map<LeaderboardKey, CheckpointComparison> latest = comparisons.readKeyValuesToMap();
        ComparisonResult r = latest.get(new LeaderboardKey(RUN, "ckpt-3000", EchoTask.TASK)).getVsPrevious();
        assertThat(r.getBaselineCheckpointId()).isEqualTo("ckpt-2000");
        assertThat(r.getPValue()).isCloseTo(mcNemar(c3, c2, 0, ITEMS), within(1e-12));
    }

    /** The alerts of ckpt-2000 against ckpt-1000 when ckpt-2000 arrives in two parts, split at {@code split}. */
    List<Alert> alertsOfASplitCheckpoint(int[] c1, int[] c2, int split) {
        publish("ckpt-1000", 1000, c1, 0, ITEMS);
        compare();
        publish("ckpt-2000", 2000, c2, 0, split);
        compare();
        publish("ckpt-2000", 2000, c2, split, ITEMS);
        compare();
        compare();
        return alerts.readValuesToList().stream().filter(a -> a.getKind().equals("DROP_VS_PREVIOUS")).toList();
    }

    @Test
    void aPartialAlertIsBroughtUpToDateOnTheSameKeyAndTheFinalTextDependsOnTheScoresAlone() {
        int[] c1 = new int[ITEMS];
        int[] c2 = new int[ITEMS];
        for (int i = 0; i < ITEMS; i++) {
            c1[i] = i % 10 == 0 ? 0 : 1; // 90%
            c2[i] = i % 10 < 3 ? 1 : 0; // 30%, in every part alike
        }
        List<Alert> first = alertsOfASplitCheckpoint(c1, c2, 30);
        assertThat(first).as("raised while partial, then updated once complete").hasSize(2);
        Alert partial = first.get(0);
        Alert fin = first.get(1);
        assertThat(partial.getPartial()).isTrue();
        assertThat(partial.getRevision()).isEqualTo(1);
        assertThat(partial.getSamples()).isEqualTo(30);
        assertThat(partial.getMessage()).startsWith("[partial, to be updated] ").contains("30 samples both have");
        assertThat(fin.getPartial()).isFalse();
        assertThat(fin.getRevision()).isEqualTo(2);
        assertThat(fin.getCleared()).isFalse();
        assertThat(fin.getSamples()).isEqualTo(ITEMS);
        assertThat(fin.getRate()).isCloseTo(rate(c2, 0, ITEMS), within(1e-12));
        assertThat(fin.getPValue()).isCloseTo(mcNemar(c2, c1, 0, ITEMS), within(1e-12));
        assertThat(fin.getRaisedAt()).as("first raised").isEqualTo(partial.getRaisedAt());
        assertThat(fin.getUpdatedAt()).isAfter(partial.getUpdatedAt());
        assertThat(fin.getMessage()).doesNotContain("partial").contains("paired on all 60 samples");

        // the same scores arriving in other parts: the same final words
        close();
        start();
        List<Alert> second = alertsOfASplitCheckpoint(c1, c2, 45);
        assertThat(second.get(second.size() - 1).getMessage()).isEqualTo(fin.getMessage());
    }

    @Test
    void aPartialDropThatTheFinalFiguresDoNotBearOutIsWithdrawn() {
        int[] c1 = new int[ITEMS];
        int[] c2 = new int[ITEMS];
        for (int i = 0; i < ITEMS; i++) {
            // the first 25 all lost (a partial drop), then 17 of the other 35 gained: no significant drop overall
            c1[i] = i < 25 ? 1 : i % 2;
            c2[i] = i < 25 ? 0 : 1;
        }
        List<Alert> raised = alertsOfASplitCheckpoint(c1, c2, 25);
        assertThat(raised).hasSize(2);
        assertThat(raised.get(0).getPartial()).isTrue();
        assertThat(raised.get(0).getCleared()).isFalse();
        assertThat(raised.get(1).getCleared()).isTrue();
        assertThat(raised.get(1).getRevision()).isEqualTo(2);
        assertThat(raised.get(1).getMessage()).contains("withdrawn");
    }

    @Test
    void leaderboardRowsAreStoredAsPublishedWithTheTimeTheyLastChangedAndExpectTheWholeBenchmark() {
        for (int i = 0; i < ITEMS; i++) {
            fx.item(Fixtures.item(EchoTask.SECOND_TASK, sample(i), 1));
        }
        var board = driver.createOutputTopic(topics.leaderboard.name(), topics.leaderboard.keySerde().deserializer(),
                topics.leaderboard.valueSerde().deserializer());
        int[] c1 = outcomes(0.8, 71);
        publish("ckpt-1000", 1000, c1, 0, 1); // the first sample of the first task
        LeaderboardKey star = new LeaderboardKey(RUN, "ckpt-1000", SampleKeys.ALL_TASKS);
        LeaderboardRow first = board.readKeyValuesToMap().get(star);
        assertThat(first.getSamplesScored()).isEqualTo(1);
        assertThat(first.getSamplesExpected()).as("both tasks' samples, from the first one on").isEqualTo(2 * ITEMS);

        driver.advanceWallClockTime(Duration.ofSeconds(5));
        publish("ckpt-1000", 1000, c1, 0, 1); // the same sample again, the same outcome: no change
        assertThat(board.readKeyValuesToMap()).as("an unchanged row is not published again").doesNotContainKey(star);
        KeyValueStore<LeaderboardKey, LeaderboardRow> rows = driver.getKeyValueStore(stores.leaderboardRows.name());
        assertThat(rows.get(star)).as("the stored row is the published one, updatedAt included").isEqualTo(first);

        publish("ckpt-1000", 1000, c1, 1, 2);
        LeaderboardRow second = board.readKeyValuesToMap().get(star);
        assertThat(second.getSamplesScored()).isEqualTo(2);
        assertThat(second.getUpdatedAt()).as("the time it changed").isEqualTo(first.getUpdatedAt().plusSeconds(5));
        assertThat(rows.get(star)).isEqualTo(second);
        assertThat(rows.get(new LeaderboardKey(RUN, "ckpt-1000", EchoTask.TASK)).getSamplesExpected()).isEqualTo(ITEMS);
    }
}
