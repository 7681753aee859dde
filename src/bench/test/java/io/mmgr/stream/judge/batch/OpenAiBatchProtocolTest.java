package io.mmgr.stream.judge.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.mmgr.stream.bench.OpenAiBatches;
import io.mmgr.stream.bench.OpenAiBatches.Plan;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.bench.ScriptedVlmServer.Kind;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderReply;
import io.mmgr.stream.judge.protocol.StructuredOutput;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * OpenAI's batch protocol against the scripted Batch API on loopback: the whole lifecycle, results out of order,
 * errored, expired and cancelled entries, a 429 on creation, a results file larger than a realtime body may be,
 * finding a batch by its local id, and a batch that fails validation. A line is answered as the realtime call of
 * the same request is.
 */
@Tag("unit")
class OpenAiBatchProtocolTest {

    static final String MODEL = "gpt-4.1";

    ScriptedVlmServer server;
    OpenAiBatches batches;
    ExecutorService reader = Executors.newSingleThreadExecutor();
    ProviderClient realtime;
    BatchProtocol protocol;

    @BeforeEach
    void start() throws Exception {
        // the score of every metric is the number after "s" in the case marker: case=s0 fails, case=s1 passes
        server = ScriptedVlmServer.start(x -> switch (x.caseName()) {
            case "err" -> Action.of(Kind.SERVER_ERROR);
            case "refuse" -> Action.of(Kind.REFUSAL);
            default -> Action.ok(Duration.ZERO, Map.of("final_correctness", x.caseName().endsWith("0") ? 0.0 : 1.0));
        });
        batches = server.openAiBatches();
        realtime = JudgeRuntime.client(JudgeSettings.builder(JudgeProtocol.OPENAI, URI.create(server.openAiBaseUrl()), MODEL)
                .apiKeyEnv("SCRIPTED_KEY").structuredOutput(StructuredOutput.JSON_SCHEMA).timeout(Duration.ofSeconds(15)).build(),
                Map.of("SCRIPTED_KEY", "sk-test"));
        protocol = BatchProtocols.of(realtime, Duration.ofSeconds(15), reader);
    }

    @AfterEach
    void stop() {
        server.close();
        reader.shutdownNow();
    }

    static ProviderCall call(String caseName) {
        return new ProviderCall(MODEL, "Grade it.", List.of(new ProviderCall.Text("case=" + caseName + " grade")),
                Map.of("type", "object", "properties", Map.of("final_correctness", Map.of("type", "object"))),
                ModelProfile.forModel(JudgeProtocol.OPENAI, MODEL));
    }

    /** Lines for the cases, under the custom ids of request keys "sample/<case>#rubric" (not valid custom ids as they are). */
    List<BatchLine> lines(String... cases) throws Exception {
        List<BatchLine> out = new ArrayList<>();
        for (String c : cases) {
            out.add(protocol.line(CustomIds.of("sample/" + c + "#rubric v1"), call(c)));
        }
        return out;
    }

