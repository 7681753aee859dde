package io.mmgr.stream.judge.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderCodec;
import io.mmgr.stream.judge.protocol.ProviderException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The HTTP every batch protocol shares: JSON control calls (create, poll, list, cancel) whose failures are
 * classified by the realtime client's {@link ProviderCodec#failure}, and results files streamed line by line
 * (a results file may be many times one realtime answer's size limit; no line may pass it).
 */
public final class BatchHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ProviderCodec codec;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final Executor reader;

    /**
     * @param reader where results files are read (a blocking read of a stream, so never a stream or consumer thread)
     */
    public BatchHttp(ProviderCodec codec, Duration requestTimeout, Executor reader) {
        this.codec = codec;
        this.requestTimeout = requestTimeout;
        this.reader = reader;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).version(HttpClient.Version.HTTP_1_1).build();
    }

    public ProviderCodec codec() {
        return codec;
    }

    /** A request to {@code <base><path>} with the key's headers. */
    public HttpRequest.Builder request(String path) {
        return codec.authorize(HttpRequest.newBuilder(URI.create(codec.baseUrl() + path))).timeout(requestTimeout);
    }

    /** POSTs a JSON body; completes with the JSON answer. */
    public CompletableFuture<JsonNode> postJson(String path, JsonNode body) {
        return json(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
    }

    public CompletableFuture<JsonNode> get(String path) {
        return json(request(path).GET().build());
    }

    /** Sends a request whose 2xx answer is a JSON document; any other status fails as the realtime lane classifies it. */
    public CompletableFuture<JsonNode> json(HttpRequest req) {
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).handle((resp, error) -> {
            if (error != null) {
                throw new CompletionException(transport(error));
            }
            String body = codec.redact(resp.body());
            if (resp.statusCode() / 100 != 2) {
                throw new CompletionException(codec.failure(resp.statusCode(), resp.headers(), body));
            }
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new CompletionException(new ProviderException(ProviderException.Kind.MALFORMED, resp.statusCode(),
                        "the answer of " + req.uri().getPath() + " is not JSON", null, null));
            }
        });
    }

    /** A request to an absolute URL the provider gave (a results URL, an upload or download URL), with the key's headers. */
    public HttpRequest.Builder requestTo(String url) {
        return codec.authorize(HttpRequest.newBuilder(URI.create(url))).timeout(requestTimeout);
    }

    /**
     * GETs a JSON Lines document and hands each non-blank line to {@code each}, reading on the reader executor as
     * the bytes come (chunked or not). A line longer than a realtime answer may be fails the read as OVERSIZED.
     */
    public CompletableFuture<Void> lines(String path, Consumer<String> each) {
        return lines(request(path).GET().build(), each);
    }

    /** {@link #lines(String, Consumer)} for any request (e.g. to a results URL the provider gave). */
    public CompletableFuture<Void> lines(HttpRequest req, Consumer<String> each) {
        return stream(req, (resp, in) -> {
            readLines(in, each);
            return null;
        });
    }

    /** Reads a 2xx answer as it streams in. */
    @FunctionalInterface
    public interface StreamReader<T> {
        T read(HttpResponse<InputStream> response, InputStream body) throws IOException, ProviderException;
    }

    /**
     * Sends a request and reads its 2xx answer with {@code read} on the reader executor, as the bytes come (a body may
     * be far larger than a realtime answer); any other status fails as the realtime lane classifies it.
     */
    public <T> CompletableFuture<T> stream(HttpRequest req, StreamReader<T> read) {
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofInputStream()).handle((resp, error) -> {
            if (error != null) {
                throw new CompletionException(transport(error));
            }
            return resp;
        }).thenApplyAsync(resp -> {
            try (InputStream in = resp.body()) {
                if (resp.statusCode() / 100 != 2) {
                    String body = codec.redact(new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8));
                    throw new CompletionException(codec.failure(resp.statusCode(), resp.headers(), body));
                }
                return read.read(resp, in);
            } catch (ProviderException e) {
                throw new CompletionException(e);
            } catch (IOException e) {
                throw new CompletionException(transport(e));
            }
        }, reader);
    }

    private static void readLines(InputStream in, Consumer<String> each) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 64 * 1024);
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = r.read()) != -1) {
            if (c == '\n') {
                emit(line, each);
                continue;
            }
            if (line.length() >= ProviderClient.MAX_BODY_BYTES) {
                throw new CompletionException(new ProviderException(ProviderException.Kind.OVERSIZED, 200,
                        "a results line is over the limit of " + ProviderClient.MAX_BODY_BYTES + " characters", null, null));
            }
            line.append((char) c);
        }
        emit(line, each);
    }

    private static void emit(StringBuilder line, Consumer<String> each) {
        String s = line.toString().strip();
        line.setLength(0);
        if (!s.isEmpty()) {
            each.accept(s);
        }
    }

    private ProviderException transport(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof ProviderException p) {
            return p;
        }
        if (e instanceof UncheckedIOException u) {
            e = u.getCause();
        }
        if (e instanceof HttpTimeoutException) {
            return new ProviderException(ProviderException.Kind.TIMEOUT, "no answer within " + requestTimeout);
        }
        return new ProviderException(ProviderException.Kind.TRANSPORT,
                "connection failed or the answer was cut short: " + codec.redact(String.valueOf(e.getMessage())));
    }

    /** A multipart/form-data body: text fields, then one file. */
    public static HttpRequest.BodyPublisher multipart(String boundary, java.util.Map<String, String> fields, String fileField,
                                                      String fileName, String fileType, byte[] file) {
        StringBuilder head = new StringBuilder();
        fields.forEach((k, v) -> head.append("--").append(boundary).append("\r\n")
                .append("Content-Disposition: form-data; name=\"").append(k).append("\"\r\n\r\n").append(v).append("\r\n"));
        head.append("--").append(boundary).append("\r\n")
                .append("Content-Disposition: form-data; name=\"").append(fileField).append("\"; filename=\"").append(fileName)
                .append("\"\r\n").append("Content-Type: ").append(fileType).append("\r\n\r\n");
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        return HttpRequest.BodyPublishers.concat(HttpRequest.BodyPublishers.ofString(head.toString()),
                HttpRequest.BodyPublishers.ofByteArray(file), HttpRequest.BodyPublishers.ofByteArray(tail));
    }
}
