package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.json.JsonErrors;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** The HTTP and error handling every protocol shares: status classes, retry hints, bodies that are not JSON. */
abstract class HttpProviderClient implements ProviderClient, ProviderCodec {

    /** Provider envelopes are read within {@link ProviderJson}'s limits. */
    static final ObjectMapper JSON = ProviderJson.MAPPER;
    private static final int SNIPPET = 500;

    protected final URI baseUrl;
    protected final ApiKey key;
    private final HttpClient http;
    private final Duration requestTimeout;

    HttpProviderClient(URI baseUrl, ApiKey key, Duration requestTimeout) {
        String s = baseUrl.toString();
        this.baseUrl = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
        this.key = key;
        this.requestTimeout = requestTimeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** Videos go as frames unless a protocol takes them whole (Gemini). */
    @Override
    public boolean acceptsVideo() {
        return false;
    }

    /** The request for a call (URL, headers with the key), without its body. */
    abstract HttpRequest.Builder request(ProviderCall call) throws IOException;

    /** The JSON body of a call. */
    abstract ObjectNode requestJson(ProviderCall call) throws IOException;

    /** The answer in a 200 body; throws MALFORMED or REFUSED. */
    abstract ProviderReply reply(JsonNode body) throws ProviderException;

    @Override
    public CompletableFuture<ProviderReply> send(ProviderCall call, Runnable onWire) {
        HttpRequest req;
        try {
            // the time limiter is the real deadline; this only stops a lost exchange from living forever
            req = request(call).header("Content-Type", "application/json").timeout(requestTimeout)
                    .POST(notifying(JSON.writeValueAsBytes(requestJson(call)), onWire)).build();
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new ProviderException(ProviderException.Kind.REJECTED,
                    "cannot encode the request: " + e.getMessage()));
        }
        return http.sendAsync(req, BoundedBody::new)
                .handle((resp, error) -> {
                    if (error != null) {
                        throw new CompletionException(transportFailure(error));
                    }
                    try {
                        return handle(resp);
                    } catch (ProviderException e) {
                        throw new CompletionException(e);
                    }
                });
    }

    /** The body, telling {@code onWire} when the client subscribes to it, i.e. starts writing it. */
    private static HttpRequest.BodyPublisher notifying(byte[] body, Runnable onWire) {
        HttpRequest.BodyPublisher inner = HttpRequest.BodyPublishers.ofByteArray(body);
        return new HttpRequest.BodyPublisher() {
            @Override
            public long contentLength() {
                return inner.contentLength();
            }

            @Override
            public void subscribe(java.util.concurrent.Flow.Subscriber<? super java.nio.ByteBuffer> subscriber) {
                onWire.run();
                inner.subscribe(subscriber);
            }
        };
    }

