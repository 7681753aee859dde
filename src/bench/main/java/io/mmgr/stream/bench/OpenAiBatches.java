package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenAI's Batch API as its documentation (platform.openai.com/docs/guides/batch, API reference "Batch" and
 * "Files") describes it, served by a {@link ScriptedVlmServer} under {@code /v1/files} and {@code /v1/batches}:
 * a JSONL upload (multipart, {@code purpose=batch}), a batch that goes {@code validating}, {@code in_progress},
 * {@code finalizing} and ends {@code completed}, {@code expired}, {@code cancelled} or {@code failed} (a duplicate
 * {@code custom_id} or a line for another endpoint fails validation), output and error files in an order other
 * than the input's and served chunked. Each line is answered by the server's script exactly as the realtime call
 * of the same body would be ({@link ScriptedVlmServer#answerLine}): a 200 goes to the output file, any other
 * status to the error file with its response; a line the window or a cancel kept from running is an error-file
 * line with {@code batch_expired} or {@code batch_cancelled}. How each batch runs is its {@link Plan}, unless a
 * {@link #hold} keeps it in progress; it can also refuse batch creation with OpenAI's 429. It counts how often each
 * custom id was submitted and billed (a line answered 200 is billed), for the no-double-billing checks.
 */
public final class OpenAiBatches implements ScriptedBatchApi {

    /** How the nth batch (0-based, in creation order) runs. */
    public record Plan(Duration runFor, End end, int ran, int padLineTo) {

        public enum End { COMPLETED, EXPIRED, CANCELLED_BY_PROVIDER, FAILED }

        /** Every line answered once {@code runFor} has passed since creation. */
        public static Plan completeAfter(Duration runFor) {
            return new Plan(runFor, End.COMPLETED, Integer.MAX_VALUE, 0);
        }

        /** The 24 h window "passes" after {@code runFor}: the first {@code ran} lines answered, the rest {@code batch_expired}. */
        public static Plan expireAfter(Duration runFor, int ran) {
            return new Plan(runFor, End.EXPIRED, ran, 0);
        }

        /** Cancelled on the provider's side (e.g. in the dashboard) after {@code runFor}, having run the first {@code ran} lines. */
        public static Plan cancelledAfter(Duration runFor, int ran) {
            return new Plan(runFor, End.CANCELLED_BY_PROVIDER, ran, 0);
        }

        /** Fails as a whole (OpenAI's validation failure): no results at all. */
        public static Plan failing() {
            return new Plan(Duration.ZERO, End.FAILED, 0, 0);
        }

        /** The same plan with every results line padded (JSON whitespace) to at least {@code bytes}. */
        public Plan padded(int bytes) {
            return new Plan(runFor, end, ran, bytes);
        }
    }

    private static final Pattern BATCH = Pattern.compile("/v1/batches/([^/]+)(/cancel)?");
    private static final Pattern FILE = Pattern.compile("/v1/files/([^/]+)/content");
    private static final String ENDPOINT = "/v1/chat/completions";

    private final ScriptedVlmServer server;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, Batch> batches = new LinkedHashMap<>();
    private final Map<String, AtomicInteger> submitted = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> billed = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicInteger refuseCreations = new AtomicInteger();
    private final AtomicInteger refusedCreations = new AtomicInteger();
    private volatile IntFunction<Plan> plans = n -> Plan.completeAfter(Duration.ZERO);
    private volatile boolean held;

    OpenAiBatches(ScriptedVlmServer server) {
        this.server = server;
    }

    /** How each batch runs from now on, by its creation ordinal. */
    public void plan(IntFunction<Plan> next) {
        this.plans = next;
    }

    /** The next {@code n} batch creations are refused with OpenAI's 429 (the upload itself is accepted). */
    public void refuseCreations(int n) {
        refuseCreations.set(n);
    }

    public int refusedCreations() {
        return refusedCreations.get();
    }

    @Override
    public void hold(boolean held) {
        this.held = held;
    }

    /** How many batches each custom id was created in. */
    public Map<String, Integer> submitted() {
        return counts(submitted);
    }

    /** How many times each custom id was billed (answered 200 in a batch's output). */
    public Map<String, Integer> billed() {
        return counts(billed);
    }

    public synchronized int batchesCreated() {
        return batches.size();
    }

    /** The ids of the batches created, in order. */
    public synchronized List<String> batchIds() {
        return List.copyOf(batches.keySet());
    }

    private static Map<String, Integer> counts(Map<String, AtomicInteger> m) {
        Map<String, Integer> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, v.get()));
        return Map.copyOf(out);
    }

    void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            byte[] raw = ex.getRequestBody().readAllBytes();
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            if (auth == null || !auth.startsWith("Bearer ")) {
                send(ex, ProviderAnswers.unauthorized(JudgeProtocol.OPENAI, auth));
                return;
            }
            Matcher file = FILE.matcher(path);
            Matcher batch = BATCH.matcher(path);
            if (path.equals("/v1/files") && method.equals("POST")) {
                upload(ex, raw);
            } else if (file.matches() && method.equals("GET")) {
                content(ex, file.group(1));
            } else if (path.equals("/v1/batches") && method.equals("POST")) {
                create(ex, ProviderAnswers.JSON.readTree(raw));
            } else if (path.equals("/v1/batches") && method.equals("GET")) {
                list(ex, ex.getRequestURI().getQuery());
            } else if (batch.matches() && batch.group(2) == null && method.equals("GET")) {
                retrieve(ex, batch.group(1));
            } else if (batch.matches() && batch.group(2) != null && method.equals("POST")) {
                cancel(ex, batch.group(1));
            } else {
                send(ex, ProviderAnswers.Reply.json(404, ProviderAnswers.openAiError("Invalid URL (" + method + " " + path + ")",
                        "invalid_request_error", null, null)));
            }
        }
    }

    /** {@code POST /v1/files}: multipart with {@code purpose} and {@code file}. */
    private void upload(HttpExchange ex, byte[] raw) throws IOException {
        String type = String.valueOf(ex.getRequestHeaders().getFirst("Content-Type"));
        int at = type.indexOf("boundary=");
        Map<String, byte[]> parts = at < 0 ? Map.of() : multipart(raw, type.substring(at + 9));
        byte[] purpose = parts.get("purpose");
        if (purpose == null || !new String(purpose, StandardCharsets.UTF_8).equals("batch") || !parts.containsKey("file")) {
            send(ex, ProviderAnswers.Reply.json(400, ProviderAnswers.openAiError("'purpose' and 'file' are required; purpose must be"
                    + " 'batch' for batch input", "invalid_request_error", "purpose", null)));
            return;
        }
        String id = "file-" + ids.incrementAndGet();
        files.put(id, parts.get("file"));
        ObjectNode f = ProviderAnswers.JSON.createObjectNode().put("id", id).put("object", "file")
                .put("bytes", parts.get("file").length).put("created_at", now()).put("filename", "input.jsonl").put("purpose", "batch");
        send(ex, ProviderAnswers.Reply.json(200, f));
    }

    /** The parts of a multipart/form-data body by field name (bytes kept as sent). */
    private static Map<String, byte[]> multipart(byte[] raw, String boundary) {
        String body = new String(raw, StandardCharsets.ISO_8859_1);
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String part : body.split("--" + Pattern.quote(boundary))) {
            int head = part.indexOf("\r\n\r\n");
            Matcher name = Pattern.compile("name=\"([^\"]+)\"").matcher(part);
            if (head < 0 || !name.find() || name.start() > head) {
                continue;
            }
            String value = part.substring(head + 4);
            value = value.endsWith("\r\n") ? value.substring(0, value.length() - 2) : value;
            out.put(name.group(1), value.getBytes(StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    private void create(HttpExchange ex, JsonNode req) throws IOException {
        if (refuseCreations.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            refusedCreations.incrementAndGet();
            send(ex, ProviderAnswers.rateLimited(JudgeProtocol.OPENAI, "batch", 60, Duration.ofMillis(500), true));
            return;
        }
        byte[] input = files.get(req.path("input_file_id").asText(""));
        if (input == null || !ENDPOINT.equals(req.path("endpoint").asText()) || !"24h".equals(req.path("completion_window").asText())) {
            send(ex, ProviderAnswers.Reply.json(400, ProviderAnswers.openAiError("input_file_id must name an uploaded file, endpoint "
                    + "must be " + ENDPOINT + " and completion_window 24h", "invalid_request_error", null, null)));
            return;
        }
        Batch b;
        synchronized (this) {
            b = new Batch("batch_" + ids.incrementAndGet(), req.path("input_file_id").asText(), req.path("metadata"),
                    plans.apply(batches.size()), now(), System.nanoTime());
            b.lines = lines(input, b);
            batches.put(b.id, b);
        }
        if (b.failure == null) {
            for (Line l : b.lines) {
                submitted.computeIfAbsent(l.customId, k -> new AtomicInteger()).incrementAndGet();
            }
        }
        send(ex, ProviderAnswers.Reply.json(200, b.json()));
    }

    /** The input file's lines; a duplicate custom id or a line for another endpoint fails the batch (validation). */
    private static List<Line> lines(byte[] input, Batch b) throws IOException {
        List<Line> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String s : new String(input, StandardCharsets.UTF_8).split("\n")) {
            if (s.isBlank()) {
                continue;
            }
            JsonNode n = ProviderAnswers.JSON.readTree(s);
            String id = n.path("custom_id").asText("");
            if (!seen.add(id)) {
                b.failure = new String[] {"duplicate_custom_id", "The custom_id for this request is a duplicate of another request."};
            } else if (!ENDPOINT.equals(n.path("url").asText())) {
                b.failure = new String[] {"invalid_url", "The URL provided for this request does not match the batch endpoint."};
            }
            out.add(new Line(id, n.path("body")));
        }
        if (out.isEmpty()) {
            b.failure = new String[] {"empty_file", "The batch input file is empty."};
        }
        return out;
    }

    private void retrieve(HttpExchange ex, String id) throws IOException {
        Batch b = batch(ex, id);
        if (b != null) {
            b.advance();
            send(ex, ProviderAnswers.Reply.json(200, b.json()));
        }
    }

    private void cancel(HttpExchange ex, String id) throws IOException {
        Batch b = batch(ex, id);
        if (b != null) {
            b.cancelByUser();
            send(ex, ProviderAnswers.Reply.json(200, b.json()));
        }
    }

    /** The batch, or null once OpenAI's 404 for an unknown id is sent. */
    private Batch batch(HttpExchange ex, String id) throws IOException {
        Batch b;
        synchronized (this) {
            b = batches.get(id);
        }
        if (b == null) {
            send(ex, ProviderAnswers.Reply.json(404, ProviderAnswers.openAiError("No batch found with id '" + id + "'.",
                    "invalid_request_error", "id", null)));
        }
        return b;
    }

    /** {@code GET /v1/batches?limit&after}: newest first, paged by the last id seen. */
    private void list(HttpExchange ex, String query) throws IOException {
        int limit = 20;
        String after = null;
        for (String pair : query == null ? new String[0] : query.split("&")) {
            if (pair.startsWith("limit=")) {
                limit = Math.max(1, Math.min(100, Integer.parseInt(pair.substring(6))));
            } else if (pair.startsWith("after=")) {
                after = java.net.URLDecoder.decode(pair.substring(6), StandardCharsets.UTF_8);
            }
        }
        List<Batch> all;
        synchronized (this) {
            all = new ArrayList<>(batches.values());
        }
        Collections.reverse(all);
        int from = 0;
        if (after != null) {
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).id.equals(after)) {
                    from = i + 1;
                }
            }
        }
        ObjectNode page = ProviderAnswers.JSON.createObjectNode().put("object", "list");
        ArrayNode data = page.putArray("data");
        int to = Math.min(all.size(), from + limit);
        for (Batch b : all.subList(from, to)) {
            data.add(b.json());
        }
        page.put("has_more", to < all.size());
        send(ex, ProviderAnswers.Reply.json(200, page));
    }

    /** A file's content, chunked (no Content-Length), written in pieces. */
    private void content(HttpExchange ex, String id) throws IOException {
        byte[] f = files.get(id);
        if (f == null) {
            send(ex, ProviderAnswers.Reply.json(404, ProviderAnswers.openAiError("No such File object: " + id, "invalid_request_error",
                    "id", null)));
            return;
        }
        ex.getResponseHeaders().add("Content-Type", "application/octet-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        for (int at = 0; at < f.length; at += 16 * 1024) {
            out.write(f, at, Math.min(16 * 1024, f.length - at));
            out.flush();
        }
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    private static void send(HttpExchange ex, ProviderAnswers.Reply r) throws IOException {
        byte[] bytes = r.body().getBytes(StandardCharsets.UTF_8);
        r.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(r.status(), bytes.length);
        ex.getResponseBody().write(bytes);
    }

    private record Line(String customId, JsonNode body) {
    }

    /** One batch and its lifecycle, advanced when it is retrieved. */
    private final class Batch {
        final String id;
        final String inputFileId;
        final JsonNode metadata;
        final Plan plan;
        final long createdAt;
        final long createdNanos;
        List<Line> lines;
        String[] failure;
        String status = "validating";
        boolean polled;
        boolean userCancelled;
        String outputFileId;
        String errorFileId;
        int completed;
        int failed;

        Batch(String id, String inputFileId, JsonNode metadata, Plan plan, long createdAt, long createdNanos) {
            this.id = id;
            this.inputFileId = inputFileId;
            this.metadata = metadata;
            this.plan = plan;
            this.createdAt = createdAt;
            this.createdNanos = createdNanos;
        }

        /**
         * validating (until first retrieved), in_progress (until the plan's time has passed, and while a
         * {@link OpenAiBatches#hold} lasts), finalizing (once: the results are made then, so each line is answered and
         * billed once), then the plan's end.
         */
        synchronized void advance() throws IOException {
            if (failure != null || plan.end() == Plan.End.FAILED) {
                if (failure == null) {
                    failure = new String[] {"invalid_request", "The batch input file could not be validated."};
                }
                status = "failed";
                return;
            }
            switch (status) {
                case "validating" -> status = polled ? "in_progress" : "validating";
                case "in_progress" -> {
                    if (due()) {
                        finish(plan.end() == Plan.End.COMPLETED ? Integer.MAX_VALUE : plan.ran());
                        status = "finalizing";
                    }
                }
                case "finalizing" -> status = switch (plan.end()) {
                    case COMPLETED -> "completed";
                    case EXPIRED -> "expired";
                    default -> "cancelled";
                };
                case "cancelling" -> {
                    finish(0);
                    status = "cancelled";
                }
                default -> { }
            }
            polled = true;
        }

        synchronized void cancelByUser() {
            if (status.equals("validating") || status.equals("in_progress")) {
                status = "cancelling";
                userCancelled = true;
            }
        }

        private boolean due() {
            return !held && System.nanoTime() - createdNanos >= plan.runFor().toNanos();
        }

        /** Answers the first {@code ran} lines by the script; the rest are expired or cancelled. Out of order, padded. */
        private void finish(int ran) throws IOException {
            List<String> output = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            String unran = plan.end() == Plan.End.EXPIRED && !userCancelled ? "batch_expired" : "batch_cancelled";
            for (int i = 0; i < lines.size(); i++) {
                Line l = lines.get(i);
                ObjectNode out = ProviderAnswers.JSON.createObjectNode().put("id", "batch_req_" + ids.incrementAndGet())
                        .put("custom_id", l.customId);
                if (i < ran) {
                    ProviderAnswers.Reply r = server.answerLine(JudgeProtocol.OPENAI, l.body.path("model").asText(""), l.body);
                    out.putObject("response").put("status_code", r.status()).put("request_id", "req_" + ids.incrementAndGet())
                            .set("body", ProviderAnswers.JSON.readTree(r.body()));
                    out.putNull("error");
                    if (r.status() == 200) {
                        billed.computeIfAbsent(l.customId, k -> new AtomicInteger()).incrementAndGet();
                        completed++;
                        output.add(pad(out.toString()));
                    } else {
                        failed++;
                        errors.add(pad(out.toString()));
                    }
                } else {
                    out.putNull("response");
                    out.putObject("error").put("code", unran).put("message", unran.equals("batch_expired")
                            ? "This request could not be executed before the completion window expired."
                            : "This request was not executed because the batch was cancelled.");
                    failed++;
                    errors.add(pad(out.toString()));
                }
            }
            // a batch's results come in any order: shuffled, the same way for the same batch
            Collections.shuffle(output, new Random(id.hashCode()));
            Collections.shuffle(errors, new Random(id.hashCode() + 1L));
            outputFileId = output.isEmpty() ? null : store(output);
            errorFileId = errors.isEmpty() ? null : store(errors);
        }

        private String pad(String line) {
            int missing = plan.padLineTo() - line.length();
            // JSON whitespace before the closing brace: the same object, a longer line
            return missing <= 0 ? line : line.substring(0, line.length() - 1) + " ".repeat(missing) + "}";
        }

        private String store(List<String> lines) {
            String id = "file-" + ids.incrementAndGet();
            files.put(id, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
            return id;
        }

        synchronized ObjectNode json() {
            ObjectNode b = ProviderAnswers.JSON.createObjectNode().put("id", id).put("object", "batch").put("endpoint", ENDPOINT)
                    .put("input_file_id", inputFileId).put("completion_window", "24h").put("status", status)
                    .put("created_at", createdAt);
            b.put("output_file_id", outputFileId).put("error_file_id", errorFileId); // null: JSON null, as OpenAI sends
            if (failure != null && status.equals("failed")) {
                ObjectNode errs = b.putObject("errors").put("object", "list");
                errs.putArray("data").addObject().put("code", failure[0]).put("message", failure[1]).put("line", 1);
            } else {
                b.putNull("errors");
            }
            b.putObject("request_counts").put("total", lines.size()).put("completed", completed).put("failed", failed);
            b.set("metadata", metadata.isMissingNode() ? ProviderAnswers.JSON.nullNode() : metadata);
            return b;
        }
    }
}
