package io.mmgr.stream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The lag timeline a load run prints next to its percentiles. */
@Tag("unit")
class DashboardLatencyProbeTest {

    @Test
    void eachBucketShowsItsWorstLagAndHowManyUpdatesItHad() {
        long start = 1_000_000;
        List<long[]> lags = List.of(
                new long[] {start + 1_000, 300}, new long[] {start + 9_999, 900}, new long[] {start + 5_000, 200},
                new long[] {start + 25_000, 4_000}, // a stall: one tall bucket, 10-20 s had no update at all
                new long[] {start - 50, 100}); // received before the start counts in the first bucket
        assertThat(DashboardLatencyProbe.timeline(lags, start, 10_000))
                .isEqualTo("worst dashboard lag per 10 s of the run (updates): 0-10 s 900 ms (4); 20-30 s 4000 ms (1)");
        assertThat(DashboardLatencyProbe.timeline(List.of(), start, 10_000)).endsWith(": no updates");
    }
}
