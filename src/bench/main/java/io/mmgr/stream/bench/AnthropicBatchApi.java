package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Anthropic's Message Batches API as its documentation describes it: {@code POST /v1/messages/batches} with
 * {@code requests[]} of {@code custom_id} and {@code params} (a Messages request), answered with the
 * {@code message_batch} object; {@code GET /v1/messages/batches/{id}} (polled until {@code processing_status}
 * {@code ended}; {@code canceling} after a cancel); {@code POST .../{id}/cancel}; {@code GET /v1/messages/batches}
 * (newest first, {@code limit} and {@code after_id}); and the results at the batch's {@code results_url}: JSONL, one
 * line per request in no particular order, {@code result.type} {@code succeeded} (with the {@code message}),
 * {@code errored} (with the error body), {@code canceled} or {@code expired}, sent chunked. A {@code custom_id}
 * outside {@code ^[a-zA-Z0-9_-]{1,64}$}, or twice in one batch, is refused with a 400 as the real API does;
 * so is a request without {@code anthropic-version}. The key ({@code x-api-key}) is recorded on the batch, not checked,
 * as the realtime endpoint records it.
 */
final class AnthropicBatchApi {

    private static final Pattern CUSTOM_ID = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");
    private static final Pattern BATCH = Pattern.compile("/v1/messages/batches/([A-Za-z0-9_]+)(/results|/cancel)?");
    static final String ROOT = "/v1/messages/batches";

    private final ScriptedBatches batches;

    AnthropicBatchApi(ScriptedBatches batches) {
        this.batches = batches;
    }

    static boolean serves(String path) {
        return path.equals(ROOT) || path.startsWith(ROOT + "/");
    }

    void handle(HttpExchange ex, byte[] raw) throws IOException {
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        if (ex.getRequestHeaders().getFirst("anthropic-version") == null) {
            ScriptedVlmServer.send(ex, AnthropicAnswers.badRequest("anthropic-version: header is required"));
            return;
        }
        if (path.equals(ROOT)) {
            if ("POST".equals(method)) {
                create(ex, raw);
            } else {
                list(ex);
            }
            return;
        }
        Matcher m = BATCH.matcher(path);
        ScriptedBatches.Batch b = m.matches() ? batches.batch(m.group(1)) : null;
        if (b == null || b.protocol != JudgeProtocol.ANTHROPIC) {
            ScriptedVlmServer.send(ex, ProviderAnswers.Reply.json(404, AnthropicAnswers.error("not_found_error", "Not found")));
            return;
        }
        String tail = m.group(2);
        if ("/cancel".equals(tail) && "POST".equals(method)) {
            batches.cancel(b);
            ScriptedVlmServer.send(ex, 200, batchJson(b, host(ex)).toString());
        } else if ("/results".equals(tail)) {
            results(ex, b);
        } else {
            batches.read(b);
            ScriptedVlmServer.send(ex, 200, batchJson(b, host(ex)).toString());
        }
    }

    private void create(HttpExchange ex, byte[] raw) throws IOException {
        JsonNode body;
        try {
            body = ProviderAnswers.JSON.readTree(raw);
        } catch (IOException e) {
            ScriptedVlmServer.send(ex, AnthropicAnswers.badRequest("The request body is not valid JSON"));
            return;
        }
        JsonNode requests = body == null ? null : body.get("requests");
        if (requests == null || !requests.isArray() || requests.isEmpty()) {
            ScriptedVlmServer.send(ex, AnthropicAnswers.badRequest("requests: Field required and must not be empty"));
            return;
        }
        List<ScriptedBatches.Entry> entries = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        String model = "";
        for (int i = 0; i < requests.size(); i++) {
            JsonNode r = requests.get(i);
            String id = r.path("custom_id").asText("");
            if (!CUSTOM_ID.matcher(id).matches()) {
                ScriptedVlmServer.send(ex, AnthropicAnswers.badRequest("requests." + i + ".custom_id: String should match pattern "
                        + "'^[a-zA-Z0-9_-]{1,64}$'"));
                return;
            }
            if (!ids.add(id)) {
                ScriptedVlmServer.send(ex, AnthropicAnswers.badRequest("requests." + i + ".custom_id: Duplicate custom_id: " + id));
                return;
            }
            JsonNode params = r.get("params");
            if (params == null || !params.isObject() || !params.path("model").isTextual()) {
                ScriptedVlmServer.send(ex, AnthropicAnswers.badRequest("requests." + i + ".params.model: Field required"));
                return;
            }
            model = params.get("model").asText();
            entries.add(new ScriptedBatches.Entry(JudgeProtocol.ANTHROPIC, id, model, params));
        }
        ProviderAnswers.Reply refused = batches.admitCreation(JudgeProtocol.ANTHROPIC, model);
        if (refused != null) {
            ScriptedVlmServer.send(ex, refused);
            return;
        }
        ScriptedBatches.Batch b = batches.create(batches.nextId("msgbatch_01Scripted"), JudgeProtocol.ANTHROPIC, model, null,
                ex.getRequestHeaders().getFirst("x-api-key"), entries, false);
        ScriptedVlmServer.send(ex, 200, batchJson(b, host(ex)).toString());
    }

