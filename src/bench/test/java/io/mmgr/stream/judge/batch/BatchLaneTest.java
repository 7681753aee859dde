package io.mmgr.stream.judge.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.bench.MemoryBatchLog;
import io.mmgr.stream.bench.OpenAiBatches;
import io.mmgr.stream.bench.OpenAiBatches.Plan;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.StructuredOutput;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The batch lane over OpenAI's scripted Batch API and an in-memory batches log (the topic's compaction: the latest
 * record per local id): requests wait for a batch, wait in it, and take the answer the script implies; a restart
 * takes the open batch over instead of submitting it again, finds a batch whose create call it never recorded, and
 * submits again what the provider never saw; entries without an answer and a refused creation go back to the queue.
 * Nothing is submitted or billed twice.
 */
@Tag("unit")
class BatchLaneTest {

    static final String MODEL = "gpt-4.1";
    static final Duration POLL = Duration.ofMillis(40);

    ScriptedVlmServer server;
    OpenAiBatches provider;
    ProviderClient client;
    MemoryBatchLog log = new MemoryBatchLog();
    List<ScheduledExecutorService> timers = new ArrayList<>();
    ExecutorService reader = Executors.newSingleThreadExecutor();

    @BeforeEach
    void start() throws Exception {
        // every metric scores the digit the case marker ends with
        server = ScriptedVlmServer.start(x -> Action.ok(Duration.ZERO,
                Map.of("final_correctness", x.caseName().endsWith("0") ? 0.0 : 1.0)));
        provider = server.openAiBatches();
        client = JudgeRuntime.client(JudgeSettings.builder(JudgeProtocol.OPENAI, URI.create(server.openAiBaseUrl()), MODEL)
                .apiKeyEnv("SCRIPTED_KEY").structuredOutput(StructuredOutput.JSON_SCHEMA).timeout(Duration.ofSeconds(15)).build(),
                Map.of("SCRIPTED_KEY", "sk-test"));
    }

    @AfterEach
    void stop() {
        timers.forEach(ScheduledExecutorService::shutdownNow);
        reader.shutdownNow();
        server.close();
    }