    /** Polls until the batch ends; returns every state seen, in order, the last being the end. */
    List<BatchStatus> untilEnded(String id) throws Exception {
        List<BatchStatus> seen = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            BatchStatus s = protocol.poll(id).get(10, TimeUnit.SECONDS);
            seen.add(s);
            if (s.state().terminal()) {
                return seen;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the batch never ended: " + seen.get(seen.size() - 1));
    }

    List<BatchOutcome> results(BatchStatus ended) throws Exception {
        List<BatchOutcome> out = Collections.synchronizedList(new ArrayList<>());
        protocol.results(ended, out::add).get(30, TimeUnit.SECONDS);
        return out;
    }

    static Map<String, BatchOutcome> byId(List<BatchOutcome> outcomes) {
        Map<String, BatchOutcome> m = new LinkedHashMap<>();
        outcomes.forEach(o -> m.put(o.customId(), o));
        return m;
    }

    @Test
    void aBatchRunsItsLifecycleAndEachLineGetsTheAnswerTheRealtimeCallGets() throws Exception {
        String[] cases = new String[20];
        for (int i = 0; i < cases.length; i++) {
            cases[i] = "n" + i + "s" + (i % 2);
        }
        List<BatchLine> lines = lines(cases);
        String id = protocol.create("local-1", lines).get(10, TimeUnit.SECONDS);

        List<BatchStatus> seen = untilEnded(id);
        assertThat(seen.stream().map(s -> s.detail().split(";")[0]).distinct().toList())
                .containsExactly("validating", "in_progress", "finalizing", "completed");
        BatchStatus ended = seen.get(seen.size() - 1);
        assertThat(ended.state()).isEqualTo(BatchStatus.State.ENDED);
        assertThat(ended.localId()).isEqualTo("local-1");
        assertThat(ended.counts()).isEqualTo(new BatchStatus.Counts(20, 20, 0));

        List<BatchOutcome> outcomes = results(ended);
        assertThat(outcomes).hasSize(20).allMatch(o -> o instanceof BatchOutcome.Answered);
        assertThat(outcomes.stream().map(BatchOutcome::customId).toList())
                .as("the output file's order is not the input's").isNotEqualTo(lines.stream().map(BatchLine::customId).toList())
                .containsExactlyInAnyOrderElementsOf(lines.stream().map(BatchLine::customId).toList());
        Map<String, BatchOutcome> byId = byId(outcomes);
        for (int i = 0; i < cases.length; i++) {
            ProviderReply batched = ((BatchOutcome.Answered) byId.get(lines.get(i).customId())).reply();
            ProviderReply live = realtime.send(call(cases[i])).get(10, TimeUnit.SECONDS);
            assertThat(batched.text()).isEqualTo(live.text()).contains("\"score\":" + (i % 2));
            assertThat(batched.inputTokens()).isPositive();
        }
        assertThat(batches.submitted().values()).hasSize(20).containsOnly(1);
        assertThat(batches.billed().values()).hasSize(20).containsOnly(1);
    }

    @Test
    void erroredLinesFailAsTheRealtimeLaneClassifiesThem() throws Exception {
        List<BatchLine> lines = lines("a1", "err", "refuse", "b0");
        BatchStatus ended = last(untilEnded(protocol.create("local-err", lines).get(10, TimeUnit.SECONDS)));
        assertThat(ended.state()).isEqualTo(BatchStatus.State.ENDED);
        assertThat(ended.counts()).isEqualTo(new BatchStatus.Counts(4, 3, 1));
        Map<String, BatchOutcome> out = byId(results(ended));
        assertThat(out).hasSize(4);
        assertThat(out.get(lines.get(0).customId())).isInstanceOf(BatchOutcome.Answered.class);
        ProviderException server = ((BatchOutcome.Failed) out.get(lines.get(1).customId())).error();
        assertThat(server.kind()).isEqualTo(ProviderException.Kind.SERVER);
        assertThat(server.kind().retryable()).isTrue();
        ProviderException refusal = ((BatchOutcome.Failed) out.get(lines.get(2).customId())).error();
        assertThat(refusal.kind()).isEqualTo(ProviderException.Kind.REFUSED);
        assertThat(refusal.kind().answered()).isTrue();
        assertThat(((BatchOutcome.Answered) out.get(lines.get(3).customId())).reply().text()).contains("\"score\":0");
        assertThat(batches.billed()).doesNotContainKey(lines.get(1).customId());
    }

    @Test
    void anExpiredBatchGivesTheLinesThatRanAndMarksTheRestExpired() throws Exception {
        batches.plan(n -> Plan.expireAfter(Duration.ZERO, 2));
        List<BatchLine> lines = lines("e1s1", "e2s1", "e3s1", "e4s1", "e5s1");
        BatchStatus ended = last(untilEnded(protocol.create("local-exp", lines).get(10, TimeUnit.SECONDS)));
        assertThat(ended.state()).isEqualTo(BatchStatus.State.EXPIRED);
        Map<String, BatchOutcome> out = byId(results(ended));
        assertThat(out).hasSize(5);
        assertThat(out.values().stream().filter(o -> o instanceof BatchOutcome.Answered)).hasSize(2);
        assertThat(out.values().stream().filter(o -> o instanceof BatchOutcome.Unanswered u && u.why() == BatchOutcome.Why.EXPIRED))
                .hasSize(3);
        assertThat(batches.billed().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(2);
    }

    @Test
    void aBatchCancelledOnTheProvidersSideOrByUsEndsCancelled() throws Exception {
        batches.plan(n -> n == 0 ? Plan.cancelledAfter(Duration.ZERO, 1) : Plan.completeAfter(Duration.ofHours(1)));
        List<BatchLine> lines = lines("c1s1", "c2s1", "c3s1");
        BatchStatus byProvider = last(untilEnded(protocol.create("local-c1", lines).get(10, TimeUnit.SECONDS)));
        assertThat(byProvider.state()).isEqualTo(BatchStatus.State.CANCELLED);
        Map<String, BatchOutcome> out = byId(results(byProvider));
        assertThat(out.values().stream().filter(o -> o instanceof BatchOutcome.Answered)).hasSize(1);
        assertThat(out.values().stream().filter(o -> o instanceof BatchOutcome.Unanswered u && u.why() == BatchOutcome.Why.CANCELLED))
                .hasSize(2);

        String ours = protocol.create("local-c2", lines("c4s1", "c5s1")).get(10, TimeUnit.SECONDS);
        assertThat(protocol.poll(ours).get(10, TimeUnit.SECONDS).state()).isEqualTo(BatchStatus.State.IN_PROGRESS);
        protocol.cancel(ours).get(10, TimeUnit.SECONDS);
        BatchStatus cancelled = last(untilEnded(ours));
        assertThat(cancelled.state()).isEqualTo(BatchStatus.State.CANCELLED);
        assertThat(results(cancelled)).hasSize(2).allMatch(o -> o instanceof BatchOutcome.Unanswered u
                && u.why() == BatchOutcome.Why.CANCELLED);
    }

    @Test
    void a429OnCreationIsRateLimitedWithItsHintAndSubmitsNothing() throws Exception {
        batches.refuseCreations(1);
        List<BatchLine> lines = lines("r1s1");
        Throwable t = catchThrowable(() -> protocol.create("local-429", lines).get(10, TimeUnit.SECONDS));
        ProviderException e = (ProviderException) t.getCause();
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.RATE_LIMITED);
        assertThat(e.hint()).isNotNull();
        assertThat(e.hint().delay()).isPositive();
        assertThat(batches.submitted()).isEmpty();
        assertThat(batches.refusedCreations()).isEqualTo(1);

        String id = protocol.create("local-429", lines).get(10, TimeUnit.SECONDS);
        assertThat(last(untilEnded(id)).state()).isEqualTo(BatchStatus.State.ENDED);
        assertThat(batches.submitted()).containsExactly(Map.entry(lines.get(0).customId(), 1));
    }

    @Test
    void aResultsFileLargerThanARealtimeBodyIsReadLineByLine() throws Exception {
        int lineBytes = 128 * 1024;
        batches.plan(n -> Plan.completeAfter(Duration.ZERO).padded(lineBytes));
        String[] cases = new String[24];
        for (int i = 0; i < cases.length; i++) {
            cases[i] = "big" + i + "s1";
        }
        BatchStatus ended = last(untilEnded(protocol.create("local-big", lines(cases)).get(10, TimeUnit.SECONDS)));
        // 24 lines of 128 KiB: 3 MiB, over the 2 MiB a realtime answer body may be
        assertThat((long) cases.length * lineBytes).isGreaterThan(ProviderClient.MAX_BODY_BYTES);
        assertThat(results(ended)).hasSize(24).allMatch(o -> o instanceof BatchOutcome.Answered a
                && a.reply().text().contains("\"score\":1"));
    }

    @Test
    void aBatchIsFoundByItsLocalIdAfterACrash() throws Exception {
        Instant since = Instant.now();
        batches.plan(n -> Plan.completeAfter(Duration.ofHours(1)));
        String first = protocol.create("local-a", lines("f1s1")).get(10, TimeUnit.SECONDS);
        String second = protocol.create("local-b", lines("f2s1", "f3s1")).get(10, TimeUnit.SECONDS);
        Optional<BatchStatus> found = protocol.find(new LocalBatch("local-a", since, 1)).get(10, TimeUnit.SECONDS);
        assertThat(found).map(BatchStatus::providerId).contains(first);
        assertThat(protocol.find(new LocalBatch("local-b", since, 2)).get(10, TimeUnit.SECONDS)).map(BatchStatus::providerId)
                .contains(second);
        assertThat(protocol.find(new LocalBatch("local-never", since, 1)).get(10, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void aBatchThatFailsValidationHasNoResultsAndSaysWhy() throws Exception {
        BatchLine once = protocol.line(CustomIds.of("same key"), call("d1s1"));
        BatchStatus ended = last(untilEnded(protocol.create("local-dup", List.of(once, once)).get(10, TimeUnit.SECONDS)));
        assertThat(ended.state()).isEqualTo(BatchStatus.State.FAILED);
        assertThat(ended.detail()).contains("duplicate_custom_id");
        assertThat(ended.resultRefs()).isEmpty();
        assertThat(results(ended)).isEmpty();
        assertThat(batches.billed()).isEmpty();
    }

    @Test
    void everyLineCarriesTheRealtimeBodyUnderAValidCustomId() throws Exception {
        BatchLine line = protocol.line(CustomIds.of("magma/ckpt-7/sample 0042 ✓#rubric:v3"), call("x"));
        assertThat(CustomIds.valid(line.customId())).isTrue();
        com.fasterxml.jackson.databind.JsonNode n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(line.json());
        assertThat(n.path("method").asText()).isEqualTo("POST");
        assertThat(n.path("url").asText()).isEqualTo("/v1/chat/completions");
        assertThat(n.path("body").path("model").asText()).isEqualTo(MODEL);
        assertThat(n.path("body").path("response_format").path("type").asText()).isEqualTo("json_schema");
        assertThat(n.path("body").path("messages").toString()).contains("case=x grade");
    }

    static BatchStatus last(List<BatchStatus> seen) {
        return seen.get(seen.size() - 1);
    }
}
