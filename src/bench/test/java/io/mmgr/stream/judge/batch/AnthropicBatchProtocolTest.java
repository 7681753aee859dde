package io.mmgr.stream.judge.batch;

import static io.mmgr.stream.judge.batch.BatchKit.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.bench.ScriptedBatches;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Anthropic's Message Batches through {@link AnthropicBatchProtocol} against the scripted provider on loopback: the
 * whole lifecycle with the answers the realtime script implies, results out of order, errored, expired and canceled
 * entries, a 429 on creation, a batch cancelled on either side, a results file larger than a realtime body, finding a
 * batch after a crash, and the provider's own checks (custom_id pattern, anthropic-version).
 */
@Tag("unit")
class AnthropicBatchProtocolTest {

    static final ObjectMapper JSON = new ObjectMapper();
    BatchKit kit;
    AnthropicBatchProtocol protocol;

    @BeforeEach
    void start() throws Exception {
        kit = new BatchKit(JudgeProtocol.ANTHROPIC, "claude-sonnet-4-5");
        protocol = new AnthropicBatchProtocol(kit.http());
    }

    @AfterEach
    void stop() {
        kit.close();
    }

    @Test
    void aBatchIsPolledUntilEndedAndEveryEntryGetsTheRealtimeAnswerOnceAndBilledOnce() throws Exception {
        kit.server.batches().runFor(Duration.ofHours(1));
        List<BatchLine> lines = kit.lines(protocol, 20);
        String id = get(protocol.create("local-1", lines));
        assertThat(get(protocol.poll(id)).state()).isEqualTo(BatchStatus.State.IN_PROGRESS);
        assertThat(get(protocol.poll(id)).state()).as("its second read, within its hour").isEqualTo(BatchStatus.State.IN_PROGRESS);
        kit.server.batches().runFor(Duration.ZERO);

        BatchKit.Run run = BatchKit.run(protocol, id, 5);

        assertThat(id).startsWith("msgbatch_");
        assertThat(run.polls()).extracting(BatchStatus::state).containsExactly(BatchStatus.State.ENDED);
        assertThat(run.last().counts()).isEqualTo(new BatchStatus.Counts(20, 20, 0));
        assertThat(run.last().resultRefs()).singleElement().asString().endsWith("/v1/messages/batches/" + id + "/results");
        List<String> input = lines.stream().map(BatchLine::customId).toList();
        assertThat(run.ids()).containsExactlyInAnyOrderElementsOf(input).isNotEqualTo(input);
        Map<String, BatchOutcome> by = run.outcomes().stream().collect(Collectors.toMap(BatchOutcome::customId, o -> o));
        for (int i = 0; i < 20; i++) {
            BatchOutcome o = by.get(input.get(i));
            assertThat(o).isInstanceOf(BatchOutcome.Answered.class);
            assertThat(JSON.readTree(((BatchOutcome.Answered) o).reply().text()).path("final_correctness").path("score").asInt())
                    .as("entry %d", i).isEqualTo(i % 2 == 0 ? 1 : 0);
            assertThat(((BatchOutcome.Answered) o).reply().finishReason()).isEqualTo("end_turn");
        }
        ScriptedBatches b = kit.server.batches();
        assertThat(b.submitted()).hasSize(20).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
        assertThat(b.billed()).hasSize(20).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
        // the entry is exactly the realtime Messages body, and the key travels in x-api-key
        ScriptedBatches.Batch batch = b.batches().get(0);
        assertThat(batch.entries.get(3).request()).isEqualTo(kit.codec.requestBody(kit.call(BatchKit.caseName(3))));
        assertThat(batch.authorization).isEqualTo(BatchKit.KEY);
    }

