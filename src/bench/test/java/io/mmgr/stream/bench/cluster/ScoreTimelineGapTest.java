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
        assertThat(gap.describe()).contains("longest partition stall 35.0 s (p1)").doesNotContain("at least");
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
        assertThat(gap.describe()).contains("at least 40.0 s (p1, no score yet at the window's end)");
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
    }
}
