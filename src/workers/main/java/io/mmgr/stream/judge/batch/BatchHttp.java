package io.mmgr.stream.judge.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.judge.protocol.ProviderCodec;
import io.mmgr.stream.judge.protocol.ProviderException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP a batch protocol speaks: JSON calls and bodies read as streams (a batch's results may be far larger than a
 * realtime answer), with the key headers and the failure classes of the protocol's realtime client
 * ({@link ProviderCodec}). Bodies are read on a pool of its own, never on the caller's thread.
 */
final class BatchHttp {

    static final ObjectMapper JSON = new ObjectMapper();
    /** The most of an error body kept: enough for the provider's message, not a runaway page. */
    private static final int ERROR_BYTES = 64 * 1024;
    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "judge-batch-read");
        t.setDaemon(true);
        return t;
    });

    /** Reads a successful body. */
    @FunctionalInterface
    interface BodyReader<T> {
        T read(InputStream body) throws IOException, ProviderException;
    }

    private final ProviderCodec codec;
    private final Duration timeout;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .version(HttpClient.Version.HTTP_1_1).build();

    BatchHttp(ProviderCodec codec, Duration timeout) {
        this.codec = codec;
        this.timeout = timeout;
    }

    ProviderCodec codec() {
        return codec;
    }

    /** A request to {@code url} with the protocol's key and version headers. */
    HttpRequest.Builder request(String url) {
        return codec.authorize(HttpRequest.newBuilder(URI.create(url))).timeout(timeout);
    }

    /** A JSON POST. */
    HttpRequest.Builder post(String url, String json) {
        return request(url).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    }

    /** The JSON answer of a call; a non-2xx answer fails as the realtime client classifies it. */
    CompletableFuture<JsonNode> json(HttpRequest.Builder request) {
        return read(request, body -> {
            JsonNode n = JSON.readTree(body);
            return n == null ? JSON.createObjectNode() : n;
        });
    }

    /** The response of a call read by {@code reader} (on a pool of its own: the body may be megabytes). */
    <T> CompletableFuture<T> read(HttpRequest.Builder request, BodyReader<T> reader) {
        return read(request, (r, body) -> reader.read(body));
    }

    /** Reads a successful response with its headers. */
    @FunctionalInterface
    interface ResponseReader<T> {
        T read(HttpResponse<InputStream> response, InputStream body) throws IOException, ProviderException;
    }

    <T> CompletableFuture<T> read(HttpRequest.Builder request, ResponseReader<T> reader) {
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream())
                .handleAsync((resp, error) -> {
                    if (error != null) {
                        throw new CompletionException(transportFailure(error));
                    }
                    try (InputStream body = resp.body()) {
                        int status = resp.statusCode();
                        if (status / 100 != 2) {
                            String text = codec.redact(new String(body.readNBytes(ERROR_BYTES), StandardCharsets.UTF_8));
                            throw codec.failure(status, resp.headers(), text);
                        }
                        return reader.read(resp, body);
                    } catch (ProviderException e) {
                        throw new CompletionException(e);
                    } catch (IOException e) {
                        throw new CompletionException(new ProviderException(ProviderException.Kind.TRANSPORT,
                                "the batch API's answer was cut short or is not JSON: " + codec.redact(String.valueOf(e.getMessage()))));
                    }
                }, READERS);
    }

    private ProviderException transportFailure(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof HttpTimeoutException) {
            return new ProviderException(ProviderException.Kind.TIMEOUT, "no answer from the batch API within " + timeout);
        }
        return new ProviderException(ProviderException.Kind.TRANSPORT, "connection to the batch API failed: "
                + codec.redact(String.valueOf(e.getMessage())));
    }

    /**
     * An error a batch result carries for one request, as the realtime lane would read it: final when the provider
     * answered this request (a 4xx of its own, a refusal) or the key is wrong, else the request goes back to the queue
     * (errored at the provider's side: 5xx, 429).
     */
    static BatchOutcome errored(ProviderCodec codec, String customId, int status, JsonNode errorBody) {
        ProviderException f = codec.failure(status, java.net.http.HttpHeaders.of(java.util.Map.of(), (a, b) -> true),
                codec.redact(errorBody.toString()));
        if (f.kind().answered() || f.kind() == ProviderException.Kind.CONFIGURATION) {
            return new BatchOutcome.Failed(customId, f);
        }
        return new BatchOutcome.Unanswered(customId, BatchOutcome.Why.ERRORED, f.getMessage());
    }

    /** A successful result's body parsed by the realtime client's parser: an answer, or the refusal/malformed failure. */
    static BatchOutcome answered(ProviderCodec codec, String customId, JsonNode body) {
        try {
            return new BatchOutcome.Answered(customId, codec.answer(body));
        } catch (ProviderException e) {
            return new BatchOutcome.Failed(customId, e);
        }
    }
}
