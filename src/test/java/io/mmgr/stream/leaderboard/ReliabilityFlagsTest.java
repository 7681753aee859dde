package io.mmgr.stream.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.AgreementStat;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricStat;
import io.mmgr.stream.avro.PairCounts;
import io.mmgr.stream.tasks.AgreementPrior;
import io.mmgr.stream.tasks.TaskFamily;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ReliabilityFlagsTest {

    static LeaderboardRow row(long scored, long partial, long pending, long failed, long primaries, Map<String, MetricStat> metrics) {
        return LeaderboardRow.newBuilder().setRunId("r").setCheckpointId("c").setTrainingStep(1).setTask("t")
                .setSamplesExpected(100).setSamplesScored(scored).setSamplesPartial(partial).setSamplesPending(pending)
                .setSamplesFailed(failed).setPrimaryCount(primaries).setPrimarySuccesses(0).setMetrics(metrics)
                .setUpdatedAt(Instant.EPOCH).build();
    }

    @Test
    void aCleanLargeRowHasNoFlags() {
        assertThat(ReliabilityFlags.builtIn(row(100, 0, 0, 0, 100, Map.of()))).isEmpty();
    }

    @Test
    void eachReasonForCareIsFlaggedWithItsCount() {
        var flags = ReliabilityFlags.builtIn(row(40, 12, 3, 2, 25,
                Map.of("robot-trials.trial_count_mismatch", new MetricStat(0.5, 4L))));
        assertThat(flags).extracting(ReliabilityFlags.Flag::code)
                .containsExactly("unavailable", "pending", "failed", "small-sample", "trial-protocol");
        assertThat(flags.get(0).text()).startsWith("12 samples");
        assertThat(flags.get(1).text()).startsWith("3 samples");
        assertThat(flags).extracting(ReliabilityFlags.Flag::severity).containsExactly(ReliabilityFlags.Level.INFO,
                ReliabilityFlags.Level.INFO, ReliabilityFlags.Level.WARN, ReliabilityFlags.Level.INFO, ReliabilityFlags.Level.WARN);
        // the REST API and the dashboard's styles carry the lower-case word
        assertThat(flags).extracting(ReliabilityFlags.Flag::level).containsExactly("info", "info", "warn", "info", "warn");
        assertThat(flags.get(3).text()).contains("only 25 samples");
    }

    @Test
    void aRobotSuiteRunToProtocolIsNotFlagged() {
        assertThat(ReliabilityFlags.builtIn(row(100, 0, 0, 0, 100,
                Map.of("robot-trials.trial_count_mismatch", new MetricStat(0.0, 4L))))).isEmpty();
    }

    /** A judged task row as the leaderboard builds it: agreement from {@link Agreement#stats}, the row's flag from it. */
    static LeaderboardRow judgedRow(String task, String model, Map<String, PairCounts> counts, Map<String, MetricStat> metrics) {
        Map<String, AgreementStat> stats = Agreement.stats(task, model, counts, POLICY);
        return LeaderboardRow.newBuilder(row(100, 0, 0, 0, 100, metrics)).setTask(task).setModel(model)
                .setAgreement(stats).setReliability(Agreement.rowReliability(stats, true)).build();
    }

    /** The families' Table 5 and the app's flag sources, handed in as the scorer's app does. */
    static final Agreement.Policy POLICY = Agreement.Policy.DEFAULT.withPriors(Table5.of(TaskFamily.installed()));
    static final ReliabilityFlags FLAGS = new ReliabilityFlags(List.of(new JudgeReliabilityFlags()));

    static final Map<String, MetricStat> JUDGED = Map.of("judge.physics_accuracy", new MetricStat(0.6, 100L));

    @Test
    void aJudgedRowCarriesTheJudgesReliabilityFromTable5UntilLabelsExist() {
        // seed, Table 5: Physics (VLM) 65.31% for Veo-3 -> discount; ARC (VLM) 94.90% -> reliable
        var physics = FLAGS.of(judgedRow("physical-concepts", "veo-3", Map.of(), JUDGED));
        assertThat(physics).extracting(ReliabilityFlags.Flag::code).containsExactly("judge-discount");
        assertThat(physics.get(0).level()).isEqualTo("warn");
        assertThat(physics.get(0).text()).contains("65.31%", "Table 5", "Veo-3", "until 50 paired verdicts");

        var arc = FLAGS.of(judgedRow("arc", "Veo-3", Map.of(), Map.of("judge.valid_solution", new MetricStat(0.5, 100L))));
        assertThat(arc).extracting(ReliabilityFlags.Flag::code).containsExactly("judge-reliable");
        assertThat(arc.get(0).level()).isEqualTo("info");
        assertThat(arc.get(0).text()).contains("94.90%");

        // a model Table 5 does not list takes the task's lowest figure: Nano-banana Pro's 30.00% on Last-Mile
        var lastMile = FLAGS.of(judgedRow("nav-last-mile", "my-model", Map.of(), JUDGED));
        assertThat(lastMile.get(0).code()).isEqualTo("judge-discount");
        assertThat(lastMile.get(0).text()).contains("30.00%", "Nano-banana Pro");
    }

    @Test
    void liveAgreementReplacesTheTableOnceThereAreEnoughPairs() {
        // 60 pairs, 57 agreeing (95%): reliable, although Table 5 discounts physics
        PairCounts counts = new PairCounts(40L, 2L, 1L, 17L);
        var flags = FLAGS.of(judgedRow("physical-concepts", "veo-3", Map.of("judge~human", counts), JUDGED));
        assertThat(flags).extracting(ReliabilityFlags.Flag::code).containsExactly("judge-reliable");
        // kappa: po = 0.95, pe = (42/60)(41/60) + (18/60)(19/60) = 0.5733..., (0.95 - pe) / (1 - pe) = 0.8828...
        assertThat(flags.get(0).text()).isEqualTo("judged metrics reliable: 95.00% agreement with human annotators over "
                + "60 paired verdicts, Cohen's kappa 0.88");
        // 60 pairs, 45 agreeing (75%): discount
        var worse = FLAGS.of(judgedRow("arc", "veo-3", Map.of("judge~human", new PairCounts(30L, 10L, 5L, 15L)),
                Map.of("judge.valid_solution", new MetricStat(0.5, 100L))));
        assertThat(worse).extracting(ReliabilityFlags.Flag::code).containsExactly("judge-discount");
        assertThat(worse.get(0).text()).contains("75.00% agreement", "60 paired verdicts");
    }

    @Test
    void withoutAFigureTheJudgesReliabilityIsUnknown() {
        var math = FLAGS.of(judgedRow("math", "veo-3", Map.of(), Map.of("judge.final_correctness", new MetricStat(1.0, 100L))));
        assertThat(math).extracting(ReliabilityFlags.Flag::code).containsExactly("judge-unknown");
        assertThat(math.get(0).text()).contains("no Table 5 figure");
    }

    @Test
    void aRowWithoutJudgedNumbersHasNoJudgeFlag() {
        // a judged task scored without a judge (its rubric exists, no verdict arrived): the row is partial, not the judge's
        LeaderboardRow maze = LeaderboardRow.newBuilder(judgedRow("maze", "veo-3", Map.of(),
                Map.of("maze-pixel.layout_iou", new MetricStat(0.9, 100L)))).setSamplesPartial(100).build();
        assertThat(maze.getReliability()).isEqualTo("unknown");
        assertThat(FLAGS.of(maze)).extracting(ReliabilityFlags.Flag::code).containsExactly("unavailable");
        // and a row of a task without a judge has no reliability at all
        assertThat(FLAGS.of(row(100, 0, 0, 0, 100, JUDGED))).isEmpty();
    }

    @Test
    void theFlagsAndFiguresAreTheOnesHandedIn() {
        // without Table 5 figures the judge's reliability rests on nothing yet
        Map<String, AgreementStat> bare = Agreement.stats("physical-concepts", "veo-3", Map.of(), Agreement.Policy.DEFAULT);
        assertThat(bare).isEmpty();
        // a test's own prior decides instead of the paper's 65.31%
        Table5 own = new Table5(List.of(new AgreementPrior("physical-concepts", AgreementPrior.JUDGE, Map.of("veo-3", 0.99))));
        Map<String, AgreementStat> stats = Agreement.stats("physical-concepts", "veo-3", Map.of(), Agreement.Policy.DEFAULT.withPriors(own));
        assertThat(stats.get(Agreement.JUDGE_VS_HUMAN).getReliability()).isEqualTo(Agreement.RELIABLE);
        assertThat(stats.get(Agreement.JUDGE_VS_HUMAN).getBasis()).contains("99.00%");
        // a source of the test's own adds its flag after the built-in ones; without sources only those remain
        LeaderboardRow partial = row(100, 5, 0, 0, 100, JUDGED);
        ReliabilityFlags.Source own2 = r -> List.of(new ReliabilityFlags.Flag("own", ReliabilityFlags.Level.WARN, "mine"));
        assertThat(new ReliabilityFlags(List.of(own2)).of(partial)).extracting(ReliabilityFlags.Flag::code)
                .containsExactly("unavailable", "own");
        assertThat(ReliabilityFlags.BUILT_IN.of(partial)).extracting(ReliabilityFlags.Flag::code).containsExactly("unavailable");
    }
}