    BatchLane lane(LaneMode mode, int maxRequests, int share) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        timers.add(timer);
        BatchLane lane = new BatchLane(new BatchSettings(mode, maxRequests, Duration.ofHours(1), POLL, Duration.ofSeconds(1)),
                BatchProtocols.of(client, Duration.ofSeconds(15), reader), log, timer, Clock.systemUTC(), "w1", () -> share,
                Duration.ofSeconds(1));
        lane.start();
        return lane;
    }

    static ProviderCall call(String caseName) {
        return new ProviderCall(MODEL, "Grade it.", List.of(new ProviderCall.Text("case=" + caseName + " grade")),
                Map.of("type", "object", "properties", Map.of("final_correctness", Map.of("type", "object"))),
                ModelProfile.forModel(JudgeProtocol.OPENAI, MODEL));
    }

    /** Asks until the route is not a wait (as the worker does each time the request is woken), within 20 s. */
    static LaneRouter.Route settle(BatchLane lane, String key) throws InterruptedException {
        return until(() -> {
            LaneRouter.Route r = lane.route(key, call(key));
            return r instanceof LaneRouter.Waiting ? null : r;
        });
    }

    static <T> T until(Supplier<T> what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < end) {
            T t = what.get();
            if (t != null) {
                return t;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("not within 20 s");
    }

    static void assertAnswer(LaneRouter.Route r, int score) {
        assertThat(r).isInstanceOf(LaneRouter.Answer.class);
        assertThat(((LaneRouter.Answer) r).reply().text()).contains("\"score\":" + score);
    }

    @Test
    void requestsWaitForABatchThenInItAndTakeTheirAnswers() throws Exception {
        BatchLane lane = lane(LaneMode.BATCH, 4, 0);
        List<String> keys = List.of("k1s1", "k2s0", "k3s1", "k4s0");
        String first = until(() -> lane.route("k1s1", call("k1s1")) instanceof LaneRouter.Waiting w
                && !w.reason().equals(BatchLane.STARTING) ? w.reason() : null);
        assertThat(first).startsWith("waiting for a batch");
        for (String k : keys.subList(1, 3)) {
            assertThat(lane.route(k, call(k))).isInstanceOf(LaneRouter.Waiting.class)
                    .extracting(r -> ((LaneRouter.Waiting) r).reason()).asString().startsWith("waiting for a batch");
        }
        lane.route("k4s0", call("k4s0")); // the fourth: the batch goes
        lane.route("k5s1", call("k5s1")); // waits for the next one
        String inBatch = until(() -> lane.route("k1s1", call("k1s1")) instanceof LaneRouter.Waiting w
                && w.reason().startsWith("in batch batch_") ? w.reason() : null);
        assertThat(inBatch).isEqualTo("in batch " + provider.batchIds().get(0));
        assertAnswer(settle(lane, "k1s1"), 1);
        assertAnswer(settle(lane, "k2s0"), 0);
        assertAnswer(settle(lane, "k3s1"), 1);
        assertAnswer(settle(lane, "k4s0"), 0);
        assertThat(lane.queued()).isEqualTo(1);
        until(() -> lane.openBatches() == 0 ? true : null);
        // ENDED is written on the lane's timer after the last answer is taken: wait for that write, not only the count
        until(() -> log.states().contains(BatchRecord.State.ENDED) ? true : null);
        assertThat(log.states()).containsExactly(BatchRecord.State.SUBMITTING, BatchRecord.State.SUBMITTED, BatchRecord.State.ENDED);
        assertThat(log.writes().get(0).requests()).hasSize(4).allSatisfy((customId, key) -> {
            assertThat(CustomIds.valid(customId)).isTrue();
            assertThat(customId).isEqualTo(CustomIds.of(key));
        });
        assertThat(provider.batchesCreated()).isEqualTo(1);
        assertThat(provider.billed().values()).hasSize(4).containsOnly(1);
    }

    @Test
    void aRestartTakesTheOpenBatchOverInsteadOfSubmittingItAgain() throws Exception {
        provider.plan(n -> Plan.completeAfter(Duration.ofMillis(800)));
        BatchLane first = lane(LaneMode.BATCH, 3, 0);
        List<String> keys = List.of("r1s1", "r2s0", "r3s1");
        until(() -> first.route("r1s1", call("r1s1")) instanceof LaneRouter.Waiting w && !w.reason().equals(BatchLane.STARTING)
                ? true : null);
        first.route("r2s0", call("r2s0"));
        first.route("r3s1", call("r3s1"));
        until(() -> log.states().contains(BatchRecord.State.SUBMITTED) ? true : null);
        timers.get(0).shutdownNow(); // the worker dies (its memory with it); the log and the provider remain

        BatchLane second = lane(LaneMode.BATCH, 3, 0);
        String reason = until(() -> second.route("r2s0", call("r2s0")) instanceof LaneRouter.Waiting w
                && !w.reason().equals(BatchLane.STARTING) ? w.reason() : null);
        assertThat(reason).isEqualTo("in batch " + provider.batchIds().get(0));
        for (String k : keys) {
            assertAnswer(settle(second, k), k.endsWith("0") ? 0 : 1);
        }
        assertThat(provider.batchesCreated()).isEqualTo(1);
        assertThat(provider.submitted().values()).hasSize(3).containsOnly(1);
        assertThat(provider.billed().values()).hasSize(3).containsOnly(1);
    }

    @Test
    void aBatchCreatedButNeverRecordedAsSubmittedIsFoundNotCreatedAgain() throws Exception {
        BatchProtocol protocol = BatchProtocols.of(client, Duration.ofSeconds(15), reader);
        Map<String, String> requests = Map.of(CustomIds.of("f1s1"), "f1s1", CustomIds.of("f2s0"), "f2s0");
        BatchRecord submitting = new BatchRecord("w0-crashed", BatchRecord.State.SUBMITTING, null, "openai", Instant.now(),
                requests, "");
        log.append(submitting);
        // the crash came after the create call and before SUBMITTED was written
        protocol.create("w0-crashed", List.of(protocol.line(CustomIds.of("f1s1"), call("f1s1")),
                protocol.line(CustomIds.of("f2s0"), call("f2s0")))).get(10, TimeUnit.SECONDS);

        BatchLane lane = lane(LaneMode.BATCH, 10, 0);
        assertAnswer(settle(lane, "f1s1"), 1);
        assertAnswer(settle(lane, "f2s0"), 0);
        assertThat(log.latest("w0-crashed").providerId()).isEqualTo(provider.batchIds().get(0));
        assertThat(provider.batchesCreated()).isEqualTo(1);
        assertThat(provider.billed().values()).hasSize(2).containsOnly(1);
    }

    @Test
    void aSubmittingBatchTheProviderNeverSawIsSubmittedAgainWhenAskedFor() throws Exception {
        log.append(new BatchRecord("w0-lost", BatchRecord.State.SUBMITTING, null, "openai", Instant.now(),
                Map.of(CustomIds.of("g1s1"), "g1s1"), ""));
        BatchLane lane = lane(LaneMode.BATCH, 1, 0);
        until(() -> log.latest("w0-lost").state() == BatchRecord.State.ENDED ? true : null);
        assertThat(log.latest("w0-lost").note()).contains("never created");
        assertAnswer(settle(lane, "g1s1"), 1);
        assertThat(provider.batchesCreated()).isEqualTo(1);
        assertThat(provider.billed()).containsExactly(Map.entry(CustomIds.of("g1s1"), 1));
    }

    @Test
    void expiredEntriesAndARefusedCreationGoBackToTheQueueAndAreBilledOnce() throws Exception {
        provider.plan(n -> n == 0 ? Plan.expireAfter(Duration.ZERO, 1) : Plan.completeAfter(Duration.ZERO));
        provider.refuseCreations(1);
        BatchLane lane = lane(LaneMode.BATCH, 2, 0);
        until(() -> lane.route("e1s1", call("e1s1")) instanceof LaneRouter.Waiting w && !w.reason().equals(BatchLane.STARTING)
                ? true : null);
        lane.route("e2s0", call("e2s0"));
        // the 429 on creation: both go back, once each
        assertThat(settle(lane, "e1s1")).isInstanceOf(LaneRouter.Again.class);
        assertThat(((LaneRouter.Again) settle(lane, "e2s0")).reason()).contains("creating the batch failed");
        // asked again: a new batch, which expires after running the first line
        lane.route("e1s1", call("e1s1"));
        lane.route("e2s0", call("e2s0"));
        Map<String, LaneRouter.Route> firstRound = Map.of("e1s1", settle(lane, "e1s1"), "e2s0", settle(lane, "e2s0"));
        assertThat(firstRound.values()).filteredOn(r -> r instanceof LaneRouter.Answer).hasSize(1);
        String again = firstRound.entrySet().stream().filter(e -> e.getValue() instanceof LaneRouter.Again).map(Map.Entry::getKey)
                .findFirst().orElseThrow();
        assertThat(((LaneRouter.Again) firstRound.get(again)).reason()).contains("expired");
        // the expired one is asked for again (with another request, so that a batch of two fills) and answered
        lane.route(again, call(again));
        lane.route("e3s1", call("e3s1"));
        assertAnswer(settle(lane, again), again.endsWith("0") ? 0 : 1);
        assertThat(provider.refusedCreations()).isEqualTo(1);
        assertThat(provider.billed().values()).containsOnly(1);
        assertThat(provider.billed()).containsKeys(CustomIds.of("e1s1"), CustomIds.of("e2s0"));
    }

    @Test
    void autoSendsRealtimeWhatTheShareServesWithinTheTargetAndBatchesTheRest() throws Exception {
        // 2 requests a second, a 1 s target: two realtime at a time
        BatchLane lane = lane(LaneMode.AUTO, 100, 2);
        until(() -> lane.route("a0", call("a0")) == LaneRouter.Route.REALTIME ? true : null);
        assertThat(lane.route("a1", call("a1"))).isEqualTo(LaneRouter.Route.REALTIME);
        assertThat(lane.route("a2", call("a2"))).isInstanceOf(LaneRouter.Waiting.class);
        assertThat(lane.route("a2", call("a2"))).as("queued for a batch, it stays in the batch lane")
                .isInstanceOf(LaneRouter.Waiting.class);
        // a1 waits for the quota or a retry: still realtime backlog, and still realtime when asked again
        assertThat(lane.route("a1", call("a1"))).isEqualTo(LaneRouter.Route.REALTIME);
        assertThat(lane.route("a3", call("a3"))).as("two realtime requests not yet answered fill the room")
                .isInstanceOf(LaneRouter.Waiting.class);
        lane.realtimeDone("a1");
        assertThat(lane.route("a4", call("a4"))).isEqualTo(LaneRouter.Route.REALTIME);
        assertThat(lane.queued()).isEqualTo(2);
    }
    @Test
    void autoBindsAtIntakeOncePerKeyAndABatchedRequestStaysBatched() throws Exception {
        // the first batch runs one line and expires the other; 2 requests a second for a 1 s target: a room of two
        provider.plan(n -> n == 0 ? Plan.expireAfter(Duration.ZERO, 1) : Plan.completeAfter(Duration.ZERO));
        BatchLane lane = lane(LaneMode.AUTO, 2, 2);
        assertThat(lane.bindsAtIntake()).isTrue();
        until(() -> lane.bind("b0s1") != LaneRouter.Bound.UNDECIDED ? true : null);
        assertThat(lane.bind("b0s1")).isEqualTo(LaneRouter.Bound.REALTIME);
        assertThat(lane.bind("b1s1")).isEqualTo(LaneRouter.Bound.REALTIME);
        // bound, not yet routed (queued in the worker's pool): the room is full all the same
        assertThat(lane.bind("b2s0")).isEqualTo(LaneRouter.Bound.BATCH);
        assertThat(lane.bind("b3s1")).isEqualTo(LaneRouter.Bound.BATCH);
        assertThat(lane.realtimeBacklog()).isEqualTo(2);
        assertThat(lane.queued()).as("bound, but its call is not built yet").isZero();
        // bound again on a retry: the same lane
        assertThat(lane.bind("b1s1")).isEqualTo(LaneRouter.Bound.REALTIME);
        assertThat(lane.bind("b2s0")).isEqualTo(LaneRouter.Bound.BATCH);
        assertThat(lane.route("b1s1", call("b1s1"))).isEqualTo(LaneRouter.Route.REALTIME);
        // the worker let both realtime requests go: room again, yet the batch-bound keys stay batched
        lane.release("b0s1");
        lane.realtimeDone("b1s1");
        assertThat(lane.realtimeBacklog()).isZero();
        assertThat(lane.route("b2s0", call("b2s0"))).isInstanceOf(LaneRouter.Waiting.class);
        assertThat(lane.route("b3s1", call("b3s1"))).isInstanceOf(LaneRouter.Waiting.class);
        Map<String, LaneRouter.Route> first = Map.of("b2s0", settle(lane, "b2s0"), "b3s1", settle(lane, "b3s1"));
        String expired = first.entrySet().stream().filter(e -> e.getValue() instanceof LaneRouter.Again).map(Map.Entry::getKey)
                .findFirst().orElseThrow();
        assertThat(first.values()).filteredOn(r -> r instanceof LaneRouter.Answer).hasSize(1);
        // the expired request goes back to the batch lane though the realtime room is empty: never billed in both lanes
        assertThat(lane.bind(expired)).isEqualTo(LaneRouter.Bound.BATCH);
        assertThat(lane.route(expired, call(expired))).isInstanceOf(LaneRouter.Waiting.class);
        assertThat(lane.queued()).isEqualTo(1);
        assertThat(lane.bind("b4s1")).as("a new key takes the free room").isEqualTo(LaneRouter.Bound.REALTIME);
        assertThat(lane.route("b5s1", call("b5s1"))).as("unbound (an engine without a worker): decided on its route")
                .isEqualTo(LaneRouter.Route.REALTIME);
        assertThat(lane.realtimeBacklog()).isEqualTo(2);
        assertThat(lane.route("b6s1", call("b6s1"))).isInstanceOf(LaneRouter.Waiting.class); // fills the second batch
        assertAnswer(settle(lane, expired), expired.endsWith("0") ? 0 : 1);
        assertThat(provider.billed().values()).containsOnly(1);
        assertThat(provider.billed()).containsOnlyKeys(CustomIds.of("b2s0"), CustomIds.of("b3s1"), CustomIds.of("b6s1"));
    }

    @Test
    void autoLeavesAKeyUnboundUntilTheOpenBatchesAreReadAndKeepsOneInAnOpenBatchThere() throws Exception {
        provider.plan(n -> Plan.completeAfter(Duration.ofSeconds(30)));
        BatchLane first = lane(LaneMode.BATCH, 1, 0);
        until(() -> first.route("o1s1", call("o1s1")) instanceof LaneRouter.Waiting w && !w.reason().equals(BatchLane.STARTING)
                ? true : null);
        until(() -> log.states().contains(BatchRecord.State.SUBMITTED) ? true : null);
        timers.get(0).shutdownNow(); // the worker dies; its batch stays open at the provider and in the log

        ScheduledExecutorService held = Executors.newSingleThreadScheduledExecutor();
        timers.add(held);
        CountDownLatch reading = new CountDownLatch(1);
        held.execute(() -> {
            try {
                reading.await(); // the lane's scheduler busy: its start (reading the batches topic) waits behind this
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        BatchLane second = new BatchLane(new BatchSettings(LaneMode.AUTO, 1, Duration.ofHours(1), POLL, Duration.ofSeconds(1)),
                BatchProtocols.of(client, Duration.ofSeconds(15), reader), log, held, Clock.systemUTC(), "w2", () -> 2,
                Duration.ofSeconds(1));
        second.start();
        assertThat(second.bind("o1s1")).as("its batches not read yet").isEqualTo(LaneRouter.Bound.UNDECIDED);
        assertThat(second.realtimeBacklog()).isZero();
        reading.countDown();
        assertThat(until(() -> {
            LaneRouter.Bound b = second.bind("o1s1");
            return b == LaneRouter.Bound.UNDECIDED ? null : b;
        })).as("in an open batch, though the realtime room is empty").isEqualTo(LaneRouter.Bound.BATCH);
        assertThat(second.realtimeBacklog()).isZero();
        assertThat(provider.batchesCreated()).isEqualTo(1);
    }

    /** The log read a 1 MB limit, but the topic takes 8 KB now: it refuses larger records as the broker would. */
    static final class Lowered implements BatchLog {
        static final int NOW = 8 << 10;
        final MemoryBatchLog log;
        final List<Integer> refused = new java.util.concurrent.CopyOnWriteArrayList<>();

        Lowered(MemoryBatchLog log) {
            this.log = log;
        }

        @Override
        public void append(BatchRecord record) {
            int bytes = record.toJson().length;
            if (bytes > NOW) {
                refused.add(bytes);
                throw new TooLarge("refused: " + bytes + " bytes", bytes, null);
            }
            log.append(record);
        }

        @Override
        public java.util.Collection<BatchRecord> load() {
            return log.load();
        }

        @Override
        public int maxRecordBytes() {
            return 1 << 20;
        }
    }

    @Test
    void aRecordLimitLoweredAfterItWasReadHalvesTheBudgetOnceAndTheNextBatchesFit() throws Exception {
        Lowered lowered = new Lowered(log);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        timers.add(timer);
        int n = 20;
        BatchLane lane = new BatchLane(new BatchSettings(LaneMode.BATCH, n, Duration.ofMillis(300), POLL, Duration.ofSeconds(1)),
                BatchProtocols.of(client, Duration.ofSeconds(15), reader), lowered, timer, Clock.systemUTC(), "w1", () -> 0,
                Duration.ofSeconds(1));
        lane.start();
        until(() -> lane.bind("probe") == LaneRouter.Bound.UNDECIDED ? null : true);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add("sample-" + i + "/" + "k".repeat(500) + "#s" + (i % 2));
        }
        // 20 requests of about 560 bytes: one record of some 11 KB, over what the topic takes now
        keys.forEach(k -> lane.route(k, call(k.substring(k.length() - 2))));
        for (String k : keys) {
            assertThat(settle(lane, k)).isInstanceOf(LaneRouter.Again.class).extracting(r -> ((LaneRouter.Again) r).reason())
                    .asString().contains("too large for the batches topic");
        }
        assertThat(lowered.refused).hasSize(1);
        assertThat(lowered.refused.get(0)).isGreaterThan(Lowered.NOW);
        // asked again (as the worker retries them): batches of half the refused record, all taken
        keys.forEach(k -> lane.route(k, call(k.substring(k.length() - 2))));
        for (String k : keys) {
            assertAnswer(settle(lane, k), k.endsWith("0") ? 0 : 1);
        }
        assertThat(lowered.refused).as("one refusal, then every batch fits").hasSize(1);
        assertThat(provider.batchesCreated()).isGreaterThanOrEqualTo(2);
        assertThat(log.writes()).filteredOn(r -> r.state() == BatchRecord.State.SUBMITTING)
                .allSatisfy(r -> assertThat(r.toJson().length).isLessThanOrEqualTo(lowered.refused.get(0) / 2))
                .hasSize(provider.batchesCreated());
        assertThat(provider.billed()).hasSize(n).allSatisfy((id, count) -> assertThat(count).isEqualTo(1));
    }
}
