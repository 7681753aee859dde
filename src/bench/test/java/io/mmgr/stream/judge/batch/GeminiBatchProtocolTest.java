package io.mmgr.stream.judge.batch;

import static io.mmgr.stream.judge.batch.BatchKit.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Gemini's Batch Mode through {@link GeminiBatchProtocol} against the scripted provider on loopback: inline and file
 * input, the operation polled through its {@code BATCH_STATE_*}s, answers as the realtime script implies and out of
 * order, errored entries, a 429 on creation with its RetryInfo, a batch cancelled, failed or expired, inline answers
 * larger than a realtime body, and finding a batch by its display name after a crash.
 */
@Tag("unit")
class GeminiBatchProtocolTest {

    static final ObjectMapper JSON = new ObjectMapper();
    BatchKit kit;
    GeminiBatchProtocol protocol;

    @BeforeEach
    void start() throws Exception {
        kit = new BatchKit(JudgeProtocol.GEMINI, "gemini-2.5-flash");
        protocol = new GeminiBatchProtocol(kit.http());
    }

    @AfterEach
    void stop() {
        kit.close();
    }

    void expectScores(BatchKit.Run run, List<BatchLine> lines) throws Exception {
        Map<String, BatchOutcome> by = run.outcomes().stream().collect(Collectors.toMap(BatchOutcome::customId, o -> o));
        for (int i = 0; i < lines.size(); i++) {
            assertThat(by.get(lines.get(i).customId())).as("entry %d", i).isInstanceOf(BatchOutcome.Answered.class);
            String text = ((BatchOutcome.Answered) by.get(lines.get(i).customId())).reply().text();
            assertThat(JSON.readTree(text).path("final_correctness").path("score").asInt()).as("entry %d", i).isEqualTo(i % 2 == 0 ? 1 : 0);
        }
    }

    @Test
    void anInlineBatchIsPolledThroughItsStatesAndEveryEntryGetsTheRealtimeAnswerOnceAndBilledOnce() throws Exception {
        List<BatchLine> lines = kit.lines(protocol, 20);
        String id = get(protocol.create("local-1", lines));

        BatchKit.Run run = BatchKit.run(protocol, id, 5);

        assertThat(id).startsWith("batches/");
        assertThat(run.polls()).extracting(BatchStatus::state).containsExactly(BatchStatus.State.IN_PROGRESS, BatchStatus.State.ENDED);
        assertThat(run.polls().get(0).detail()).isEqualTo("BATCH_STATE_RUNNING");
        assertThat(run.last().localId()).isEqualTo("local-1");
        assertThat(run.last().counts()).isEqualTo(new BatchStatus.Counts(20, 20, 0));
        assertThat(run.last().resultRefs()).as("inline answers: no file").isEmpty();
        List<String> input = lines.stream().map(BatchLine::customId).toList();
        assertThat(run.ids()).containsExactlyInAnyOrderElementsOf(input).isNotEqualTo(input);
        expectScores(run, lines);
        ScriptedBatches b = kit.server.batches();
        assertThat(b.submitted()).hasSize(20).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
        assertThat(b.billed()).hasSize(20).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
        ScriptedBatches.Batch batch = b.batches().get(0);
        assertThat(batch.asFile()).isFalse();
        // the realtime GenerateContentRequest, with the model the batch reference requires of each request
        assertThat(batch.entries.get(3).request().path("model").asText()).isEqualTo("models/gemini-2.5-flash");
        assertThat((JsonNode) ((ObjectNode) batch.entries.get(3).request().deepCopy()).without("model"))
                .isEqualTo(kit.codec.requestBody(kit.call(BatchKit.caseName(3))));
        assertThat(batch.authorization).isEqualTo(BatchKit.KEY);
        assertThat(batch.model).isEqualTo("gemini-2.5-flash");
    }

    @Test
    void aBatchOverTheInlineLimitGoesAsAnUploadedFileAndItsAnswersAreDownloaded() throws Exception {
        protocol = new GeminiBatchProtocol(kit.http(), 2_000);
        List<BatchLine> lines = kit.lines(protocol, 30);

        BatchKit.Run run = BatchKit.run(protocol, get(protocol.create("local-2", lines)), 5);

        assertThat(kit.server.batches().batches().get(0).asFile()).isTrue();
        assertThat(run.last().resultRefs()).singleElement().asString().startsWith("files/");
        assertThat(run.outcomes()).hasSize(30);
        expectScores(run, lines);
        assertThat(kit.server.batches().billed()).hasSize(30).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
    }

