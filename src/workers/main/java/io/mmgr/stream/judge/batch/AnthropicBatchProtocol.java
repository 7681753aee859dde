package io.mmgr.stream.judge.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderCodec;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderJson;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Anthropic's Message Batches API: {@code POST <base>/messages/batches} with {@code requests[]} of {@code custom_id}
 * and {@code params} (the realtime Messages body, built by {@link io.mmgr.stream.judge.protocol.AnthropicClient}),
 * polled at {@code GET <base>/messages/batches/{id}} until {@code processing_status} is {@code ended}, then the JSONL at
 * its {@code results_url} read line by line: {@code succeeded} (the message, parsed by the realtime parser),
 * {@code errored} (its error body, classified as the realtime lane would), {@code canceled}, {@code expired}. The key
 * goes in {@code x-api-key} with {@code anthropic-version}, as in realtime.
 *
 * <p>An ended batch reports no final state of its own: it counts as CANCELLED when a cancel was initiated, EXPIRED
 * when its requests only expired, else ENDED. A message batch keeps no tag of ours, so {@link #find} lists the
 * batches (newest first) and, of those created no earlier than two seconds before the lane recorded it (an allowance
 * for the two clocks) that hold exactly as many requests, takes the one created closest to that time; two batches
 * of the same size created within moments of each other are the one case it may take the wrong one.
 */
public final class AnthropicBatchProtocol implements BatchProtocol {

    /** Anthropic's documented limits of one batch: 100,000 requests or 256 MB, whichever comes first. */
    static final int MAX_REQUESTS = 100_000;
    static final long MAX_BYTES = 256L * 1024 * 1024;
    private static final Duration CLOCK_ALLOWANCE = Duration.ofSeconds(2);
    /** Error types of a result's {@code error} body and the HTTP status the realtime API gives them (its errors page). */
    private static final Map<String, Integer> STATUS = Map.of("invalid_request_error", 400, "authentication_error", 401,
            "billing_error", 402, "permission_error", 403, "not_found_error", 404, "request_too_large", 413, "rate_limit_error", 429,
            "api_error", 500, "overloaded_error", 529);

    /** The batches' path under the realtime base URL ({@code https://api.anthropic.com/v1}). */
    static final String ROOT = "/messages/batches";

    private final BatchHttp http;

    public AnthropicBatchProtocol(BatchHttp http) {
        if (http.codec().protocol() != JudgeProtocol.ANTHROPIC) {
            throw new IllegalArgumentException("Anthropic's batch API needs an Anthropic codec, not " + http.codec().protocol());
        }
        this.http = http;
    }

    @Override
    public JudgeProtocol protocol() {
        return JudgeProtocol.ANTHROPIC;
    }

    @Override
    public int maxRequests() {
        return MAX_REQUESTS;
    }

    @Override
    public BatchLine line(String customId, ProviderCall call) throws IOException {
        ObjectNode line = ProviderJson.MAPPER.createObjectNode().put("custom_id", customId);
        line.set("params", http.codec().requestBody(call));
        return new BatchLine(customId, line.toString());
    }

    @Override
    public CompletableFuture<String> create(String localId, List<BatchLine> lines) {
        long bytes = lines.stream().mapToLong(BatchLine::bytes).sum();
        if (lines.isEmpty() || lines.size() > MAX_REQUESTS || bytes > MAX_BYTES) {
            return CompletableFuture.failedFuture(new ProviderException(ProviderException.Kind.REJECTED, "an Anthropic batch holds 1 to "
                    + MAX_REQUESTS + " requests of at most " + MAX_BYTES + " bytes in all; this one has " + lines.size() + " of " + bytes));
        }
        StringBuilder body = new StringBuilder((int) Math.min(Integer.MAX_VALUE - 64, bytes + lines.size() + 16)).append("{\"requests\":[");
        for (int i = 0; i < lines.size(); i++) {
            body.append(i == 0 ? "" : ",").append(lines.get(i).json());
        }
        body.append("]}");
        return http.json(http.request(ROOT).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build())
                .thenApply(b -> b.path("id").asText());
    }

    @Override
    public CompletableFuture<BatchStatus> poll(String providerId) {
        return http.get(ROOT + "/" + providerId).thenApply(AnthropicBatchProtocol::status);
    }

    static BatchStatus status(JsonNode b) {
        JsonNode c = b.path("request_counts");
        long succeeded = c.path("succeeded").asLong();
        long errored = c.path("errored").asLong();
        long expired = c.path("expired").asLong();
        long total = c.path("processing").asLong() + succeeded + errored + c.path("canceled").asLong() + expired;
        String processing = b.path("processing_status").asText("");
        BatchStatus.State state;
        if (!"ended".equals(processing)) {
            state = BatchStatus.State.IN_PROGRESS;
        } else if (!b.path("cancel_initiated_at").isNull() && !b.path("cancel_initiated_at").isMissingNode()) {
            state = BatchStatus.State.CANCELLED;
        } else if (expired > 0 && succeeded + errored == 0) {
            state = BatchStatus.State.EXPIRED;
        } else {
            state = BatchStatus.State.ENDED;
        }
        String url = b.path("results_url").asText(null);
        return new BatchStatus(b.path("id").asText(), null, state, new BatchStatus.Counts(total, succeeded, errored),
                url == null ? List.of() : List.of(url), "processing_status " + processing);
    }

    @Override
    public CompletableFuture<Void> results(BatchStatus ended, Consumer<BatchOutcome> sink) {
        if (ended.resultRefs().isEmpty()) {
            return CompletableFuture.completedFuture(null); // no results_url: nothing was processed
        }
        ProviderCodec codec = http.codec();
        return http.lines(http.requestTo(ended.resultRefs().get(0)).GET().build(), line -> {
            try {
                sink.accept(outcome(codec, ProviderJson.MAPPER.readTree(line)));
            } catch (IOException e) {
                throw new CompletionException(new ProviderException(ProviderException.Kind.MALFORMED, 200,
                        "a results line is not JSON: " + e.getMessage(), null, null));
            }
        });
    }

    private static BatchOutcome outcome(ProviderCodec codec, JsonNode line) {
        String id = line.path("custom_id").asText();
        JsonNode result = line.path("result");
        return switch (result.path("type").asText("")) {
            case "succeeded" -> BatchResults.answered(codec, id, result.path("message"));
            case "errored" -> {
                JsonNode error = result.path("error");
                yield BatchResults.failed(codec, id, STATUS.getOrDefault(error.path("error").path("type").asText(""), 500), error);
            }
            case "canceled" -> new BatchOutcome.Unanswered(id, BatchOutcome.Why.CANCELLED, "canceled");
            case "expired" -> new BatchOutcome.Unanswered(id, BatchOutcome.Why.EXPIRED, "expired");
            default -> new BatchOutcome.Unanswered(id, BatchOutcome.Why.ERRORED, "unknown result type: " + result.path("type").asText());
        };
    }

    @Override
    public CompletableFuture<Optional<BatchStatus>> find(LocalBatch local) {
        return page(local, null, null);
    }

    /**
     * Pages through the list (newest first) until past the local batch's time; of the batches of its size, the one
     * created closest to when the lane recorded it wins (the lane records a batch just before it creates it, so an
     * earlier batch of ours of the same size, inside the clock allowance, lies further off).
     */
    private CompletableFuture<Optional<BatchStatus>> page(LocalBatch local, String afterId, Found best) {
        String url = ROOT + "?limit=100" + (afterId == null ? "" : "&after_id=" + URLEncoder.encode(afterId, StandardCharsets.UTF_8));
        Instant from = local.since().minus(CLOCK_ALLOWANCE);
        return http.get(url).thenCompose(page -> {
            Found found = best;
            boolean older = false;
            for (JsonNode b : page.path("data")) {
                Instant created = Instant.parse(b.path("created_at").asText());
                if (created.isBefore(from)) {
                    older = true;
                    break;
                }
                BatchStatus s = status(b);
                long off = Math.abs(Duration.between(local.since(), created).toMillis());
                if (s.counts().total() == local.requests() && (found == null || off < found.offMillis())) {
                    found = new Found(s, off);
                }
            }
            if (older || !page.path("has_more").asBoolean(false)) {
                return CompletableFuture.completedFuture(Optional.ofNullable(found).map(Found::status));
            }
            return page(local, page.path("last_id").asText(), found);
        });
    }

    private record Found(BatchStatus status, long offMillis) {
    }

    @Override
    public CompletableFuture<Void> cancel(String providerId) {
        return http.postJson(ROOT + "/" + providerId + "/cancel", ProviderJson.MAPPER.createObjectNode()).thenApply(b -> null);
    }
}
