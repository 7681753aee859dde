package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.bench.MemoryBatchLog;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.judge.batch.BatchLane;
import io.mmgr.stream.judge.batch.BatchProtocols;
import io.mmgr.stream.judge.batch.BatchSettings;
import io.mmgr.stream.judge.batch.LaneChooser;
import io.mmgr.stream.judge.batch.LaneMode;
import io.mmgr.stream.judge.batch.LaneRouter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code auto} binds a burst at intake: while the worker's pool waits for the quota, the requests past the realtime room
 * ({@code share * target / window}) are in the batch lane's queue at once, exactly the room goes realtime, and requests
 * the verdict cache answers take neither realtime room nor a batch line. Binding on the pool instead (before this
 * intake) sent the whole burst realtime: the realtime backlog never held more than the pool's threads.
 */
@Tag("unit")
class LaneIntakeTest {

    /** 2 requests a second and a 2 s target: a realtime room of 4, served in about 2 s. */
    static final int QUOTA = 2;
    static final Duration TARGET = Duration.ofSeconds(2);
    static final int BURST = 20;

    @TempDir
    Path dir;
    ScriptedVlmServer server;
    VerdictCache cache;
    JudgeEngine engine;
    BatchLane lane;
    LaneIntake intake;
    /** as the worker's pool: concurrency (1) + 2 threads, which wait for the quota */
    final ExecutorService pool = Executors.newFixedThreadPool(3);
    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    final ExecutorService reader = Executors.newSingleThreadExecutor();
    final Map<String, JudgeEngine.Outcome> outcomes = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        JudgeSettings s = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "jm").apiKeyEnv("KEY")
                .quota(q -> q.requests(QUOTA, Duration.ofSeconds(1))).concurrency(1).timeout(Duration.ofSeconds(5))
                // one attempt per try; the longest backoff is also the longest a call waits for the quota in its thread
                .retry(r -> r.maxAttempts(1).backoff(Duration.ofMillis(50), Duration.ofSeconds(5))).build();
        cache = VerdictCache.open(dir.resolve("cache"));
        engine = JudgeRuntime.engine(s, JudgeRuntime.client(s, Map.of("KEY", "sk-intake")),
                new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")), cache,
                JudgeMetrics.standalone());
        // no batch is submitted here (an hour's wait, a thousand requests): the queue is what is looked at
        lane = new BatchLane(new BatchSettings(LaneMode.AUTO, 1000, Duration.ofHours(1), Duration.ofMillis(50), TARGET),
                BatchProtocols.of(JudgeRuntime.client(s, Map.of("KEY", "sk-intake")), Duration.ofSeconds(5), reader),
                new MemoryBatchLog(), timer, Clock.systemUTC(), "w1", engine.resilience()::requestShare, s.quota().window());
        lane.start();
        intake = new LaneIntake(engine, pool);
    }

    @AfterEach
    void stop() {
        intake.close();
        pool.shutdownNow();
        timer.shutdownNow();
        reader.shutdownNow();
        lane.close();
        cache.close();
        server.close();
    }

    /** One try of the request through the intake, as the worker makes it; a verdict releases its binding. */
    void submit(JudgeRequest r) {
        submit(r, new LaneIntake.Ticket(() -> true));
    }

    void submit(JudgeRequest r, LaneIntake.Ticket ticket) {
        intake.submit(r, ticket, () -> {
            JudgeEngine.Outcome o = engine.judge(r, new JudgeEngine.Tries());
            if (o instanceof JudgeEngine.Outcome.Done) {
                intake.release(ticket);
            }
            outcomes.put(r.getRequestId(), o);
        });
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 20 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void aBurstPastTheRoomIsBatchedAtOnceAndCacheHitsTakeNoRoom() throws Exception {
        // two prompts judged before (realtime, the engine's default lane): their burst copies are cache hits
        List<JudgeRequest> earlier = List.of(JudgeFixtures.mathText("run-0", "hit-0", "x = 4"),
                JudgeFixtures.mathText("run-0", "hit-1", "x = 4"));
        for (JudgeRequest r : earlier) {
            assertThat(engine.judge(r)).isInstanceOf(JudgeEngine.Outcome.Done.class);
        }
        int before = server.requestCount();
        assertThat(before).isEqualTo(2);
        engine.lane(lane);
        await(() -> lane.bind("probe") != LaneRouter.Bound.UNDECIDED, "the lane started");
        lane.release("probe");

        List<JudgeRequest> burst = new ArrayList<>();
        earlier.forEach(r -> burst.add(JudgeFixtures.mathText("run-1", r.getItem().getSampleId(), "x = 4")));
        for (int i = 0; i < BURST; i++) {
            burst.add(JudgeFixtures.mathText("run-1", "miss-" + i, "x = " + i));
        }
        burst.forEach(this::submit);

        long room = LaneChooser.realtimeRoom(QUOTA, Duration.ofSeconds(1), TARGET);
        assertThat(room).isEqualTo(4);
        await(() -> outcomes.size() == burst.size(), "a first try of every request");
        assertThat(lane.queued()).as("past the room: in the batch queue").isEqualTo(BURST - room);
        assertThat(server.requestCount() - before).as("realtime: the room, no more").isEqualTo(room);
        assertThat(lane.realtimeBacklog()).as("every realtime request answered and released").isZero();
        for (JudgeRequest r : burst.subList(0, 2)) {
            assertThat(outcomes.get(r.getRequestId())).isInstanceOfSatisfying(JudgeEngine.Outcome.Done.class,
                    d -> assertThat(d.verdict().getCachedFrom()).isNotNull());
        }
        assertThat(outcomes.values()).filteredOn(o -> o instanceof JudgeEngine.Outcome.Wait w
                && w.resume() == JudgeEngine.Resume.BATCH && w.reason().startsWith("waiting for a batch")).hasSize(BURST - (int) room);
    }

    @Test
    void whileTheCacheLoadsNothingIsBoundAndARealtimeRetryHoldsItsRoomUntilItsRequestLeaves() throws Exception {
        engine.lane(lane);
        await(() -> lane.bind("probe") != LaneRouter.Bound.UNDECIDED, "the lane started");
        lane.release("probe");
        cache.loading();
        JudgeRequest r = JudgeFixtures.mathText("run-2", "retried", "x = 4");
        AtomicBoolean owned = new AtomicBoolean(true);
        LaneIntake.Ticket ticket = new LaneIntake.Ticket(owned::get);
        submit(r, ticket);
        await(() -> outcomes.containsKey(r.getRequestId()), "its try");
        assertThat(outcomes.remove(r.getRequestId())).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class,
                w -> assertThat(w.resume()).isEqualTo(JudgeEngine.Resume.CACHE));
        assertThat(lane.realtimeBacklog()).as("a miss may be an entry not read yet: not bound").isZero();
        assertThat(lane.queued()).isZero();

        cache.loaded();
        server.script(e -> Action.of(ScriptedVlmServer.Kind.SERVER_ERROR));
        submit(r, ticket);
        await(() -> outcomes.containsKey(r.getRequestId()), "its second try");
        assertThat(outcomes.get(r.getRequestId())).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class,
                w -> assertThat(w.resume()).isEqualTo(JudgeEngine.Resume.BACKOFF));
        assertThat(server.requestCount()).isEqualTo(1);
        String key = engine.cacheKey(r).orElseThrow();
        assertThat(lane.realtimeBacklog()).as("its retry still counts").isEqualTo(1);
        assertThat(lane.bind(key)).as("and stays realtime").isEqualTo(LaneRouter.Bound.REALTIME);
        // its partition went to another worker before the retry: the rebalance's sweep ends the binding
        owned.set(false);
        intake.sweep();
        assertThat(lane.realtimeBacklog()).isZero();
    }
}
