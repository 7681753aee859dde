package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini's Batch Mode as its REST reference describes it. {@code POST /v1beta/models/{model}:batchGenerateContent}
 * with {@code batch.display_name} and {@code batch.input_config}: either inline requests
 * ({@code requests.requests[]}, each a {@code request} and {@code metadata.key}) or {@code file_name}, a JSONL file of
 * {@code {"key", "request"}} lines uploaded through the Files API's resumable upload ({@code POST /upload/v1beta/files},
 * then the {@code x-goog-upload-url} it gives with {@code upload, finalize}). The answer is a long-running operation
 * {@code {"name": "batches/..", "metadata": GenerateContentBatch, "done"}}; {@code GET /v1beta/batches/{id}} is polled
 * until {@code metadata.state} is {@code BATCH_STATE_SUCCEEDED}, {@code _FAILED}, {@code _CANCELLED} or {@code _EXPIRED}
 * (the REST names; Google's Python SDK shows them as {@code JOB_STATE_*}). A succeeded operation's {@code response}
 * holds {@code inlinedResponses.inlinedResponses[]} (each {@code response} or {@code error}, with its
 * {@code metadata.key}) for inline input, or {@code responsesFile} for file input, read at
 * {@code GET /download/v1beta/files/{id}:download?alt=media} ({@code {"key", "response"|"error"}} lines, chunked).
 * Results come in no particular order. {@code POST /v1beta/batches/{id}:cancel} cancels; {@code GET /v1beta/batches}
 * lists operations ({@code pageSize}, {@code pageToken}). Camel-case and snake-case field names are both read, as
 * Google's JSON mapping accepts both. Gemini documents no per-entry expiry: an entry scripted to expire gets a
 * {@code DEADLINE_EXCEEDED} error, and a whole batch expires with {@code BATCH_STATE_EXPIRED}. The key
 * ({@code x-goog-api-key}) is recorded on the batch, not checked, as the realtime endpoint records it.
 */
final class GeminiBatchApi {

    private static final String TYPES = "type.googleapis.com/google.ai.generativelanguage.v1beta.";
    private static final Pattern CREATE = Pattern.compile("/v1beta/models/([^:]+):batchGenerateContent");
    private static final Pattern BATCH = Pattern.compile("/v1beta/batches/([A-Za-z0-9-]+)(:cancel)?");
    private static final Pattern DOWNLOAD = Pattern.compile("/download/v1beta/files/([A-Za-z0-9-]+):download");
    private static final String UPLOAD = "/upload/v1beta/files";

    private final ScriptedBatches batches;
    private final Map<String, String> files = new ConcurrentHashMap<>();
    private final Map<String, String> uploads = new ConcurrentHashMap<>();
    private final AtomicInteger fileIds = new AtomicInteger();

    GeminiBatchApi(ScriptedBatches batches) {
        this.batches = batches;
    }

    static boolean serves(String path) {
        return CREATE.matcher(path).matches() || path.equals("/v1beta/batches") || BATCH.matcher(path).matches()
                || DOWNLOAD.matcher(path).matches() || path.equals(UPLOAD);
    }

    void handle(HttpExchange ex, byte[] raw) throws IOException {
        String path = ex.getRequestURI().getPath();
        Matcher create = CREATE.matcher(path);
        Matcher batch = BATCH.matcher(path);
        Matcher download = DOWNLOAD.matcher(path);
        if (create.matches() && "POST".equals(ex.getRequestMethod())) {
            create(ex, create.group(1), raw);
        } else if (path.equals(UPLOAD)) {
            upload(ex, raw);
        } else if (download.matches()) {
            download(ex, download.group(1));
        } else if (path.equals("/v1beta/batches")) {
            list(ex);
        } else if (batch.matches()) {
            ScriptedBatches.Batch b = batches.batch("batches/" + batch.group(1));
            if (b == null || b.protocol != JudgeProtocol.GEMINI) {
                ScriptedVlmServer.send(ex, ProviderAnswers.Reply.json(404, ProviderAnswers.geminiError(404, "NOT_FOUND",
                        "Requested entity was not found.")));
            } else if (batch.group(2) != null) {
                batches.cancel(b);
                ScriptedVlmServer.send(ex, 200, "{}");
            } else {
                batches.read(b);
                String body = operation(b).toString();
                // a finished batch's inline answers may run to megabytes: sent chunked, as a large answer is
                ScriptedVlmServer.stream(ex, out -> out.write(body));
            }
        } else {
            ScriptedVlmServer.send(ex, 404, "{\"error\":\"unknown endpoint\"}");
        }
    }

    private static ProviderAnswers.Reply badRequest(String message) {
        return ProviderAnswers.Reply.json(400, ProviderAnswers.geminiError(400, "INVALID_ARGUMENT", message));
    }

    private static JsonNode field(JsonNode node, String camel, String snake) {
        return node.has(camel) ? node.get(camel) : node.path(snake);
    }

    private void create(HttpExchange ex, String model, byte[] raw) throws IOException {
        JsonNode body;
        try {
            body = ProviderAnswers.JSON.readTree(raw);
        } catch (IOException e) {
            ScriptedVlmServer.send(ex, badRequest("Invalid JSON payload received."));
            return;
        }
        JsonNode batch = body == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : body.path("batch");
        JsonNode input = field(batch, "inputConfig", "input_config");
        String displayName = field(batch, "displayName", "display_name").asText("");
        List<ScriptedBatches.Entry> entries = new ArrayList<>();
        boolean asFile = false;
        JsonNode fileName = field(input, "fileName", "file_name");
        if (fileName.isTextual()) {
            String content = files.get(fileName.asText());
            if (content == null) {
                ScriptedVlmServer.send(ex, badRequest("File " + fileName.asText() + " not found."));
                return;
            }
            asFile = true;
            try (BufferedReader lines = new BufferedReader(new StringReader(content))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (!line.isBlank()) {
                        JsonNode l = ProviderAnswers.JSON.readTree(line);
                        entries.add(entry(model, l.path("key").asText(""), l.path("request")));
                    }
                }
            }
        } else {
            for (JsonNode r : input.path("requests").path("requests")) {
                entries.add(entry(model, r.path("metadata").path("key").asText(""), r.path("request")));
            }
        }
        if (entries.isEmpty()) {
            ScriptedVlmServer.send(ex, badRequest("* BatchGenerateContentRequest.batch.input_config: input config is required"));
            return;
        }
        ProviderAnswers.Reply refused = batches.admitCreation(JudgeProtocol.GEMINI, model);
        if (refused != null) {
            ScriptedVlmServer.send(ex, refused);
            return;
        }
        ScriptedBatches.Batch b = batches.create(batches.nextId("batches/scripted"), JudgeProtocol.GEMINI, model, displayName,
                ex.getRequestHeaders().getFirst("x-goog-api-key"), entries, asFile);
        ScriptedVlmServer.send(ex, 200, operation(b).toString());
    }

    /** An entry for the path's model, or the one its request names ({@code models/...}: the batch reference requires it). */
    private static ScriptedBatches.Entry entry(String model, String key, JsonNode request) {
        String named = request.path("model").asText("");
        return new ScriptedBatches.Entry(JudgeProtocol.GEMINI, key, named.isEmpty() ? model : named.replaceFirst("^models/", ""), request);
    }

    /** The Files API's resumable upload: a start that hands out the upload URL, then the bytes with {@code upload, finalize}. */
    private void upload(HttpExchange ex, byte[] raw) throws IOException {
        String command = String.valueOf(ex.getRequestHeaders().getFirst("X-Goog-Upload-Command"));
        String query = String.valueOf(ex.getRequestURI().getQuery());
        if (command.equals("start")) {
            String id = "upload-" + fileIds.incrementAndGet();
            uploads.put(id, "");
            ex.getResponseHeaders().add("X-Goog-Upload-URL", "http://" + ex.getRequestHeaders().getFirst("Host") + UPLOAD
                    + "?upload_id=" + id + "&upload_protocol=resumable");
            ex.getResponseHeaders().add("X-Goog-Upload-Status", "active");
            ScriptedVlmServer.send(ex, 200, "");
            return;
        }
        Matcher m = Pattern.compile("upload_id=([A-Za-z0-9-]+)").matcher(query);
        if (!m.find() || !uploads.containsKey(m.group(1)) || !command.contains("finalize")) {
            ScriptedVlmServer.send(ex, badRequest("Unknown upload or missing X-Goog-Upload-Command"));
            return;
        }
        String name = "files/scripted-" + fileIds.incrementAndGet();
        files.put(name, new String(raw, StandardCharsets.UTF_8));
        uploads.remove(m.group(1));
        ObjectNode out = ProviderAnswers.JSON.createObjectNode();
        out.putObject("file").put("name", name).put("mimeType", "application/jsonl").put("sizeBytes", Integer.toString(raw.length))
                .put("state", "ACTIVE").put("uri", "http://" + ex.getRequestHeaders().getFirst("Host") + "/v1beta/" + name);
        ex.getResponseHeaders().add("X-Goog-Upload-Status", "final");
        ScriptedVlmServer.send(ex, 200, out.toString());
    }

    private void download(HttpExchange ex, String id) throws IOException {
        String name = "files/" + id;
        ScriptedBatches.Batch b = batches.batches().stream().filter(x -> name.equals(responsesFile(x))).findFirst().orElse(null);
        if (b == null || b.end() != ScriptedBatches.End.SUCCEEDED) {
            ScriptedVlmServer.send(ex, ProviderAnswers.Reply.json(404, ProviderAnswers.geminiError(404, "NOT_FOUND",
                    "Requested entity was not found.")));
            return;
        }
        List<ScriptedBatches.Outcome> outcomes = b.outcomes();
        ScriptedVlmServer.stream(ex, out -> {
            for (ScriptedBatches.Outcome o : outcomes) {
                ObjectNode line = ProviderAnswers.JSON.createObjectNode().put("key", o.entry().key());
                result(line, o);
                out.write(line.toString());
                out.write('\n');
            }
        });
    }

    private static String responsesFile(ScriptedBatches.Batch b) {
        return "files/batch-" + b.id.substring("batches/".length()) + "-output";
    }

    private void list(HttpExchange ex) throws IOException {
        String query = ex.getRequestURI().getQuery();
        int size = 50;
        int from = 0;
        for (String pair : query == null ? new String[0] : query.split("&")) {
            if (pair.startsWith("pageSize=")) {
                size = Integer.parseInt(pair.substring(9));
            } else if (pair.startsWith("pageToken=")) {
                from = Integer.parseInt(pair.substring(10));
            }
        }
        List<ScriptedBatches.Batch> all = batches.batches().stream().filter(b -> b.protocol == JudgeProtocol.GEMINI).toList();
        ObjectNode out = ProviderAnswers.JSON.createObjectNode();
        ArrayNode ops = out.putArray("operations");
        for (int i = from; i < Math.min(all.size(), from + size); i++) {
            ops.add(operation(all.get(i)));
        }
        if (from + size < all.size()) {
            out.put("nextPageToken", Integer.toString(from + size));
        }
        ScriptedVlmServer.send(ex, 200, out.toString());
    }

    private static void result(ObjectNode into, ScriptedBatches.Outcome o) throws IOException {
        if (o.reply() == null) {
            into.set("error", ProviderAnswers.geminiError(504, "DEADLINE_EXCEEDED", "The request expired before it was processed.")
                    .get("error"));
        } else if (o.reply().status() == 200) {
            into.set("response", ProviderAnswers.JSON.readTree(o.reply().body()));
        } else {
            into.set("error", ProviderAnswers.JSON.readTree(o.reply().body()).path("error"));
        }
    }

    private static String state(ScriptedBatches.Batch b) {
        ScriptedBatches.End end = b.end();
        if (end == null) {
            return b.reads == 0 ? "BATCH_STATE_PENDING" : "BATCH_STATE_RUNNING";
        }
        return "BATCH_STATE_" + end.name();
    }

    private ObjectNode operation(ScriptedBatches.Batch b) throws IOException {
        ObjectNode op = ProviderAnswers.JSON.createObjectNode().put("name", b.id);
        ObjectNode meta = op.putObject("metadata").put("@type", TYPES + "GenerateContentBatch").put("model", "models/" + b.model)
                .put("displayName", b.displayName).put("createTime", b.created.toString())
                .put("updateTime", (b.ended == null ? Instant.now() : b.ended).toString());
        if (b.ended != null) {
            meta.put("endTime", b.ended.toString());
        }
        long ok = b.outcomes().stream().filter(ScriptedBatches.Outcome::answered).count();
        long failed = b.outcomes().size() - ok;
        // int64 fields travel as strings in Google's JSON mapping
        meta.putObject("batchStats").put("requestCount", Integer.toString(b.entries.size()))
                .put("successfulRequestCount", Long.toString(b.end() == ScriptedBatches.End.SUCCEEDED ? ok : 0))
                .put("failedRequestCount", Long.toString(b.end() == ScriptedBatches.End.SUCCEEDED ? failed : 0))
                .put("pendingRequestCount", Integer.toString(b.end() == null ? b.entries.size() : 0));
        meta.put("state", state(b)).put("name", b.id);
        op.put("done", b.end() != null);
        if (b.end() == ScriptedBatches.End.SUCCEEDED) {
            ObjectNode output = ProviderAnswers.JSON.createObjectNode().put("@type", TYPES + "GenerateContentBatchOutput");
            if (b.asFile()) {
                output.put("responsesFile", responsesFile(b));
            } else {
                ArrayNode inlined = output.putObject("inlinedResponses").putArray("inlinedResponses");
                for (ScriptedBatches.Outcome o : b.outcomes()) {
                    ObjectNode item = inlined.addObject();
                    result(item, o);
                    item.putObject("metadata").put("key", o.entry().key());
                }
            }
            meta.set("output", output.deepCopy().without("@type"));
            op.set("response", output);
        } else if (b.end() == ScriptedBatches.End.FAILED) {
            op.putObject("error").put("code", 13).put("message", "The batch failed: an internal error has occurred.");
        }
        return op;
    }
}