    @Test
    void erroredAndBlockedEntriesComeBackAsTheRealtimeLaneWouldTreatThem() throws Exception {
        kit.scriptEntryFaults();
        List<BatchLine> lines = kit.lines(protocol, 4);

        BatchKit.Run run = BatchKit.run(protocol, get(protocol.create("local-3", lines)), 5);

        Map<String, BatchOutcome> by = run.outcomes().stream().collect(Collectors.toMap(BatchOutcome::customId, o -> o));
        assertThat(by.get(lines.get(0).customId())).isInstanceOf(BatchOutcome.Answered.class);
        // an entry's Status is classified as the realtime call answered with it: a 500 is retried
        assertThat(by.get(lines.get(1).customId())).isInstanceOfSatisfying(BatchOutcome.Failed.class, f -> {
            assertThat(f.error().kind()).isEqualTo(ProviderException.Kind.SERVER);
            assertThat(f.error().retryable()).isTrue();
        });
        // Gemini documents no per-entry expiry: the scripted DEADLINE_EXCEEDED (504) is a server-side error, retried
        assertThat(by.get(lines.get(2).customId())).isInstanceOfSatisfying(BatchOutcome.Failed.class, f -> {
            assertThat(f.error().retryable()).isTrue();
            assertThat(f.error().getMessage()).contains("DEADLINE_EXCEEDED");
        });
        assertThat(by.get(lines.get(3).customId())).isInstanceOfSatisfying(BatchOutcome.Failed.class,
                f -> assertThat(f.error().kind()).isEqualTo(ProviderException.Kind.REFUSED));
        assertThat(kit.server.batches().billed()).containsOnlyKeys(lines.get(0).customId(), lines.get(3).customId());
    }

    @Test
    void a429OnCreationCarriesItsRetryInfoAndSubmitsNothing() throws Exception {
        kit.refusedCreationThenAccepted(protocol, "batches/");
    }

    @Test
    void cancelledFailedAndExpiredBatchesEndSoAndGiveNoAnswers() throws Exception {
        kit.server.batches().endNext(ScriptedBatches.End.CANCELLED).endNext(ScriptedBatches.End.FAILED)
                .endNext(ScriptedBatches.End.EXPIRED);

        BatchKit.Run cancelled = BatchKit.run(protocol, get(protocol.create("local-5a", kit.lines(protocol, 4))), 5);
        BatchKit.Run failed = BatchKit.run(protocol, get(protocol.create("local-5b", kit.lines(protocol, 4))), 5);
        BatchKit.Run expired = BatchKit.run(protocol, get(protocol.create("local-5c", kit.lines(protocol, 4))), 5);

        assertThat(cancelled.last().state()).isEqualTo(BatchStatus.State.CANCELLED);
        assertThat(failed.last().state()).isEqualTo(BatchStatus.State.FAILED);
        assertThat(failed.last().detail()).startsWith("BATCH_STATE_FAILED: ").contains("internal error");
        assertThat(expired.last().state()).isEqualTo(BatchStatus.State.EXPIRED);
        assertThat(cancelled.outcomes()).isEmpty();
        assertThat(failed.outcomes()).isEmpty();
        assertThat(expired.outcomes()).isEmpty();
        assertThat(kit.server.batches().billed()).isEmpty();
    }

    @Test
    void ourCancelEndsTheBatchAsCancelled() throws Exception {
        assertThat(kit.cancelledByUs(protocol).detail()).isEqualTo("BATCH_STATE_CANCELLED");
    }

    @Test
    void inlineAnswersLargerThanAnyRealtimeBodyAreReadWhole() throws Exception {
        int n = 150;
        kit.answerLong();
        List<BatchLine> lines = kit.lines(protocol, n);
        String id = get(protocol.create("local-7", lines));

        BatchKit.Run run = BatchKit.run(protocol, id, 5);

        HttpResponse<byte[]> raw = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                kit.server.geminiBaseUrl() + "/" + id)).header("x-goog-api-key", BatchKit.KEY).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(raw.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        assertThat(raw.body().length).isGreaterThan(ProviderClient.MAX_BODY_BYTES);
        assertThat(run.of(BatchOutcome.Answered.class)).hasSize(n)
                .allSatisfy(a -> assertThat(a.reply().text()).hasSizeGreaterThan(20_000).startsWith("{\"final_correctness\": {\"score\": 1,"));
        assertThat(run.ids()).doesNotHaveDuplicates();
        assertThat(run.last().counts().succeeded()).isEqualTo(n);
    }

    @Test
    void aBatchCreatedBeforeACrashIsFoundByItsDisplayName() throws Exception {
        String other = get(protocol.create("local-8a", kit.lines(protocol, 3)));
        String ours = get(protocol.create("local-8b", kit.lines(protocol, 3)));

        assertThat(get(protocol.find(new LocalBatch("local-8b", Instant.now(), 3)))).map(BatchStatus::providerId).hasValue(ours);
        assertThat(get(protocol.find(new LocalBatch("local-8c", Instant.now(), 3)))).isEmpty();
        assertThat(ours).isNotEqualTo(other);
    }
}
