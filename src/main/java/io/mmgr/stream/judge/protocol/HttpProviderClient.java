package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** The HTTP and error handling both protocols share: status classes, Retry-After, bodies that are not JSON. */
abstract class HttpProviderClient implements ProviderClient {

    static final ObjectMapper JSON = new ObjectMapper();
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

    /** The request for a call (URL, headers with the key), without its body. */
    abstract HttpRequest.Builder request(ProviderCall call) throws IOException;

    /** The JSON body of a call. */
    abstract byte[] body(ProviderCall call) throws IOException;

    /** The answer in a 200 body; throws MALFORMED or REFUSED. */
    abstract ProviderReply reply(JsonNode body) throws ProviderException;

    @Override
    public CompletableFuture<ProviderReply> send(ProviderCall call, Runnable onWire) {
        HttpRequest req;
        try {
            // the time limiter is the real deadline; this only stops a lost exchange from living forever
            req = request(call).timeout(requestTimeout).POST(notifying(body(call), onWire)).build();
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new ProviderException(ProviderException.Kind.REJECTED,
                    "cannot encode the request: " + e.getMessage()));
        }
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray())
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
        if (e instanceof HttpTimeoutException) {
            return new ProviderException(ProviderException.Kind.TIMEOUT, "no answer within " + requestTimeout);
        }
        return new ProviderException(ProviderException.Kind.TRANSPORT,
                "connection failed or the answer was cut short: " + key.redact(String.valueOf(e.getMessage())));
    }

    private ProviderReply handle(HttpResponse<byte[]> resp) throws ProviderException {
        int status = resp.statusCode();
        String body = key.redact(new String(resp.body(), StandardCharsets.UTF_8));
        if (status == 200) {
            JsonNode node;
            try {
                node = JSON.readTree(body);
            } catch (IOException e) {
                throw new ProviderException(ProviderException.Kind.MALFORMED, status,
                        "the answer body is not JSON (" + firstLine(e.getMessage()) + ")", null, snippet(body));
            }
            if (node == null || !node.isObject()) {
                throw new ProviderException(ProviderException.Kind.MALFORMED, status, "the answer body is not a JSON object",
                        null, snippet(body));
            }
            return reply(node);
        }
        String message = "HTTP " + status + ": " + snippet(body);
        if (status == 429) {
            throw new ProviderException(ProviderException.Kind.RATE_LIMITED, status, message,
                    retryAfter(resp.headers().firstValue("Retry-After").orElse(null)), snippet(body));
        }
        if (status >= 500) {
            throw new ProviderException(ProviderException.Kind.SERVER, status, message,
                    retryAfter(resp.headers().firstValue("Retry-After").orElse(null)), snippet(body));
        }
        if (status == 401 || status == 403 || status == 404) {
            throw new ProviderException(ProviderException.Kind.CONFIGURATION, status, message, null, snippet(body));
        }
        if (status == 408) {
            throw new ProviderException(ProviderException.Kind.TIMEOUT, status, message, null, snippet(body));
        }
        throw new ProviderException(ProviderException.Kind.REJECTED, status, message, null, snippet(body));
    }

    /** Retry-After in seconds or as an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
    static Duration retryAfter(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip();
        try {
            double seconds = Double.parseDouble(v);
            return seconds < 0 ? null : Duration.ofMillis((long) (seconds * 1000));
        } catch (NumberFormatException e) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration d = Duration.between(ZonedDateTime.now(at.getZone()), at);
                return d.isNegative() ? Duration.ZERO : d;
            } catch (RuntimeException e2) {
                return null;
            }
        }
    }

    static String snippet(String body) {
        String s = body == null ? "" : body.strip();
        return s.length() <= SNIPPET ? s : s.substring(0, SNIPPET) + "...";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
