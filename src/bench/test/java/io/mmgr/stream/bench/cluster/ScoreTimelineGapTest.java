package io.mmgr.stream.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The gap read around a fault: the longest any partition went without a score, and whether that stall was still
 * running when the window ended (then it is a floor, not the stall).
 */
@Tag("unit")
class ScoreTimelineGapTest {

    private static final long FAULT = 10_000;

    /** A score on {@code partition} every {@code step} ms from {@code from} to {@code to}. */
    private static void every(List<ScoreTimeline.Arrival> into, int partition, long from, long to, long step) {
        for (long t = from; t <= to; t += step) {
            into.add(new ScoreTimeline.Arrival(t, partition, into.size(), t, "maze"));
        }
    }

    @Test
    void aPartitionThatResumedGivesItsStallFromTheFault() {
        List<ScoreTimeline.Arrival> a = new ArrayList<>();
        every(a, 0, 8_000, 60_000, 1_000);
        every(a, 1, 9_500, 9_500, 1);
        every(a, 1, 45_000, 60_000, 1_000);
        ScoreTimeline.Gap gap = ScoreTimeline.gap(a, 2, FAULT, 60_000);
        assertThat(gap.partition()).isEqualTo(1);
        assertThat(gap.stallMillis()).isEqualTo(35_000);
        assertThat(gap.open()).isFalse();
        assertThat(gap.lastBefore()).isEqualTo(9_500);
        assertThat(gap.firstAfter()).isEqualTo(10_000);
        assertThat(gap.stallFrom()).isEqualTo(FAULT);
        assertThat(gap.describe()).contains("longest partition stall 35.0 s (p1, from +0.0 s)").doesNotContain("at least");
    }

    @Test
    void aPartitionStillSilentAtTheWindowsEndIsAFloor() {
        List<ScoreTimeline.Arrival> a = new ArrayList<>();
        every(a, 0, 8_000, 50_000, 1_000);
        every(a, 1, 9_500, 9_500, 1);
        ScoreTimeline.Gap gap = ScoreTimeline.gap(a, 2, FAULT, 50_000);
        assertThat(gap.partition()).isEqualTo(1);
        assertThat(gap.stallMillis()).isEqualTo(40_000);
        assertThat(gap.open()).isTrue();
        assertThat(gap.describe()).contains("at least 40.0 s (p1, from +0.0 s, no score yet at the window's end)");
    }

    @Test
    void steadyScoringLeavesNothingOpen() {
        List<ScoreTimeline.Arrival> a = new ArrayList<>();
        every(a, 0, 8_000, 40_000, 500);
        every(a, 1, 8_250, 39_750, 500);
        every(a, 2, 8_000, 20_000, 500); // a partition whose task's samples stopped coming is still told apart
        ScoreTimeline.Gap steady = ScoreTimeline.gap(a.stream().filter(x -> x.partition() < 2).toList(), 3, FAULT, 40_000);
        assertThat(steady.stallMillis()).isLessThanOrEqualTo(500);
        assertThat(steady.open()).isFalse();
        ScoreTimeline.Gap withSilent = ScoreTimeline.gap(a, 3, FAULT, 40_000);
        assertThat(withSilent.partition()).isEqualTo(2);
        assertThat(withSilent.stallMillis()).isEqualTo(20_000);
        assertThat(withSilent.open()).isTrue();
        assertThat(withSilent.stallFrom()).as("its last score").isEqualTo(20_000);
    }

    @Test
    void aStallThatBeganAfterTheFaultSaysWhen() {
        // scoring went on after the fault (an added scorer still starting), then stopped for 15 s (its rebalance)
        List<ScoreTimeline.Arrival> a = new ArrayList<>();
        every(a, 0, 8_000, 60_000, 1_000);
        every(a, 1, 8_000, 22_000, 1_000);
        every(a, 1, 37_000, 60_000, 1_000);
        ScoreTimeline.Gap gap = ScoreTimeline.gap(a, 2, FAULT, 60_000);
        assertThat(gap.partition()).isEqualTo(1);
        assertThat(gap.stallMillis()).isEqualTo(15_000);
        assertThat(gap.stallFrom()).isEqualTo(22_000);
        assertThat(gap.describe()).contains("longest partition stall 15.0 s (p1, from +12.0 s)");
    }

    @Test
    void aPartitionWhoseLastScoreCameJustBeforeTheFaultIsSilentOnceTheFaultIsOver() {
        // the watch after a scorer's kill asks, 2 s after it, which partitions have not scored since the fault ended:
        // p1's last score 0.5 s before the kill is recent, but not after the fault, so p1 is still silent
        List<ScoreTimeline.Arrival> a = new ArrayList<>();
        every(a, 0, 8_000, 12_000, 250);
        every(a, 1, 8_000, 9_500, 250);
        long faultOver = FAULT + 300;
        long now = FAULT + 2_300;
        assertThat(ScoreTimeline.silent(a, faultOver, now, ClusterRun.QUIET, null)).isEqualTo(1);
        // read against the last 3 s alone, as the watch did before, p1 counted as scoring
        assertThat(ScoreTimeline.silent(a, 0, now, ClusterRun.QUIET, null)).isZero();
        // a task's own scores apart: p0's one math score came before the fault, its maze scores go on after it
        a.add(new ScoreTimeline.Arrival(8_500, 0, a.size(), 8_500, "math"));
        assertThat(ScoreTimeline.silent(a, faultOver, now, ClusterRun.QUIET, "math")).isEqualTo(1);
        assertThat(ScoreTimeline.silent(a, faultOver, now, ClusterRun.QUIET, "maze")).isEqualTo(1); // p1
        // once p1 scores after the fault's end, no partition's maze scores are silent
        every(a, 1, 12_000, 12_000, 1);
        assertThat(ScoreTimeline.silent(a, faultOver, 12_500, ClusterRun.QUIET, "maze")).isZero();
    }
}