    private ProviderException transportFailure(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof ProviderException p) {
            return p;
        }
        if (e instanceof HttpTimeoutException) {
            return new ProviderException(ProviderException.Kind.TIMEOUT, "no answer within " + requestTimeout);
        }
        return new ProviderException(ProviderException.Kind.TRANSPORT,
                "connection failed or the answer was cut short: " + key.redact(String.valueOf(e.getMessage())));
    }

    @Override
    public URI baseUrl() {
        return baseUrl;
    }

    @Override
    public String redact(String text) {
        return key.redact(text);
    }

    @Override
    public ObjectNode requestBody(ProviderCall call) throws IOException {
        return requestJson(call);
    }

    @Override
    public ProviderReply answer(JsonNode body) throws ProviderException {
        if (body == null || !body.isObject()) {
            throw new ProviderException(ProviderException.Kind.MALFORMED, 200, "the answer body is not a JSON object",
                    null, snippet(body == null ? "" : body.toString()));
        }
        return reply(body);
    }

    private ProviderReply handle(HttpResponse<byte[]> resp) throws ProviderException {
        int status = resp.statusCode();
        String body = key.redact(new String(resp.body(), StandardCharsets.UTF_8));
        if (status != 200) {
            throw failure(status, resp.headers(), body);
        }
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (IOException e) {
            // past the read limits no answer a rubric needs is like it: final; anything else may be a proxy's page
            boolean limit = e instanceof StreamConstraintsException || e.getCause() instanceof StreamConstraintsException;
            throw new ProviderException(limit ? ProviderException.Kind.OVERSIZED : ProviderException.Kind.MALFORMED, status,
                    "the answer body is not JSON (" + JsonErrors.describe(e) + ")", null, snippet(body));
        }
        return answer(node);
    }

    @Override
    public ProviderException failure(int status, HttpHeaders headers, String body) {
        JsonNode error = errorBody(body);
        ProviderException.Kind kind = classify(status, error);
        String named = explain(status, error);
        String message = (named == null ? "" : named + " (") + "HTTP " + status + ": " + snippet(body) + (named == null ? "" : ")");
        RetryHints.Hint hint = kind == ProviderException.Kind.RATE_LIMITED || kind == ProviderException.Kind.SERVER
                ? hint(headers, error) : null;
        return new ProviderException(kind, status, message, hint, snippet(body));
    }

    /** An error body as JSON, or null when it is not JSON. */
    private static JsonNode errorBody(String body) {
        try {
            JsonNode n = JSON.readTree(body);
            return n != null && n.isObject() ? n : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The kind of a non-200 answer; protocols refine it from their error bodies. */
    ProviderException.Kind classify(int status, JsonNode error) {
        if (status == 429) {
            return ProviderException.Kind.RATE_LIMITED;
        }
        if (status >= 500) {
            return ProviderException.Kind.SERVER;
        }
        if (status == 401 || status == 403 || status == 404) {
            return ProviderException.Kind.CONFIGURATION;
        }
        if (status == 408) {
            return ProviderException.Kind.TIMEOUT;
        }
        return ProviderException.Kind.REJECTED;
    }

    /** A name for a non-200 answer that its status alone does not give (e.g. Azure's content filter), or null. */
    String explain(int status, JsonNode error) {
        return null;
    }

    /** The wait a 429 or 5xx announces; {@code Retry-After} here, protocols add their own. */
    RetryHints.Hint hint(HttpHeaders headers, JsonNode error) {
        return RetryHints.retryAfterHeader(headers.firstValue("Retry-After").orElse(null));
    }

    /**
     * A response body of at most {@link #MAX_BODY_BYTES}: a declared Content-Length over it fails before
     * any byte is read, a longer body (chunked, or lying about its length) is cut off where it passes
     * the limit and its transfer cancelled. Either fails the call as OVERSIZED: an answer, final (no
     * rubric answer comes near the limit, and asking again would read the same runaway text).
     */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final long declared;
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        private java.util.concurrent.Flow.Subscription subscription;

        BoundedBody(HttpResponse.ResponseInfo info) {
            this.declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            if (declared > MAX_BODY_BYTES) {
                s.cancel();
                result.completeExceptionally(tooLarge("declares " + declared + " bytes"));
                return;
            }
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(java.util.List<java.nio.ByteBuffer> buffers) {
            if (result.isDone()) {
                return;
            }
            for (java.nio.ByteBuffer b : buffers) {
                if (bytes.size() + (long) b.remaining() > MAX_BODY_BYTES) {
                    subscription.cancel();
                    result.completeExceptionally(tooLarge("was cut off there"));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }

        @Override
        public java.util.concurrent.CompletionStage<byte[]> getBody() {
            return result;
        }

        private static ProviderException tooLarge(String what) {
            return new ProviderException(ProviderException.Kind.OVERSIZED, 0,
                    "the answer body is over the limit of " + MAX_BODY_BYTES + " bytes (it " + what + ")", null, null);
        }
    }

    /**
     * The user turn as content blocks, in order: texts as {@code {"type": "text", "text"}} (OpenAI's and Anthropic's
     * shape alike), each image as {@code image} writes it into a new block; a video part is refused (send frames).
     */
    static void textAndImages(ProviderCall call, ArrayNode content, String protocol,
                              java.util.function.BiConsumer<ObjectNode, ProviderCall.Media> image) throws IOException {
        for (ProviderCall.Part p : call.parts()) {
            if (p instanceof ProviderCall.Text t) {
                content.addObject().put("type", "text").put("text", t.text());
            } else if (p instanceof ProviderCall.Media m) {
                if (m.video()) {
                    throw new IOException("the " + protocol + " protocol takes no video parts; send frames");
                }
                image.accept(content.addObject(), m);
            }
        }
    }

    static String snippet(String body) {
        String s = body == null ? "" : body.strip();
        return s.length() <= SNIPPET ? s : s.substring(0, SNIPPET) + "...";
    }

    static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
