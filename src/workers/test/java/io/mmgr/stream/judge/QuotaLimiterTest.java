package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * The quota limiter on a clock the test moves: every wait it makes advances the clock by that much, so
 * send times are exact and the sliding-window property, the catch-up after a late send and the gate
 * are checked without depending on how fast this machine is.
 */
@Tag("unit")
class QuotaLimiterTest {

    static final long MS = 1_000_000L;
    long now = 1_000 * MS;

    QuotaLimiter limiter(QuotaSettings q) {
        return new QuotaLimiter(q, () -> now, (changed, nanos) -> now += nanos);
    }

    static QuotaSettings perSecond(int n, long marginMs) {
        return QuotaSettings.builder().requests(n, Duration.ofSeconds(1)).margin(Duration.ofMillis(marginMs)).build();
    }

    /** Sends that were all ready at {@code ready}; the one at {@code lateIndex} leaves {@code lateMs} after it was let go. */
    List<Long> sendAll(QuotaLimiter l, int n, long ready, int lateIndex, long lateMs) throws Exception {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            l.admit(ready, 0, Duration.ofMinutes(5), () -> {
                if (k == lateIndex) {
                    now += lateMs * MS; // a thread woken late, a slow hand-over
                }
                times.add(now);
                return now;
            });
        }
        return times;
    }

    static int maxInAnyWindow(List<Long> times, long windowNanos) {
        int best = 0;
        int lo = 0;
        for (int hi = 0; hi < times.size(); hi++) {
            while (times.get(hi) - times.get(lo) >= windowNanos) {
                lo++;
            }
            best = Math.max(best, hi - lo + 1);
        }
        return best;
    }

    @Test
    void atSaturationSendsAreEvenlySpacedAndTheQuotaHoldsInEveryWindow() throws Exception {
        QuotaLimiter l = limiter(perSecond(10, 25));
        List<Long> t = sendAll(l, 100, now, -1, 0);
        for (int i = 1; i < t.size(); i++) {
            assertThat(t.get(i) - t.get(i - 1)).as("gap %d", i).isEqualTo(102_500_000L);
        }
        assertThat(maxInAnyWindow(t, 1_000 * MS)).isEqualTo(10);
        assertThat(maxInAnyWindow(t, 1_025 * MS)).as("held over the window plus the margin").isEqualTo(10);
        // 99 gaps of (1 s + 25 ms) / 10: 97.6 % of the quota, the ceiling the margin leaves
        assertThat(99.0 / ((t.get(99) - t.get(0)) / 1e9) / 10).isCloseTo(0.9756, org.assertj.core.data.Offset.offset(0.0005));
    }

    @Test
    void aLateSendIsMadeUpInsteadOfDelayingEverySendAfterIt() throws Exception {
        List<Long> onTime = sendAll(limiter(perSecond(10, 25)), 100, now, -1, 0);
        now = 1_000 * MS;
        List<Long> late = sendAll(limiter(perSecond(10, 25)), 100, now, 20, 300);
        assertThat(late.get(20) - onTime.get(20)).isEqualTo(300 * MS);
        // the next two leave at once and the 23rd is back on its slot; the sends a window after the late ones wait for
        // them to leave it, so the lateness is never lost again, nor pushed onto the rest: the last send is on time
        assertThat(late.get(21)).isEqualTo(late.get(20));
        assertThat(late.get(22)).isEqualTo(late.get(20));
        assertThat(late.get(23)).isEqualTo(onTime.get(23));
        assertThat(late.get(99)).isEqualTo(onTime.get(99));
        // and still never more than the quota in any window, even while catching up
        assertThat(maxInAnyWindow(late, 1_025 * MS)).isEqualTo(10);
    }

    @Test
    void catchingUpNeverExceedsTheQuotaInAnyWindow() throws Exception {
        // a whole second late: the log lets at most the quota through in any window while making it up
        QuotaLimiter l = limiter(perSecond(10, 25));
        List<Long> t = sendAll(l, 60, now, 15, 1_000);
        assertThat(maxInAnyWindow(t, 1_025 * MS)).isLessThanOrEqualTo(10);
        assertThat(maxInAnyWindow(t, 1_000 * MS)).isLessThanOrEqualTo(10);
    }

    @Test
    void idleTimeIsNotSavedUpIntoABurst() throws Exception {
        QuotaLimiter l = limiter(perSecond(10, 25));
        sendAll(l, 10, now, -1, 0);
        now += 5_000 * MS;
        List<Long> after = sendAll(l, 10, now, -1, 0);
        for (int i = 1; i < after.size(); i++) {
            assertThat(after.get(i) - after.get(i - 1)).isEqualTo(102_500_000L);
        }
    }

    @Test
    void anAnnouncedWaitHoldsEverySendUntilItHasPassed() throws Exception {
        QuotaLimiter l = limiter(perSecond(10, 25));
        sendAll(l, 3, now, -1, 0);
        long announcedAt = now;
        l.holdUntil(announcedAt + 3_700 * MS, "the provider asked to wait 3.7 s (RetryInfo retryDelay)");
        assertThat(l.gateRemaining()).isEqualTo(Duration.ofMillis(3_700));
        List<Long> t = sendAll(l, 5, announcedAt, -1, 0);
        assertThat(t).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(announcedAt + 3_700 * MS));
        // a wait longer than a call may hold a thread: the request waits outside instead
        l.holdUntil(now + 90_000 * MS, "the provider asked to wait 90.0 s (x-ratelimit-reset-tokens)");
        assertThatThrownBy(() -> l.admit(now, 0, Duration.ofSeconds(60), () -> now))
                .isInstanceOfSatisfying(QuotaLimiter.Closed.class, c -> {
                    assertThat(c.getMessage()).contains("90.0 s").contains("x-ratelimit-reset-tokens");
                    assertThat(c.retryIn).isEqualTo(Duration.ofSeconds(90));
                });
    }

    @Test
    void theSharesOfAnySplitOfThePartitionsAddUpToTheQuota() {
        QuotaSettings q = perSecond(10, 0);
        assertThat(List.of(q.requestShare(Set.of(0), 3), q.requestShare(Set.of(1), 3), q.requestShare(Set.of(2), 3)))
                .containsExactly(3, 3, 4);
        assertThat(q.requestShare(Set.of(0, 1), 3) + q.requestShare(Set.of(2), 3)).isEqualTo(10);
        QuotaSettings rpm = QuotaSettings.builder().requests(150, Duration.ofMinutes(1)).tokensPerMinute(2_000_000).build();
        int sum = 0;
        long tokens = 0;
        for (Set<Integer> worker : List.of(Set.of(0, 3, 6), Set.of(1, 4), Set.of(2, 5))) {
            sum += rpm.requestShare(worker, 7);
            tokens += rpm.tokenShare(worker, 7);
        }
        assertThat(sum).isEqualTo(150);
        assertThat(tokens).isEqualTo(2_000_000);
        assertThat(perSecond(2, 0).requestShare(Set.of(0), 3)).as("fewer requests than partitions").isZero();
    }

    @Test
    void aLowerShareAppliesAtOnceAHigherOneOnlyAWindowLater() throws Exception {
        QuotaLimiter l = limiter(perSecond(10, 25));
        l.share(Set.of(0, 1, 2), 3);
        assertThat(l.requestShare()).isEqualTo(10);
        l.share(Set.of(0), 3);
        assertThat(l.requestShare()).isEqualTo(3);
        List<Long> t = sendAll(l, 9, now, -1, 0);
        assertThat(maxInAnyWindow(t, 1_025 * MS)).isEqualTo(3);
        // partitions come back from a worker that left: its sends may still be in the window
        long at = now;
        l.share(Set.of(0, 1, 2), 3);
        assertThat(l.requestShare()).isEqualTo(3);
        now = at + 1_025 * MS;
        assertThat(l.requestShare()).isEqualTo(10);
    }

    @Test
    void aShareOfNothingWaitsOutsideWithTheReason() {
        QuotaLimiter l = limiter(perSecond(2, 25));
        l.share(Set.of(0), 3);
        assertThatThrownBy(() -> l.admit(now, 0, Duration.ofSeconds(60), () -> now))
                .isInstanceOf(QuotaLimiter.Closed.class).hasMessageContaining("share of the judge quota is 0 requests");
    }

    @Test
    void theTokenQuotaHoldsOverAnyMinuteAndCountsWhatAnswersReallyBilled() throws Exception {
        QuotaLimiter l = limiter(QuotaSettings.builder().requests(100, Duration.ofSeconds(1)).tokensPerMinute(1_000)
                .margin(Duration.ofMillis(25)).build());
        long start = now;
        QuotaLimiter.Charge first = l.admit(now, 400, Duration.ofMinutes(5), () -> now);
        l.admit(now, 400, Duration.ofMinutes(5), () -> now);
        long[] third = new long[1];
        l.admit(now, 400, Duration.ofMinutes(5), () -> third[0] = now);
        assertThat(third[0]).isGreaterThanOrEqualTo(start + 60_025 * MS);
        // an answer billed more than estimated: the next send waits for that too
        l.charge(first, 400); // not more: nothing changes
        QuotaLimiter.Charge big = l.admit(now, 100, Duration.ofMinutes(5), () -> now);
        l.charge(big, 900);
        long before = now;
        long[] next = new long[1];
        l.admit(now, 100, Duration.ofMinutes(5), () -> next[0] = now);
        assertThat(next[0]).isGreaterThanOrEqualTo(before + 60_000 * MS);
    }

    @Test
    void manyThreadsOnTheRealClockNeverExceedTheQuotaInAnyWindow() throws Exception {
        // the property, not a speed: whatever the scheduling, the logged send times hold the quota in every window
        QuotaLimiter l = new QuotaLimiter(QuotaSettings.builder().requests(10, Duration.ofMillis(100)).margin(Duration.ZERO).build());
        List<Long> times = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(16);
        List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < 15; i++) {
                    l.admit(System.nanoTime(), 0, Duration.ofMinutes(1), () -> {
                        long at = System.nanoTime();
                        times.add(at);
                        return at;
                    });
                }
                return null;
            }));
        }
        for (var f : done) {
            f.get(2, java.util.concurrent.TimeUnit.MINUTES);
        }
        pool.shutdown();
        List<Long> sorted = new ArrayList<>(times);
        java.util.Collections.sort(sorted);
        assertThat(sorted).hasSize(240);
        assertThat(maxInAnyWindow(sorted, 100 * MS)).isLessThanOrEqualTo(10);
    }
}
