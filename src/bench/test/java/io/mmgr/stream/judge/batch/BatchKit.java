package io.mmgr.stream.judge.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.mmgr.stream.bench.ScriptedBatches;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderCodec;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.StructuredOutput;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What the batch protocol tests share: a scripted provider whose realtime script scores {@code final_correctness}
 * 1 for a prompt marked {@code case=pass-N} and 0 for {@code case=fail-N}, the realtime client's codec for it, calls
 * with those markers, and a batch run from create to results.
 */
final class BatchKit implements AutoCloseable {

    static final String KEY = "sk-scripted-batch-key";
    static final Map<String, Object> SCHEMA = Map.of("type", "object", "properties",
            Map.of("final_correctness", Map.of("type", "object")));

    final ScriptedVlmServer server;
    final ProviderClient client;
    final ProviderCodec codec;
    final String model;
    final ExecutorService reader = Executors.newCachedThreadPool();

    BatchKit(JudgeProtocol protocol, String model) throws Exception {
        this.server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO,
                Map.of("final_correctness", e.caseName().startsWith("fail") ? 0.0 : 1.0)));
        this.model = model;
        this.client = JudgeRuntime.client(JudgeSettings.builder(protocol, URI.create(server.baseUrl(protocol)), model)
                .apiKeyEnv("SCRIPTED_KEY").structuredOutput(StructuredOutput.JSON_SCHEMA).timeout(Duration.ofSeconds(15)).build(),
                Map.of("SCRIPTED_KEY", KEY));
        this.codec = (ProviderCodec) client;
    }

    /** The HTTP the protocol under test speaks, reading results on a pool of its own. */
    BatchHttp http() {
        return new BatchHttp(codec, Duration.ofSeconds(30), reader);
    }

    /** A judge call whose prompt carries {@code case=<name>}. */
    ProviderCall call(String caseName) {
        return new ProviderCall(model, "Grade it.", List.of(new ProviderCall.Text("case=" + caseName + " grade the answer")), SCHEMA,
                ModelProfile.forModel(codec.protocol(), model));
    }

    /** Lines for cases {@code pass-0, fail-1, pass-2, ...} (odd ones fail), keyed by {@link CustomIds#of} the case name. */
    List<BatchLine> lines(BatchProtocol p, int n) throws Exception {
        List<BatchLine> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = caseName(i);
            lines.add(p.line(CustomIds.of("sample-" + i + "/rubric:vlm"), call(name)));
        }
        return lines;
    }

    static String caseName(int i) {
        return (i % 2 == 0 ? "pass-" : "fail-") + i;
    }

    /** Polls until the batch ends (at most {@code polls} times), then reads every result. */
    static Run run(BatchProtocol p, String providerId, int polls) throws Exception {
        List<BatchStatus> seen = new ArrayList<>();
        BatchStatus s = get(p.poll(providerId));
        seen.add(s);
        for (int i = 1; i < polls && !s.state().terminal(); i++) {
            s = get(p.poll(providerId));
            seen.add(s);
        }
        assertThat(s.state().terminal()).as("ended within %d polls: %s", polls, seen).isTrue();
        List<BatchOutcome> outcomes = new ArrayList<>();
        get(p.results(s, outcomes::add));
        return new Run(seen, outcomes);
    }

    record Run(List<BatchStatus> polls, List<BatchOutcome> outcomes) {
        BatchStatus last() {
            return polls.get(polls.size() - 1);
        }

        List<String> ids() {
            return outcomes.stream().map(BatchOutcome::customId).toList();
        }

        <T extends BatchOutcome> List<T> of(Class<T> type) {
            return outcomes.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    /** The provider failure a future completes with. */
    static ProviderException failure(CompletableFuture<?> f) {
        Throwable t = catchThrowable(() -> f.get(60, TimeUnit.SECONDS));
        Throwable cause = t.getCause() instanceof CompletionException c ? c.getCause() : t.getCause();
        assertThat(cause).isInstanceOf(ProviderException.class);
        return (ProviderException) cause;
    }

    /** Every entry answered with a score of 1 and a 20,000-character justification: 150 of them make a 3 MB result. */
    void answerLong() {
        String justification = "x".repeat(20_000);
        server.script(e -> Action.streamedAnswer(w -> w.write("{\"final_correctness\": {\"score\": 1, \"justification\": \""
                + justification + "\"}}")));
    }

    /**
     * A creation refused with the protocol's 429 fails RATE_LIMITED with the announced wait and creates nothing; the
     * same lines are accepted next time.
     */
    void refusedCreationThenAccepted(BatchProtocol p, String idPrefix) throws Exception {
        server.batches().rejectCreations(1, Duration.ofSeconds(7));
        List<BatchLine> lines = lines(p, 3);

        ProviderException e = failure(p.create("local-429", lines));

        assertThat(e.kind()).isEqualTo(ProviderException.Kind.RATE_LIMITED);
        assertThat(e.retryAfter()).isGreaterThanOrEqualTo(Duration.ofSeconds(7));
        assertThat(server.batches().batches()).isEmpty();
        assertThat(server.batches().submitted()).isEmpty();
        assertThat(get(p.create("local-429", lines))).startsWith(idPrefix);
        assertThat(server.batches().creationAttempts()).isEqualTo(2);
        assertThat(server.batchApi(p.protocol()).refusedCreations()).isEqualTo(1);
        assertThat(server.batchApi(p.protocol()).batchesCreated()).isEqualTo(1);
    }

    /** Our cancel of a batch in progress: the next poll sees it CANCELLED. */
    BatchStatus cancelledByUs(BatchProtocol p) throws Exception {
        server.batches().pollsToEnd(100);
        String id = get(p.create("local-cancel", lines(p, 4)));
        assertThat(get(p.poll(id)).state()).isEqualTo(BatchStatus.State.IN_PROGRESS);

        get(p.cancel(id));

        BatchStatus s = get(p.poll(id));
        assertThat(s.state()).isEqualTo(BatchStatus.State.CANCELLED);
        return s;
    }

    /**
     * The faults of the errored-entries cases: {@code fail-1} errors at the provider, {@code pass-2} expires,
     * {@code fail-3} is refused, the rest score 1.
     */
    void scriptEntryFaults() {
        server.batches().fate(e -> {
            String text = e.request().toString();
            return text.contains("case=fail-1 ") ? ScriptedBatches.Fate.ERRORED
                    : text.contains("case=pass-2 ") ? ScriptedBatches.Fate.EXPIRED : ScriptedBatches.Fate.ANSWER;
        });
        server.script(e -> e.caseName().equals("fail-3") ? Action.of(ScriptedVlmServer.Kind.REFUSAL)
                : Action.ok(Duration.ZERO, Map.of("final_correctness", 1.0)));
    }

    @Override
    public void close() {
        server.close();
        reader.shutdownNow();
    }
}
