package io.mmgr.stream.evaluate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The pool's deadlines with work that ignores interrupts, as native decoders do: the task fails at its
 * deadline, the work behind it goes on on a fresh thread, and the stuck threads are bounded.
 */
@Tag("unit")
class EvaluationPoolTest {

    final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    final EvaluatorRegistry none = new EvaluatorRegistry(Map.of());

    @AfterEach
    void stop() {
        watchdog.shutdownNow();
    }

    /** Runs until released, swallowing interrupts the way code inside FFmpeg or Tesseract does. */
    static final class Unstoppable implements EvaluationPool.Task {
        final AtomicBoolean release = new AtomicBoolean();
        final AtomicInteger interrupts = new AtomicInteger();
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch returned = new CountDownLatch(1);
        final List<Duration> expired = new CopyOnWriteArrayList<>();

        @Override
        public boolean live() {
            return true;
        }

        @Override
        public void run(EvaluationPool.Runner runner) {
            started.countDown();
            while (!release.get()) {
                LockSupport.parkNanos(2_000_000);
                if (Thread.interrupted()) {
                    interrupts.incrementAndGet();
                }
            }
            returned.countDown();
        }

        @Override
        public void expired(Duration deadline) {
            expired.add(deadline);
        }
    }

    /** Finishes at once; counts down when it ran. */
    static EvaluationPool.Task quick(CountDownLatch done, List<String> log, String name) {
        return new EvaluationPool.Task() {
            @Override
            public boolean live() {
                return true;
            }

            @Override
            public void run(EvaluationPool.Runner runner) {
                log.add(name + " on " + Thread.currentThread().getName());
                done.countDown();
            }

            @Override
            public void expired(Duration deadline) {
                log.add(name + " expired");
            }
        };
    }

    @Test
    void aTaskPastItsDeadlineFailsAndTheOnesBehindItRunOnAReplacementThread() throws Exception {
        Duration deadline = Duration.ofMillis(300);
        EvaluationPool pool = new EvaluationPool(CostClass.VIDEO, 1, deadline, 1, 0, none, watchdog);
        try {
            Unstoppable stuck = new Unstoppable();
            List<String> log = new CopyOnWriteArrayList<>();
            CountDownLatch behind = new CountDownLatch(3);
            pool.submit(stuck);
            for (int i = 0; i < 3; i++) {
                pool.submit(quick(behind, log, "task-" + i));
            }
            assertThat(stuck.started.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(behind.await(60, TimeUnit.SECONDS)).as("the tasks queued behind the stuck one ran").isTrue();
            assertThat(stuck.expired).containsExactly(deadline);
            assertThat(stuck.returned.getCount()).as("the stuck task is still inside its work").isEqualTo(1);
            assertThat(stuck.interrupts.get()).as("its thread was interrupted").isPositive();
            assertThat(log).allSatisfy(l -> assertThat(l).doesNotContain("expired").endsWith("video-2"));
            assertThat(pool.stuckThreads()).isEqualTo(1);
            assertThat(pool.expired()).isEqualTo(1);

            stuck.release.set(true);
            assertThat(stuck.returned.await(30, TimeUnit.SECONDS)).isTrue();
            waitFor(() -> pool.stuckThreads() == 0);
            assertThat(pool.backlog()).isZero();
            // capacity is back to one runner: one more task runs
            CountDownLatch more = new CountDownLatch(1);
            pool.submit(quick(more, log, "after"));
            assertThat(more.await(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.close();
        }
    }

    @Test
    void beyondItsBoundStuckThreadsAreNotReplacedAndTheClassRunsOnFewerThreads() throws Exception {
        EvaluationPool pool = new EvaluationPool(CostClass.VIDEO, 1, Duration.ofMillis(200), 1, 0, none, watchdog);
        try {
            Unstoppable first = new Unstoppable();
            Unstoppable second = new Unstoppable();
            List<String> log = new CopyOnWriteArrayList<>();
            CountDownLatch third = new CountDownLatch(1);
            pool.submit(first);
            pool.submit(second);
            pool.submit(quick(third, log, "third"));
            assertThat(second.started.await(60, TimeUnit.SECONDS)).as("the first was replaced").isTrue();
            waitFor(() -> second.expired.size() == 1);
            assertThat(pool.stuckThreads()).isEqualTo(2);
            // two stuck and a bound of one: no runner is left, the third waits
            assertThat(third.await(1, TimeUnit.SECONDS)).isFalse();
            assertThat(pool.backlog()).isEqualTo(1);

            first.release.set(true);
            assertThat(third.await(60, TimeUnit.SECONDS)).as("a runner is started when a stuck thread returns").isTrue();
            second.release.set(true);
            waitFor(() -> pool.stuckThreads() == 0);
            assertThat(first.expired).hasSize(1);
            // runners 1 and 2 were abandoned; the third ran on the one started when the first returned
            assertThat(log).containsExactly("third on evaluate-video-3");
        } finally {
            pool.close();
        }
    }

    @Test
    void heavierClassesRunAtALowerCpuPriority() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(java.nio.file.Path.of("/proc/thread-self")),
                "Linux only");
        int base = ThreadNiceness.current();
        org.junit.jupiter.api.Assumptions.assumeTrue(base <= 15, "room to lower the priority");
        EvaluationPool pool = new EvaluationPool(CostClass.IMAGE, 1, Duration.ofMinutes(1), 1, 4, none, watchdog);
        try {
            AtomicInteger seen = new AtomicInteger(-100);
            CountDownLatch ran = new CountDownLatch(1);
            pool.submit(new EvaluationPool.Task() {
                @Override
                public boolean live() {
                    return true;
                }

                @Override
                public void run(EvaluationPool.Runner runner) {
                    try {
                        seen.set(ThreadNiceness.current());
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    ran.countDown();
                }

                @Override
                public void expired(Duration deadline) {
                }
            });
            assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(seen.get()).as("the runner's nice value").isEqualTo(base + 4);
            assertThat(ThreadNiceness.current()).as("this thread's is unchanged").isEqualTo(base);
        } finally {
            pool.close();
        }
    }

    static void waitFor(java.util.function.BooleanSupplier condition) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInSameThread().pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
    }
}
