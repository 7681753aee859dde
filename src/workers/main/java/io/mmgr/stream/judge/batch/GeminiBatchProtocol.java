package io.mmgr.stream.judge.batch;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderCodec;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderJson;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Gemini's Batch Mode: {@code POST <base>/models/{model}:batchGenerateContent} with our local id as
 * {@code batch.display_name}; its requests inline ({@code input_config.requests.requests[]}, each {@code request} and
 * {@code metadata.key}) while the batch is within the documented 20 MB for inline requests, else a JSONL file of
 * {@code {"key", "request"}} lines uploaded through the Files API's resumable upload and named in
 * {@code input_config.file_name}. The request is the realtime GenerateContentRequest built by
 * {@link io.mmgr.stream.judge.protocol.GeminiClient}. The answer is a long-running operation named
 * {@code batches/...}; {@code GET <base>/batches/...} is polled until {@code metadata.state} is
 * {@code BATCH_STATE_SUCCEEDED}, {@code _FAILED}, {@code _CANCELLED} or {@code _EXPIRED} (the REST API's names; Google's
 * Python SDK shows them as {@code JOB_STATE_*}, which are read too). The results are the operation's
 * {@code response.inlinedResponses.inlinedResponses[]} (inline input) or its {@code response.responsesFile}
 * (file input, downloaded from {@code <root>/download/<version>/<file>:download?alt=media}), each a {@code response}
 * (parsed by the realtime parser) or an {@code error} (a google.rpc.Status, classified as the realtime lane would by its
 * {@code code}); both are read as streams, entry by entry. {@link #find} pages through {@code GET <base>/batches} for
 * the display name.
 */
public final class GeminiBatchProtocol implements BatchProtocol {

    /** The documented cap of a batch's inline requests; larger batches go as a file. */
    static final long INLINE_BYTES = 20L * 1024 * 1024;
    /**
     * Ours, not Gemini's (its documentation gives no request count, only the 2 GB input file): judge requests carry
     * images, so 10,000 of them stay well inside the file cap and the results stay a few hundred MB at most.
     */
    static final int MAX_REQUESTS = 10_000;
    /** Pages of {@code GET batches} (100 each) {@link #find} reads at most before it gives up (as OpenAI's does). */
    private static final int FIND_PAGES = 20;

    /**
     * Reads the operation as a stream: its inline answers may be far more than a realtime body, so it has no document
     * limit (Jackson's default limits on one string and on nesting still hold).
     */
    private static final ObjectMapper STREAM = new ObjectMapper();

    private final BatchHttp http;
    private final String root;
    private final String version;
    private final long inlineBytes;

    public GeminiBatchProtocol(BatchHttp http) {
        this(http, INLINE_BYTES);
    }

    /** {@code inlineBytes}: the size past which requests go as a file (tests lower it). */
    GeminiBatchProtocol(BatchHttp http, long inlineBytes) {
        if (http.codec().protocol() != JudgeProtocol.GEMINI) {
            throw new IllegalArgumentException("Gemini's batch API needs a Gemini codec, not " + http.codec().protocol());
        }
        this.http = http;
        // <root>/<version>: uploads and downloads live under <root>/upload/<version> and <root>/download/<version>
        URI u = http.codec().baseUrl();
        String path = u.getPath();
        int cut = path.lastIndexOf('/');
        this.version = path.substring(cut + 1);
        this.root = u.getScheme() + "://" + u.getRawAuthority() + path.substring(0, Math.max(0, cut));
        this.inlineBytes = inlineBytes;
    }

    @Override
    public JudgeProtocol protocol() {
        return JudgeProtocol.GEMINI;
    }

    @Override
    public int maxRequests() {
        return MAX_REQUESTS;
    }

    /**
     * A file-input line {@code {"key", "request"}}: the realtime GenerateContentRequest with its {@code model}
     * ({@code models/...}), which the batch reference requires of every request and {@link #create} reads for its URL.
     */
    @Override
    public BatchLine line(String customId, ProviderCall call) throws IOException {
        ObjectNode line = ProviderJson.MAPPER.createObjectNode().put("key", customId);
        ObjectNode request = http.codec().requestBody(call);
        request.put("model", "models/" + call.model());
        line.set("request", request);
        return new BatchLine(customId, line.toString());
    }

    @Override
    public CompletableFuture<String> create(String localId, List<BatchLine> lines) {
        if (lines.isEmpty() || lines.size() > MAX_REQUESTS) {
            return CompletableFuture.failedFuture(new ProviderException(ProviderException.Kind.REJECTED,
                    "a Gemini batch holds 1 to " + MAX_REQUESTS + " requests here; this one has " + lines.size()));
        }
        String model;
        try {
            model = STREAM.readTree(lines.get(0).json()).path("request").path("model").asText("").replaceFirst("^models/", "");
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new ProviderException(ProviderException.Kind.REJECTED, "a batch line is not JSON"));
        }
        long bytes = lines.stream().mapToLong(BatchLine::bytes).sum();
        String path = "/models/" + URLEncoder.encode(model, StandardCharsets.UTF_8).replace("%2F", "/") + ":batchGenerateContent";
        CompletableFuture<ObjectNode> input = bytes <= inlineBytes ? inline(lines)
                : upload(localId, lines).thenApply(file -> ProviderJson.MAPPER.createObjectNode().put("file_name", file));
        return input.thenCompose(in -> {
            ObjectNode body = ProviderJson.MAPPER.createObjectNode();
            body.putObject("batch").put("display_name", localId).set("input_config", in);
            return http.postJson(path, body);
        }).thenApply(op -> op.path("name").asText());
    }

    private static CompletableFuture<ObjectNode> inline(List<BatchLine> lines) {
        ObjectNode in = ProviderJson.MAPPER.createObjectNode();
        ArrayNode requests = in.putObject("requests").putArray("requests");
        try {
            for (BatchLine l : lines) {
                JsonNode line = STREAM.readTree(l.json());
                ObjectNode r = requests.addObject();
                r.set("request", line.get("request"));
                r.putObject("metadata").put("key", l.customId());
            }
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new ProviderException(ProviderException.Kind.REJECTED, "a batch line is not JSON: "
                    + e.getMessage()));
        }
        return CompletableFuture.completedFuture(in);
    }

    /** The Files API's resumable upload: a start naming the size and type, then the bytes with {@code upload, finalize}. */
    private CompletableFuture<String> upload(String localId, List<BatchLine> lines) {
        StringBuilder jsonl = new StringBuilder();
        lines.forEach(l -> jsonl.append(l.json()).append('\n'));
        byte[] bytes = jsonl.toString().getBytes(StandardCharsets.UTF_8);
        ObjectNode meta = ProviderJson.MAPPER.createObjectNode();
        meta.putObject("file").put("display_name", localId);
        HttpRequest start = http.requestTo(root + "/upload/" + version + "/files").header("Content-Type", "application/json")
                .header("X-Goog-Upload-Protocol", "resumable").header("X-Goog-Upload-Command", "start")
                .header("X-Goog-Upload-Header-Content-Length", Integer.toString(bytes.length))
                .header("X-Goog-Upload-Header-Content-Type", "application/jsonl")
                .POST(HttpRequest.BodyPublishers.ofString(meta.toString())).build();
        return http.stream(start, (resp, body) -> resp.headers().firstValue("X-Goog-Upload-URL").orElseThrow(() ->
                        new ProviderException(ProviderException.Kind.MALFORMED, "the Files API gave no upload URL")))
                .thenCompose(uploadUrl -> http.json(http.requestTo(uploadUrl).header("X-Goog-Upload-Offset", "0")
                        .header("X-Goog-Upload-Command", "upload, finalize").POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build()))
                .thenApply(file -> file.path("file").path("name").asText());
    }

    @Override
    public CompletableFuture<BatchStatus> poll(String providerId) {
        // the operation of a finished inline batch holds every answer: its head is read, the answers skipped
        return http.stream(http.request("/" + providerId).GET().build(), (resp, body) -> head(body)).thenApply(GeminiBatchProtocol::status);
    }

    /** The operation without its answers. */
    private static ObjectNode head(InputStream body) throws IOException {
        try (JsonParser p = STREAM.getFactory().createParser(body)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            return headOf(p);
        }
    }

    private static void expect(JsonToken got, JsonToken wanted) throws IOException {
        if (got != wanted) {
            throw new IOException("expected " + wanted + " but got " + got);
        }
    }

    static BatchStatus status(JsonNode op) {
        JsonNode meta = op.path("metadata");
        String state = meta.path("state").asText("");
        // the REST API's BATCH_STATE_*; Google's Python SDK renames them JOB_STATE_*
        String plain = state.replaceFirst("^(BATCH|JOB)_STATE_", "");
        BatchStatus.State s = switch (plain) {
            case "SUCCEEDED" -> BatchStatus.State.ENDED;
            case "FAILED" -> BatchStatus.State.FAILED;
            case "CANCELLED" -> BatchStatus.State.CANCELLED;
            case "EXPIRED" -> BatchStatus.State.EXPIRED;
            default -> BatchStatus.State.IN_PROGRESS;
        };
        JsonNode stats = meta.path("batchStats");
        // int64 counts travel as strings in Google's JSON mapping
        BatchStatus.Counts counts = new BatchStatus.Counts(stats.path("requestCount").asLong(0),
                stats.path("successfulRequestCount").asLong(0), stats.path("failedRequestCount").asLong(0));
        String file = op.path("response").path("responsesFile").asText("");
        String error = op.path("error").path("message").asText("");
        return new BatchStatus(op.path("name").asText(), meta.path("displayName").asText(null), s, counts,
                file.isEmpty() ? List.of() : List.of(file), state + (error.isEmpty() ? "" : ": " + error));
    }

    @Override
    public CompletableFuture<Void> results(BatchStatus ended, Consumer<BatchOutcome> sink) {
        ProviderCodec codec = http.codec();
        if (!ended.resultRefs().isEmpty()) {
            String url = root + "/download/" + version + "/" + ended.resultRefs().get(0) + ":download?alt=media";
            return http.lines(http.requestTo(url).GET().build(), line -> {
                try {
                    JsonNode l = ProviderJson.MAPPER.readTree(line);
                    sink.accept(outcome(codec, l.path("key").asText(), l));
                } catch (IOException e) {
                    throw new CompletionException(new ProviderException(ProviderException.Kind.MALFORMED, 200,
                            "a responses line is not JSON: " + e.getMessage(), null, null));
                }
            });
        }
        return http.stream(http.request("/" + ended.providerId()).GET().build(), (resp, body) -> {
            inlined(body, item -> sink.accept(outcome(codec, item.path("metadata").path("key").asText(), item)));
            return null;
        });
    }

    /** Streams the operation's {@code response.inlinedResponses.inlinedResponses[]}, one item at a time. */
    private static void inlined(InputStream body, Consumer<JsonNode> item) throws IOException {
        try (JsonParser p = STREAM.getFactory().createParser(body)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (!name.equals("response")) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    p.nextToken();
                    if (!field.equals("inlinedResponses")) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String inner = p.currentName();
                        if (p.nextToken() == JsonToken.START_ARRAY && inner.equals("inlinedResponses")) {
                            while (p.nextToken() == JsonToken.START_OBJECT) {
                                item.accept(STREAM.readTree(p));
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                }
            }
        }
    }

    private static BatchOutcome outcome(ProviderCodec codec, String key, JsonNode result) {
        if (result.has("response")) {
            return BatchResults.answered(codec, key, result.get("response"));
        }
        JsonNode error = result.path("error");
        int code = error.path("code").asInt(500);
        ObjectNode body = STREAM.createObjectNode();
        body.set("error", error);
        // a Status in a batch result carries the HTTP-style code the realtime API would have answered with
        return BatchResults.failed(codec, key, code >= 400 ? code : 500, body);
    }

    @Override
    public CompletableFuture<Optional<BatchStatus>> find(LocalBatch local) {
        return page(local, null, 0);
    }

    private CompletableFuture<Optional<BatchStatus>> page(LocalBatch local, String token, int pages) {
        String url = "/batches?pageSize=100" + (token == null ? "" : "&pageToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
        return http.stream(http.request(url).GET().build(), (resp, body) -> {
            // operations are read one by one, their answers skipped: a list may hold finished inline batches
            List<ObjectNode> ops = new ArrayList<>();
            String next = null;
            try (JsonParser p = STREAM.getFactory().createParser(body)) {
                expect(p.nextToken(), JsonToken.START_OBJECT);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken t = p.nextToken();
                    if (name.equals("operations") && t == JsonToken.START_ARRAY) {
                        while (p.nextToken() == JsonToken.START_OBJECT) {
                            ops.add(headOf(p));
                        }
                    } else if (name.equals("nextPageToken")) {
                        next = p.getText();
                    } else {
                        p.skipChildren();
                    }
                }
            }
            for (ObjectNode op : ops) {
                if (local.localId().equals(op.path("metadata").path("displayName").asText())) {
                    return new Found(Optional.of(status(op)), null);
                }
            }
            return new Found(Optional.empty(), next);
        }).thenCompose(f -> f.next() == null || pages + 1 >= FIND_PAGES ? CompletableFuture.completedFuture(f.status())
                : page(local, f.next(), pages + 1));
    }

    private record Found(Optional<BatchStatus> status, String next) {
    }

    /**
     * The operation at the parser (past its START_OBJECT) without its answers: {@code response} keeps only its
     * {@code responsesFile}, {@code metadata} loses its {@code output}; both are skipped as they stream by.
     */
    private static ObjectNode headOf(JsonParser p) throws IOException {
        ObjectNode op = STREAM.createObjectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if ((name.equals("response") || name.equals("metadata")) && t == JsonToken.START_OBJECT) {
                ObjectNode part = op.putObject(name);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    p.nextToken();
                    boolean keep = name.equals("metadata") ? !field.equals("output") : field.equals("responsesFile");
                    if (keep) {
                        part.set(field, STREAM.readTree(p));
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                op.set(name, STREAM.readTree(p));
            }
        }
        return op;
    }

    @Override
    public CompletableFuture<Void> cancel(String providerId) {
        return http.postJson("/" + providerId + ":cancel", ProviderJson.MAPPER.createObjectNode()).thenApply(b -> null);
    }
}
