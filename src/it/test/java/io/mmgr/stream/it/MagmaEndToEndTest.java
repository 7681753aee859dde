package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.topology.ScorerSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on a real broker: Magma episodes, clicks and robot trials of two checkpoints go in as
 * generation events; sample scores and leaderboard rows come out and match values worked out here
 * from how each prediction was built, not from the scorer's metric code.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MagmaEndToEndTest {

    static final String RUN = "run-e2e";
    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;

    static ScorerHarness h;

    /**
     * How a predicted Mind2Web step is built from its gold step (gold op TYPE, value "new york city"),
     * with its element correctness and operation F1 worked by hand.
     */
    enum StepCase {
        EXACT(true, 1.0),
        POINT_INSIDE(true, 1.0),
        WRONG_ELEMENT(false, 1.0),
        POINT_OUTSIDE(false, 1.0),
        // tokens {type, new, york} against {type, new, york, city}: precision 1, recall 3/4, F1 6/7
        PARTIAL_VALUE(true, 6.0 / 7.0),
        // tokens {click} against {type, new, york, city}: no overlap
        WRONG_OP(true, 0.0);

        final boolean elementOk;
        final double f1;

        StepCase(boolean elementOk, double f1) {
            this.elementOk = elementOk;
            this.f1 = f1;
        }

        boolean stepOk() {
            return elementOk && f1 == 1.0;
        }
    }

    /** Episodes (3 steps each) per checkpoint: the later checkpoint is better. */
    static final Map<String, List<List<StepCase>>> EPISODES = Map.of(
            "ckpt-1000", List.of(
                    List.of(StepCase.EXACT, StepCase.WRONG_ELEMENT, StepCase.PARTIAL_VALUE),
                    List.of(StepCase.POINT_INSIDE, StepCase.EXACT, StepCase.EXACT),
                    List.of(StepCase.WRONG_OP, StepCase.POINT_OUTSIDE, StepCase.EXACT),
                    List.of(StepCase.PARTIAL_VALUE, StepCase.PARTIAL_VALUE, StepCase.WRONG_ELEMENT)),
            "ckpt-2000", List.of(
                    List.of(StepCase.EXACT, StepCase.EXACT, StepCase.PARTIAL_VALUE),
                    List.of(StepCase.POINT_INSIDE, StepCase.EXACT, StepCase.EXACT),
                    List.of(StepCase.EXACT, StepCase.POINT_INSIDE, StepCase.EXACT),
                    List.of(StepCase.EXACT, StepCase.EXACT, StepCase.EXACT)));

    /** ScreenSpot clicks per checkpoint: inside the target box or not; kinds alternate text, icon. */
    static final Map<String, boolean[]> CLICKS = Map.of(
            "ckpt-1000", new boolean[] {true, false, false, true, false},
            "ckpt-2000", new boolean[] {true, true, false, true, true});

    /** Robot trials per checkpoint and LIBERO task: {trials, successes}; LIBERO's protocol is 50. */
    static final Map<String, int[][]> TRIALS = Map.of(
            "ckpt-1000", new int[][] {{50, 20}, {50, 31}},
            "ckpt-2000", new int[][] {{50, 44}, {48, 40}});

    static final Map<String, Long> STEPS = Map.of("ckpt-1000", 1000L, "ckpt-2000", 2000L, "ckpt-3000", 3000L);

    @BeforeAll
    static void start() throws Exception {
        // a sample without its item is dead-lettered after this wait (the default is a minute)
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("e2e.").withPartitions(3)
                .withKafkaOverrides(java.util.Map.of(io.mmgr.stream.topology.intake.ItemWait.WAIT_MS, "10000"));
        h = new ScorerHarness(dir, settings);
        List<BenchmarkItem> items = new ArrayList<>();
        for (int e = 0; e < 4; e++) {
            items.add(item("mind2web", "ep" + e, GroundTruth.newBuilder().setUiSteps(goldSteps(e)).build()));
        }
        for (int c = 0; c < 5; c++) {
            items.add(item("screenspot", "click" + c, GroundTruth.newBuilder()
                    .setTargetBox(List.of(100.0 + c, 200.0, 160.0 + c, 240.0)).setElementKind(c % 2 == 0 ? "text" : "icon").build()));
        }
        for (int t = 0; t < 2; t++) {
            items.add(item("libero-spatial", "task" + t, GroundTruth.newBuilder().build()));
        }
        items.forEach(h::publish);
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    static BenchmarkItem item(String task, String sample, GroundTruth truth) {
        return BenchmarkItem.newBuilder().setTask(task).setSampleId(sample).setBenchmark("magma").setGroundTruth(truth).build();
    }

    static List<UiAction> goldSteps(int episode) {
        List<UiAction> steps = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            double x = 50.0 * s;
            steps.add(UiAction.newBuilder().setElement("el-" + episode + "-" + s).setBbox(List.of(x, 10.0, x + 40, 30.0))
                    .setOp("TYPE").setValue("new york city").build());
        }
        return steps;
    }

    static UiAction predicted(UiAction gold, StepCase c) {
        UiAction.Builder b = UiAction.newBuilder().setOp("TYPE").setValue("new york city");
        double x1 = gold.getBbox().get(0);
        switch (c) {
            case EXACT, PARTIAL_VALUE, WRONG_OP -> b.setElement(gold.getElement());
            case POINT_INSIDE -> b.setPoint(List.of(x1 + 40, 30.0)); // the box's corner counts as inside
            case WRONG_ELEMENT -> b.setElement("somewhere-else");
            case POINT_OUTSIDE -> b.setPoint(List.of(x1 + 40.5, 20.0));
            default -> throw new IllegalStateException();
        }
        if (c == StepCase.PARTIAL_VALUE) {
            b.setValue("New York");
        }
        if (c == StepCase.WRONG_OP) {
            b.setOp("CLICK").setValue(null);
        }
        return b.build();
    }

    static GenerationEvent event(String checkpoint, String task, String sample, String modality, GenerationInputs inputs) {
        return GenerationEvent.newBuilder().setRunId(RUN).setModel("magma-8b").setCheckpointId(checkpoint)
                .setTrainingStep(STEPS.get(checkpoint)).setTask(task).setSampleId(sample).setModality(modality)
                .setInputs(inputs).setProducedAt(Instant.now()).build();
    }

    static GenerationEvent episodeEvent(String checkpoint, int episode, List<StepCase> cases) {
        List<UiAction> gold = goldSteps(episode);
        List<UiAction> pred = new ArrayList<>();
        for (int s = 0; s < cases.size(); s++) {
            pred.add(predicted(gold.get(s), cases.get(s)));
        }
        return event(checkpoint, "mind2web", "ep" + episode, "ui", GenerationInputs.newBuilder().setUiActions(pred).build());
    }

    static void publishCheckpoint(String checkpoint) {
        List<List<StepCase>> episodes = EPISODES.get(checkpoint);
        for (int e = 0; e < episodes.size(); e++) {
            h.publish(episodeEvent(checkpoint, e, episodes.get(e)));
        }
        boolean[] clicks = CLICKS.get(checkpoint);
        for (int c = 0; c < clicks.length; c++) {
            double x = clicks[c] ? 130.0 + c : 90.0;
            h.publish(event(checkpoint, "screenspot", "click" + c, "ui", GenerationInputs.newBuilder()
                    .setUiActions(List.of(UiAction.newBuilder().setPoint(List.of(x, 220.0)).build())).build()));
        }
        int[][] trials = TRIALS.get(checkpoint);
        for (int t = 0; t < trials.length; t++) {
            List<RobotTrial> list = new ArrayList<>();
            for (int i = 0; i < trials[t][0]; i++) {
                list.add(RobotTrial.newBuilder().setTrial(i).setSuccess(i < trials[t][1]).build());
            }
            h.publish(event(checkpoint, "libero-spatial", "task" + t, "robot", GenerationInputs.newBuilder().setTrials(list).build()));
        }
    }

    /** Per-episode means of element accuracy, F1 and step success, worked from the case table. */
    static double[] episodeMeans(List<StepCase> cases) {
        double el = 0;
        double f1 = 0;
        double ok = 0;
        for (StepCase c : cases) {
            el += c.elementOk ? 1 : 0;
            f1 += c.f1;
            ok += c.stepOk() ? 1 : 0;
        }
        return new double[] {el / cases.size(), f1 / cases.size(), ok / cases.size(), ok == cases.size() ? 1 : 0};
    }

    static long scored(Map<LeaderboardKey, LeaderboardRow> board, String checkpoint, String task) {
        LeaderboardRow row = board.get(new LeaderboardKey(RUN, checkpoint, task));
        return row == null ? -1 : row.getSamplesScored();
    }

    static int expectedSamples() {
        return 2 * (4 + 5 + 2);
    }

    @Test
    @Order(1)
    void twoCheckpointsAreScoredAndTheirLeaderboardsMatchIndependentValues() {
        publishCheckpoint("ckpt-1000");
        publishCheckpoint("ckpt-2000");

        Map<SampleKey, SampleScore> scores = await(h::scores, s -> s.size() == expectedSamples(), WAIT, "all sample scores");
        for (String ckpt : List.of("ckpt-1000", "ckpt-2000")) {
            List<List<StepCase>> episodes = EPISODES.get(ckpt);
            for (int e = 0; e < episodes.size(); e++) {
                SampleScore s = scores.get(new SampleKey(RUN, ckpt, "mind2web", "ep" + e, 0));
                double[] m = episodeMeans(episodes.get(e));
                assertThat(s.getStatus()).isEqualTo("COMPLETE");
                assertThat(s.getMetrics().get("magma-ui.element_selection_accuracy")).isCloseTo(m[0], within(1e-12));
                assertThat(s.getMetrics().get("magma-ui.operation_f1")).isCloseTo(m[1], within(1e-12));
                assertThat(s.getMetrics().get("magma-ui.step_success_rate")).isCloseTo(m[2], within(1e-12));
                assertThat(s.getMetrics().get("magma-ui.task_success")).isEqualTo(m[3]);
                assertThat(s.getPrimary()).isCloseTo(m[2], within(1e-12));
                assertThat(s.getTrainingStep()).isEqualTo(STEPS.get(ckpt));
            }
            int[][] trials = TRIALS.get(ckpt);
            for (int t = 0; t < trials.length; t++) {
                SampleScore s = scores.get(new SampleKey(RUN, ckpt, "libero-spatial", "task" + t, 0));
                assertThat(s.getPrimary()).isCloseTo((double) trials[t][1] / trials[t][0], within(1e-12));
                assertThat(s.getMetrics().get("robot-trials.trial_count_mismatch")).isEqualTo(trials[t][0] == 50 ? 0.0 : 1.0);
            }
        }

        Map<LeaderboardKey, LeaderboardRow> board = await(h::leaderboard,
                // task rows pass the agreement join, the all-tasks row does not: wait for every row read below
                b -> List.of("ckpt-1000", "ckpt-2000").stream().allMatch(c ->
                        scored(b, c, "*") == 11 && scored(b, c, "mind2web") == 4 && scored(b, c, "screenspot") == 5
                                && scored(b, c, "libero-spatial") == 2),
                WAIT, "leaderboard rows of both checkpoints");
        for (String ckpt : List.of("ckpt-1000", "ckpt-2000")) {
            List<List<StepCase>> episodes = EPISODES.get(ckpt);
            double stepSr = 0;
            double f1 = 0;
            for (List<StepCase> ep : episodes) {
                stepSr += episodeMeans(ep)[2] / episodes.size();
                f1 += episodeMeans(ep)[1] / episodes.size();
            }
            LeaderboardRow m2w = board.get(new LeaderboardKey(RUN, ckpt, "mind2web"));
            assertThat(m2w.getSamplesScored()).isEqualTo(4);
            assertThat(m2w.getSamplesExpected()).isEqualTo(4);
            assertThat(m2w.getPrimaryRate()).isCloseTo(stepSr, within(1e-9));
            assertThat(m2w.getMetrics().get("magma-ui.operation_f1").getMean()).isCloseTo(f1, within(1e-9));

            boolean[] clicks = CLICKS.get(ckpt);
            long hits = 0;
            long textHits = 0;
            long texts = 0;
            for (int c = 0; c < clicks.length; c++) {
                hits += clicks[c] ? 1 : 0;
                if (c % 2 == 0) {
                    texts++;
                    textHits += clicks[c] ? 1 : 0;
                }
            }
            LeaderboardRow ss = board.get(new LeaderboardKey(RUN, ckpt, "screenspot"));
            assertThat(ss.getPrimarySuccesses()).isEqualTo(hits);
            assertThat(ss.getPrimaryRate()).isCloseTo((double) hits / clicks.length, within(1e-12));
            assertThat(ss.getMetrics().get("magma-click.click_correct_text").getMean()).isCloseTo((double) textHits / texts, within(1e-12));
            assertThat(ss.getMetrics().get("magma-click.click_correct_text").getCount()).isEqualTo(texts);

            int[][] trials = TRIALS.get(ckpt);
            double rate = 0;
            for (int[] t : trials) {
                rate += (double) t[1] / t[0] / trials.length;
            }
            LeaderboardRow robot = board.get(new LeaderboardKey(RUN, ckpt, "libero-spatial"));
            assertThat(robot.getPrimaryRate()).isCloseTo(rate, within(1e-12));

            LeaderboardRow all = board.get(new LeaderboardKey(RUN, ckpt, "*"));
            assertThat(all.getSamplesExpected()).isEqualTo(11);
            assertThat(all.getTrainingStep()).isEqualTo(STEPS.get(ckpt));
            assertThat(all.getTaskPrimaryRates().keySet()).containsExactlyInAnyOrder("mind2web", "screenspot", "libero-spatial");
        }
        assertThat(board.get(new LeaderboardKey(RUN, "ckpt-2000", "mind2web")).getPrimaryRate())
                .isGreaterThan(board.get(new LeaderboardKey(RUN, "ckpt-1000", "mind2web")).getPrimaryRate());
    }

    @Test
    @Order(2)
    void aResentSampleReplacesItsContributionInsteadOfAddingToIt() {
        // episode 3 of the first checkpoint had step success 0; its prediction is corrected and sent again
        h.publish(episodeEvent("ckpt-1000", 3, List.of(StepCase.EXACT, StepCase.EXACT, StepCase.EXACT)));
        List<List<StepCase>> episodes = new ArrayList<>(EPISODES.get("ckpt-1000"));
        episodes.set(3, List.of(StepCase.EXACT, StepCase.EXACT, StepCase.EXACT));
        double expected = 0;
        for (List<StepCase> ep : episodes) {
            expected += episodeMeans(ep)[2] / episodes.size();
        }
        double want = expected;
        LeaderboardKey key = new LeaderboardKey(RUN, "ckpt-1000", "mind2web");
        LeaderboardRow row = await(h::leaderboard, b -> Math.abs(b.get(key).getPrimaryRate() - want) < 1e-9, WAIT,
                "the re-scored episode in the leaderboard").get(key);
        assertThat(row.getSamplesScored()).isEqualTo(4);
        assertThat(row.getPrimaryCount()).isEqualTo(4);
        LeaderboardRow all = h.leaderboard().get(new LeaderboardKey(RUN, "ckpt-1000", "*"));
        assertThat(all.getSamplesScored()).isEqualTo(11);
        assertThat(h.scores().get(new SampleKey(RUN, "ckpt-1000", "mind2web", "ep3", 0)).getPrimary()).isEqualTo(1.0);
    }

    @Test
    @Order(3)
    void badRecordsReachTheDeadLetterTopicWithTheirReasonWhileValidSamplesKeepFlowing() {
        byte[] garbage = "definitely not avro".getBytes(StandardCharsets.UTF_8);
        h.publishRaw("junk".getBytes(StandardCharsets.UTF_8), garbage);
        h.publish(event("ckpt-3000", "tetris", "t1", "ui", GenerationInputs.newBuilder().build()));
        h.publish(episodeEvent("ckpt-3000", 99, List.of(StepCase.EXACT)));
        h.publish(episodeEvent("ckpt-3000", 0, List.of(StepCase.EXACT, StepCase.EXACT, StepCase.EXACT)));

        SampleKey valid = new SampleKey(RUN, "ckpt-3000", "mind2web", "ep0", 0);
        await(h::scores, s -> s.containsKey(valid), WAIT, "the valid sample sent after the bad ones");
        List<DeadLetter> letters = await(h::deadLetters, l -> l.size() >= 3, WAIT, "three dead letters");
        assertThat(letters).hasSize(3);
        Map<String, DeadLetter> byReason = new LinkedHashMap<>();
        for (DeadLetter l : letters) {
            byReason.put(l.getReason(), l);
            assertThat(l.getStage()).isEqualTo("intake");
            assertThat(l.getSourceTopic()).isEqualTo("e2e.generations");
        }
        assertThat(byReason.keySet()).anySatisfy(r -> assertThat(r).startsWith("not a readable GenerationEvent"));
        assertThat(byReason.keySet()).anySatisfy(r -> assertThat(r).startsWith("unknown task 'tetris'"));
        assertThat(byReason.keySet()).anySatisfy(r -> assertThat(r).contains("no benchmark item for task 'mind2web', sample 'ep99'"));
        DeadLetter unreadable = letters.stream().filter(l -> l.getReason().startsWith("not a readable")).findFirst().orElseThrow();
        byte[] original = new byte[unreadable.getOriginalValue().remaining()];
        unreadable.getOriginalValue().duplicate().get(original);
        assertThat(original).isEqualTo(garbage);
        assertThat(h.scores().get(valid).getPrimary()).isEqualTo(1.0);
    }

}
