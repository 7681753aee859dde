package io.mmgr.stream.judge.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderJson;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * OpenAI's Batch API (platform.openai.com/docs/guides/batch): the lines go as a JSONL file to {@code POST /files}
 * (multipart, {@code purpose=batch}), the batch is {@code POST /batches} with that file,
 * {@code endpoint /v1/chat/completions}, {@code completion_window 24h} and our local id in
 * {@code metadata.mmgr_local_id}. {@code GET /batches/{id}} is polled; {@code validating}, {@code in_progress},
 * {@code finalizing} and {@code cancelling} are in progress, {@code completed}, {@code failed}, {@code expired} and
 * {@code cancelled} end it. The output file ({@code output_file_id}) and the error file ({@code error_file_id}) are
 * read from {@code GET /files/{id}/content}: each line {@code {"custom_id", "response": {"status_code", "body"},
 * "error"}}, in any order. A request the window or a cancel kept from running is an error-file line with
 * {@code error.code} {@code batch_expired} or {@code batch_cancelled}. The base URL is the realtime one (e.g.
 * {@code https://api.openai.com/v1}).
 */
public final class OpenAiBatchProtocol implements BatchProtocol {

    /** The endpoint every line names: the realtime lane's Chat Completions. */
    static final String ENDPOINT = "/v1/chat/completions";
    /** The metadata key holding our local id, which {@link #find} looks for. */
    static final String LOCAL_ID = "mmgr_local_id";
    /** OpenAI's limit on requests per batch. */
    private static final int MAX_REQUESTS = 50_000;
    /** Pages of {@code GET /batches} (100 each, newest first) {@link #find} reads at most before it gives up. */
    private static final int FIND_PAGES = 20;

    private final BatchHttp http;

    public OpenAiBatchProtocol(BatchHttp http) {
        if (http.codec().protocol().family() != JudgeProtocol.OPENAI) {
            throw new IllegalArgumentException("OpenAI's batch API needs an OpenAI codec, not " + http.codec().protocol());
        }
        this.http = http;
    }

    @Override
    public JudgeProtocol protocol() {
        return JudgeProtocol.OPENAI;
    }

    @Override
    public int maxRequests() {
        return MAX_REQUESTS;
    }

    @Override
    public BatchLine line(String customId, ProviderCall call) throws IOException {
        ObjectNode line = ProviderJson.MAPPER.createObjectNode().put("custom_id", customId).put("method", "POST").put("url", ENDPOINT);
        line.set("body", http.codec().requestBody(call));
        return new BatchLine(customId, line.toString());
    }

    @Override
    public CompletableFuture<String> create(String localId, List<BatchLine> lines) {
        StringBuilder jsonl = new StringBuilder();
        for (BatchLine l : lines) {
            jsonl.append(l.json()).append('\n');
        }
        String boundary = "mmgr-" + UUID.randomUUID();
        HttpRequest upload = http.request("/files").header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(BatchHttp.multipart(boundary, Map.of("purpose", "batch"), "file", localId + ".jsonl", "application/jsonl",
                        jsonl.toString().getBytes(StandardCharsets.UTF_8))).build();
        return http.json(upload).thenCompose(file -> {
            ObjectNode body = ProviderJson.MAPPER.createObjectNode().put("input_file_id", file.path("id").asText())
                    .put("endpoint", ENDPOINT).put("completion_window", "24h");
            body.putObject("metadata").put(LOCAL_ID, localId);
            return http.postJson("/batches", body);
        }).thenApply(batch -> {
            String id = batch.path("id").asText("");
            if (id.isEmpty()) {
                throw new CompletionException(new ProviderException(ProviderException.Kind.MALFORMED, 200,
                        "the created batch has no id", null, null));
            }
            return id;
        });
    }

    @Override
    public CompletableFuture<BatchStatus> poll(String providerId) {
        return http.get("/batches/" + encode(providerId)).thenApply(OpenAiBatchProtocol::status);
    }

    static BatchStatus status(JsonNode batch) {
        String status = batch.path("status").asText("");
        BatchStatus.State state = switch (status) {
            case "completed" -> BatchStatus.State.ENDED;
            case "failed" -> BatchStatus.State.FAILED;
            case "expired" -> BatchStatus.State.EXPIRED;
            case "cancelled" -> BatchStatus.State.CANCELLED;
            // validating, in_progress, finalizing, cancelling: still going; an unknown name is treated alike
            default -> BatchStatus.State.IN_PROGRESS;
        };
        JsonNode counts = batch.path("request_counts");
        List<String> refs = new ArrayList<>();
        for (String f : List.of("output_file_id", "error_file_id")) {
            String id = batch.path(f).asText("");
            if (!id.isEmpty() && !batch.path(f).isNull()) {
                refs.add(id);
            }
        }
        StringBuilder detail = new StringBuilder(status);
        for (JsonNode e : batch.path("errors").path("data")) {
            detail.append("; ").append(e.path("code").asText("")).append(": ").append(e.path("message").asText(""));
        }
        String local = batch.path("metadata").path(LOCAL_ID).asText(null);
        return new BatchStatus(batch.path("id").asText(), local, state, new BatchStatus.Counts(counts.path("total").asLong(0),
                counts.path("completed").asLong(0), counts.path("failed").asLong(0)), refs, detail.toString());
    }

    @Override
    public CompletableFuture<Void> results(BatchStatus ended, Consumer<BatchOutcome> sink) {
        CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
        for (String file : ended.resultRefs()) {
            all = all.thenCompose(v -> http.lines("/files/" + encode(file) + "/content", line -> sink.accept(outcome(line))));
        }
        return all;
    }

    /** One line of an output or error file. A line that is not one is reported as MISSING by the lane, its custom id unknown. */
    BatchOutcome outcome(String line) {
        JsonNode node;
        try {
            node = ProviderJson.MAPPER.readTree(line);
        } catch (IOException e) {
            throw new CompletionException(new ProviderException(ProviderException.Kind.MALFORMED, 200,
                    "a results line is not JSON: " + e.getMessage(), null, null));
        }
        String customId = node.path("custom_id").asText("");
        JsonNode error = node.path("error");
        JsonNode response = node.path("response");
        if (!response.isMissingNode() && !response.isNull()) {
            int status = response.path("status_code").asInt(0);
            JsonNode body = response.path("body");
            try {
                if (status == 200) {
                    return new BatchOutcome.Answered(customId, http.codec().answer(body));
                }
                return new BatchOutcome.Failed(customId, http.codec().failure(status, NO_HEADERS, http.codec().redact(body.toString())));
            } catch (ProviderException e) {
                return new BatchOutcome.Failed(customId, e);
            }
        }
        String code = error.path("code").asText("");
        String detail = code + ": " + error.path("message").asText("");
        return new BatchOutcome.Unanswered(customId, switch (code) {
            case "batch_expired" -> BatchOutcome.Why.EXPIRED;
            case "batch_cancelled" -> BatchOutcome.Why.CANCELLED;
            default -> BatchOutcome.Why.ERRORED;
        }, detail);
    }

    private static final HttpHeaders NO_HEADERS = HttpHeaders.of(Map.of(), (a, b) -> true);

    /**
     * Pages through {@code GET /batches} (newest first) for the batch whose {@code metadata.mmgr_local_id} is ours,
     * stopping at the first batch created before the local one was recorded: it cannot be older.
     */
    @Override
    public CompletableFuture<Optional<BatchStatus>> find(LocalBatch local) {
        return page(local, null, 0);
    }

    private CompletableFuture<Optional<BatchStatus>> page(LocalBatch local, String after, int pages) {
        String path = "/batches?limit=100" + (after == null ? "" : "&after=" + encode(after));
        return http.get(path).thenCompose(list -> {
            String last = null;
            // created_at is whole seconds: a minute's slack for clocks that disagree
            long oldest = local.since().getEpochSecond() - 60;
            boolean older = false;
            for (JsonNode b : list.path("data")) {
                last = b.path("id").asText();
                if (local.localId().equals(b.path("metadata").path(LOCAL_ID).asText(null))) {
                    return CompletableFuture.completedFuture(Optional.of(status(b)));
                }
                older |= b.path("created_at").asLong(Long.MAX_VALUE) < oldest;
            }
            if (older || last == null || !list.path("has_more").asBoolean(false) || pages + 1 >= FIND_PAGES) {
                return CompletableFuture.completedFuture(Optional.<BatchStatus>empty());
            }
            return page(local, last, pages + 1);
        });
    }

    @Override
    public CompletableFuture<Void> cancel(String providerId) {
        return http.postJson("/batches/" + encode(providerId) + "/cancel", ProviderJson.MAPPER.createObjectNode()).thenApply(b -> null);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