    /** Newest first; {@code after_id} pages on past a batch, {@code limit} (default 20) per page. */
    private void list(HttpExchange ex) throws IOException {
        String query = ex.getRequestURI().getQuery();
        int limit = 20;
        String after = null;
        for (String pair : query == null ? new String[0] : query.split("&")) {
            if (pair.startsWith("limit=")) {
                limit = Integer.parseInt(pair.substring(6));
            } else if (pair.startsWith("after_id=")) {
                after = pair.substring(9);
            }
        }
        List<ScriptedBatches.Batch> all = new ArrayList<>(batches.batches().stream()
                .filter(b -> b.protocol == JudgeProtocol.ANTHROPIC).toList());
        java.util.Collections.reverse(all);
        int from = 0;
        if (after != null) {
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).id.equals(after)) {
                    from = i + 1;
                }
            }
        }
        List<ScriptedBatches.Batch> page = all.subList(Math.min(from, all.size()), Math.min(from + limit, all.size()));
        ObjectNode out = ProviderAnswers.JSON.createObjectNode();
        ArrayNode data = out.putArray("data");
        page.forEach(b -> data.add(batchJson(b, host(ex))));
        out.put("has_more", from + limit < all.size());
        if (page.isEmpty()) {
            out.putNull("first_id").putNull("last_id");
        } else {
            out.put("first_id", page.get(0).id).put("last_id", page.get(page.size() - 1).id);
        }
        ScriptedVlmServer.send(ex, 200, out.toString());
    }

    private void results(HttpExchange ex, ScriptedBatches.Batch b) throws IOException {
        if (b.end() == null) {
            ScriptedVlmServer.send(ex, AnthropicAnswers.badRequest("Batch " + b.id + " has not ended; results are not available yet"));
            return;
        }
        List<ScriptedBatches.Outcome> outcomes = b.outcomes();
        ScriptedVlmServer.stream(ex, out -> {
            for (ScriptedBatches.Outcome o : outcomes) {
                out.write(line(o).toString());
                out.write('\n');
            }
        });
    }

    private static ObjectNode line(ScriptedBatches.Outcome o) throws IOException {
        ObjectNode line = ProviderAnswers.JSON.createObjectNode().put("custom_id", o.entry().key());
        ObjectNode result = line.putObject("result");
        if (o.canceled()) {
            result.put("type", "canceled");
        } else if (o.reply() == null) {
            result.put("type", "expired");
        } else if (o.reply().status() == 200) {
            result.put("type", "succeeded").set("message", ProviderAnswers.JSON.readTree(o.reply().body()));
        } else {
            result.put("type", "errored").set("error", ProviderAnswers.JSON.readTree(o.reply().body()));
        }
        return line;
    }

    private static String host(HttpExchange ex) {
        return "http://" + ex.getRequestHeaders().getFirst("Host");
    }

    private static ObjectNode batchJson(ScriptedBatches.Batch b, String base) {
        ObjectNode o = ProviderAnswers.JSON.createObjectNode();
        o.put("id", b.id).put("type", "message_batch");
        ScriptedBatches.End end = b.end();
        o.put("processing_status", end != null ? "ended" : b.cancelRequested ? "canceling" : "in_progress");
        int succeeded = 0;
        int errored = 0;
        int canceled = 0;
        int expired = 0;
        for (ScriptedBatches.Outcome x : b.outcomes()) {
            if (x.canceled()) {
                canceled++;
            } else if (x.reply() == null) {
                expired++;
            } else if (x.reply().status() == 200) {
                succeeded++;
            } else {
                errored++;
            }
        }
        o.putObject("request_counts").put("processing", end == null ? b.entries.size() : 0).put("succeeded", succeeded)
                .put("errored", errored).put("canceled", canceled).put("expired", expired);
        o.put("created_at", b.created.toString()).put("expires_at", b.created.plus(Duration.ofHours(24)).toString());
        if (end == null) {
            o.putNull("ended_at");
        } else {
            o.put("ended_at", b.ended.toString());
        }
        o.putNull("archived_at");
        if (b.cancelRequestedAt == null) {
            o.putNull("cancel_initiated_at");
        } else {
            o.put("cancel_initiated_at", b.cancelRequestedAt.toString());
        }
        if (end == null) {
            o.putNull("results_url");
        } else {
            o.put("results_url", base + ROOT + "/" + b.id + "/results");
        }
        return o;
    }
}
