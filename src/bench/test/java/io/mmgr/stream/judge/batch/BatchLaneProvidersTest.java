package io.mmgr.stream.judge.batch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.bench.ScriptedBatchApi;
import io.mmgr.stream.bench.ScriptedBatches;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The batch lane ({@link BatchLane}, the worker's) over Gemini's and Anthropic's scripted batch APIs, through
 * {@link BatchProtocols#of} as the worker builds it: requests wait for a batch and in it (shown as "in batch" with
 * the provider's id), take the answers the realtime script implies, and a batch the provider cancels sends what it
 * did not answer back to the queue and into another batch; nothing is billed twice. (Requests are routed here as the
 * worker routes them each time one wakes.) OpenAI's lane is BatchLaneTest's.
 */
@Tag("unit")
class BatchLaneProvidersTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration POLL = Duration.ofMillis(40);

    BatchKit kit;
    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    /** The compacted batches topic: each local id's latest record. */
    static final class MemoryLog implements BatchLog {
        final Map<String, BatchRecord> latest = new LinkedHashMap<>();

        @Override
        public synchronized void append(BatchRecord record) {
            latest.put(record.localId(), record);
        }

        @Override
        public synchronized Collection<BatchRecord> load() {
            return List.copyOf(latest.values());
        }
    }

    @AfterEach
    void stop() {
        timer.shutdownNow();
        kit.close();
    }

    /** A lane of batches of {@code maxRequests}, or fewer once the oldest request has waited {@code maxWait}. */
    BatchLane lane(JudgeProtocol p, int maxRequests, Duration maxWait) throws Exception {
        kit = new BatchKit(p, p == JudgeProtocol.GEMINI ? "gemini-2.5-flash" : "claude-sonnet-4-5");
        kit.server.batches().pollsToEnd(2);
        BatchLane lane = new BatchLane(new BatchSettings(LaneMode.BATCH, maxRequests, maxWait, POLL, Duration.ofSeconds(1)),
                BatchProtocols.of(kit.client, Duration.ofSeconds(15), kit.reader), new MemoryLog(), timer, Clock.systemUTC(), "w1",
                () -> 0, Duration.ofSeconds(1));
        lane.start();
        return lane;
    }

    /**
     * Routes every key (case {@code BatchKit.caseName(i)}) as the worker does each time a request wakes, until each has
     * its answer; returns the answers' scores by index and every wait reason seen (a request sent back to the queue as
     * {@code again: <reason>}).
     */
    Map<Integer, Integer> settle(BatchLane lane, int n, Set<String> reasons) throws Exception {
        Map<Integer, Integer> scores = new LinkedHashMap<>();
        // returns once all are answered; a minute is for a cold JVM on a loaded machine (27 s seen at load 30)
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (scores.size() < n && System.nanoTime() < end) {
            for (int i = 0; i < n; i++) {
                if (scores.containsKey(i)) {
                    continue;
                }
                LaneRouter.Route r = lane.route("sample-" + i + "/rubric:vlm", kit.call(BatchKit.caseName(i)));
                if (r instanceof LaneRouter.Waiting w) {
                    reasons.add(w.reason());
                } else if (r instanceof LaneRouter.Again a) {
                    reasons.add("again: " + a.reason()); // back to the queue: the worker asks again, as here on the next round
                } else {
                    assertThat(r).as("sample %d", i).isInstanceOf(LaneRouter.Answer.class);
                    String text = ((LaneRouter.Answer) r).reply().text();
                    scores.put(i, JSON.readTree(text).path("final_correctness").path("score").asInt());
                }
            }
            Thread.sleep(20);
        }
        assertThat(scores).as("answered within 60 s").hasSize(n);
        return scores;
    }

    @ParameterizedTest
    @EnumSource(value = JudgeProtocol.class, names = {"GEMINI", "ANTHROPIC"})
    void requestsWaitInBatchesAndTakeTheScriptedAnswersBilledOnce(JudgeProtocol p) throws Exception {
        BatchLane lane = lane(p, 4, Duration.ofHours(1));
        Set<String> reasons = new HashSet<>();

        Map<Integer, Integer> scores = settle(lane, 8, reasons);

        for (int i = 0; i < 8; i++) {
            assertThat(scores.get(i)).as("sample %d", i).isEqualTo(i % 2 == 0 ? 1 : 0);
        }
        ScriptedBatchApi api = kit.server.batchApi(p);
        assertThat(api.batchesCreated()).isEqualTo(2);
        assertThat(reasons).anyMatch(r -> r.equals("in batch " + api.batchIds().get(0)) || r.equals("in batch " + api.batchIds().get(1)));
        assertThat(api.submitted()).hasSize(8).allSatisfy((id, times) -> assertThat(times).isEqualTo(1));
        assertThat(api.billed()).hasSize(8).allSatisfy((id, times) -> assertThat(times).isEqualTo(1));
    }

    @ParameterizedTest
    @EnumSource(value = JudgeProtocol.class, names = {"GEMINI", "ANTHROPIC"})
    void aBatchTheProviderCancelsSendsWhatItDidNotAnswerIntoAnotherBatch(JudgeProtocol p) throws Exception {
        // the six are queued at once and go together; what comes back goes after half a second
        BatchLane lane = lane(p, 6, Duration.ofMillis(500));
        kit.server.batches().endNext(ScriptedBatches.End.CANCELLED);

        Set<String> reasons = new HashSet<>();
        Map<Integer, Integer> scores = settle(lane, 6, reasons);

        for (int i = 0; i < 6; i++) {
            assertThat(scores.get(i)).as("sample %d", i).isEqualTo(i % 2 == 0 ? 1 : 0);
        }
        ScriptedBatchApi api = kit.server.batchApi(p);
        assertThat(api.batchesCreated()).isEqualTo(2);
        assertThat(reasons).as("unanswered entries went back to the queue").anyMatch(r -> r.startsWith("again: "));
        // Anthropic answers half of a cancelled batch (kept); Gemini's cancelled batch answers none: all go again
        int again = p == JudgeProtocol.ANTHROPIC ? 3 : 6;
        List<Integer> times = new ArrayList<>(api.submitted().values());
        assertThat(times).hasSize(6);
        assertThat(times.stream().filter(t -> t == 2).count()).isEqualTo(again);
        assertThat(api.billed()).hasSize(6).allSatisfy((id, billed) -> assertThat(billed).isEqualTo(1));
    }
}