    @Test
    void erroredExpiredAndRefusedEntriesComeBackAsTheRealtimeLaneWouldTreatThem() throws Exception {
        kit.scriptEntryFaults();
        List<BatchLine> lines = kit.lines(protocol, 4);
        // a request without max_tokens: its own 400 inside the batch, final as in realtime
        String bad = CustomIds.of("no-max-tokens");
        lines.add(new BatchLine(bad, "{\"custom_id\": \"" + bad + "\", \"params\": {\"model\": \"claude-sonnet-4-5\", "
                + "\"messages\": [{\"role\": \"user\", \"content\": \"case=pass-4\"}]}}"));

        BatchKit.Run run = BatchKit.run(protocol, get(protocol.create("local-2", lines)), 5);

        Map<String, BatchOutcome> by = run.outcomes().stream().collect(Collectors.toMap(BatchOutcome::customId, o -> o));
        assertThat(by.get(lines.get(0).customId())).isInstanceOf(BatchOutcome.Answered.class);
        // errored at the provider's side (api_error): classified as the realtime 500, so retried
        assertThat(by.get(lines.get(1).customId())).isInstanceOfSatisfying(BatchOutcome.Failed.class, f -> {
            assertThat(f.error().kind()).isEqualTo(ProviderException.Kind.SERVER);
            assertThat(f.error().retryable()).isTrue();
        });
        assertThat(by.get(lines.get(2).customId())).isInstanceOfSatisfying(BatchOutcome.Unanswered.class,
                u -> assertThat(u.why()).isEqualTo(BatchOutcome.Why.EXPIRED));
        assertThat(by.get(lines.get(3).customId())).isInstanceOfSatisfying(BatchOutcome.Failed.class,
                f -> assertThat(f.error().kind()).isEqualTo(ProviderException.Kind.REFUSED));
        assertThat(by.get(bad)).isInstanceOfSatisfying(BatchOutcome.Failed.class, f -> {
            assertThat(f.error().kind()).isEqualTo(ProviderException.Kind.REJECTED);
            assertThat(f.error().getMessage()).contains("max_tokens");
        });
        assertThat(run.last().counts()).isEqualTo(new BatchStatus.Counts(5, 2, 2));
        // only what was answered is billed (the refusal is a message, billed as Anthropic bills it)
        assertThat(kit.server.batches().billed()).containsOnlyKeys(lines.get(0).customId(), lines.get(3).customId());
    }

    @Test
    void a429OnCreationCarriesItsRetryAfterAndSubmitsNothing() throws Exception {
        kit.refusedCreationThenAccepted(protocol, "msgbatch_");
    }

    @Test
    void aBatchCancelledOnTheProvidersSideKeepsWhatWasDoneAndCancelsTheRest() throws Exception {
        kit.server.batches().endNext(ScriptedBatches.End.CANCELLED);
        List<BatchLine> lines = kit.lines(protocol, 10);

        BatchKit.Run run = BatchKit.run(protocol, get(protocol.create("local-4", lines)), 5);

        assertThat(run.last().state()).isEqualTo(BatchStatus.State.CANCELLED);
        assertThat(run.of(BatchOutcome.Answered.class)).hasSize(5);
        assertThat(run.of(BatchOutcome.Unanswered.class)).hasSize(5)
                .allSatisfy(u -> assertThat(u.why()).isEqualTo(BatchOutcome.Why.CANCELLED));
        assertThat(kit.server.batches().billed()).hasSize(5);
    }

    @Test
    void ourCancelEndsTheBatchAsCancelledAndItsResultsAreRead() throws Exception {
        BatchStatus cancelled = kit.cancelledByUs(protocol);

        List<BatchOutcome> outcomes = new java.util.ArrayList<>();
        get(protocol.results(cancelled, outcomes::add));

        assertThat(outcomes).hasSize(4);
    }

    @Test
    void aBatchThatExpiredWholeIsExpiredAndEveryEntryGoesBack() throws Exception {
        kit.server.batches().endNext(ScriptedBatches.End.EXPIRED);

        BatchKit.Run run = BatchKit.run(protocol, get(protocol.create("local-6", kit.lines(protocol, 6))), 5);

        assertThat(run.last().state()).isEqualTo(BatchStatus.State.EXPIRED);
        assertThat(run.of(BatchOutcome.Unanswered.class)).hasSize(6).allSatisfy(u -> assertThat(u.why()).isEqualTo(BatchOutcome.Why.EXPIRED));
        assertThat(kit.server.batches().billed()).isEmpty();
    }

    @Test
    void aResultsFileLargerThanAnyRealtimeBodyIsReadWhole() throws Exception {
        int n = 150;
        kit.answerLong();
        List<BatchLine> lines = kit.lines(protocol, n);
        String id = get(protocol.create("local-7", lines));

        BatchKit.Run run = BatchKit.run(protocol, id, 5);

        HttpResponse<byte[]> raw = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(run.last().resultRefs().get(0)))
                .header("anthropic-version", "2023-06-01").header("x-api-key", BatchKit.KEY).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(raw.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        assertThat(raw.body().length).isGreaterThan(ProviderClient.MAX_BODY_BYTES);
        assertThat(run.of(BatchOutcome.Answered.class)).hasSize(n)
                .allSatisfy(a -> assertThat(a.reply().text()).hasSizeGreaterThan(20_000).startsWith("{\"final_correctness\": {\"score\": 1,"));
        assertThat(run.ids()).doesNotHaveDuplicates();
    }

    @Test
    void aBatchCreatedBeforeACrashIsFoundByItsTimeAndSize() throws Exception {
        Instant start = Instant.now();
        String smaller = get(protocol.create("local-8a", kit.lines(protocol, 3)));
        String sameSizeBefore = get(protocol.create("local-8b", kit.lines(protocol, 5)));
        Instant recorded = Instant.now();
        String ours = get(protocol.create("local-8c", kit.lines(protocol, 5)));

        Optional<BatchStatus> found = get(protocol.find(new LocalBatch("local-8c", recorded, 5)));
        Optional<BatchStatus> none = get(protocol.find(new LocalBatch("local-8d", start, 7)));
        Optional<BatchStatus> later = get(protocol.find(new LocalBatch("local-8e", Instant.now().plusSeconds(60), 3)));

        assertThat(found).map(BatchStatus::providerId).hasValue(ours);
        assertThat(List.of(smaller, sameSizeBefore)).doesNotContain(ours);
        assertThat(none).isEmpty();
        assertThat(later).as("a batch created before the record was written is not ours").isEmpty();
    }

    @Test
    void theProviderRefusesCustomIdsOutsideItsPatternDuplicatesAndRequestsWithoutAVersion() throws Exception {
        String body = "{\"requests\": [{\"custom_id\": \"sample/1:rubric\", \"params\": {\"model\": \"claude-sonnet-4-5\", "
                + "\"max_tokens\": 10, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}}]}";
        HttpResponse<String> bad = post(body, "anthropic-version", "2023-06-01", "x-api-key", "k");
        HttpResponse<String> noVersion = post(body.replace("sample/1:rubric", "sample-1"), "x-api-key", "k");
        HttpResponse<String> twice = post("{\"requests\": [" + entry("a") + "," + entry("a") + "]}", "anthropic-version", "2023-06-01",
                "x-api-key", "k");

        assertThat(bad.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(bad.body());
        assertThat(error.path("type").asText()).isEqualTo("error");
        assertThat(error.path("error").path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("error").path("message").asText()).contains("custom_id").contains("^[a-zA-Z0-9_-]{1,64}$");
        assertThat(noVersion.statusCode()).isEqualTo(400);
        assertThat(twice.statusCode()).isEqualTo(400);
        assertThat(twice.body()).contains("Duplicate custom_id");
        assertThat(kit.server.batches().batches()).isEmpty();
        // our ids for any request key meet the pattern, so the lane never meets that 400
        assertThat(IntStream.range(0, 50).mapToObj(i -> CustomIds.of("sample/" + i + ":rubric é " + "x".repeat(i * 10))))
                .allMatch(CustomIds::valid);
    }

    static String entry(String id) {
        return "{\"custom_id\": \"" + id + "\", \"params\": {\"model\": \"m\", \"max_tokens\": 10, \"messages\": []}}";
    }

    HttpResponse<String> post(String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kit.server.anthropicBaseUrl() + "/messages/batches"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        if (headers.length > 0) {
            b.headers(headers);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
