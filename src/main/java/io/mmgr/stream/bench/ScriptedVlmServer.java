package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in VLM provider on loopback for tests and the judge benchmark: it speaks OpenAI Chat
 * Completions ({@code .../chat/completions}) and Gemini {@code generateContent}
 * ({@code .../models/<model>:generateContent}), records every request with its arrival time, and
 * answers as a script says: slowly, with 429 and Retry-After, 500, a hang, a malformed or truncated
 * body, a refusal, or an answer that lacks a metric or scores a binary metric 0.5. Answers are built
 * from the JSON schema in the request (or the metric names in the prompt), so it serves any rubric.
 * A request's script case is the {@code case=NAME} marker in its prompt text. Answers too large to
 * hold in memory (hostile-input tests) are written piece by piece ({@link Action#streamedAnswer},
 * {@link Action#streamedBody}) and sent chunked.
 */
public final class ScriptedVlmServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CASE = Pattern.compile("case=([A-Za-z0-9_\\-]+)");
    private static final Pattern METRIC_LINE = Pattern.compile("- \"([a-z0-9_]+)\": \\{\"score\"");

    /** What the server does with one request. */
    public enum Kind { OK, RATE_LIMITED, SERVER_ERROR, HANG, MALFORMED, TRUNCATED, REFUSAL, MISSING_METRIC, NON_BINARY, UNAUTHORIZED,
        STREAMED_ANSWER, STREAMED_BODY }

    /** Writes text piece by piece: an answer or a body that is never held in memory whole. */
    @FunctionalInterface
    public interface Streamed {
        void write(Writer out) throws IOException;
    }

    /**
     * @param kind       what to answer
     * @param latency    delay before answering (a hang's length for HANG)
     * @param retryAfter seconds sent with a 429
     * @param scores     metric scores of an OK answer (missing metrics score 1)
     * @param streamed   the answer text (STREAMED_ANSWER) or the whole body (STREAMED_BODY), else null
     */
    public record Action(Kind kind, Duration latency, int retryAfter, Map<String, Double> scores, Streamed streamed) {
        public Action(Kind kind, Duration latency, int retryAfter, Map<String, Double> scores) {
            this(kind, latency, retryAfter, scores, null);
        }

        /** A 200 in the protocol's envelope whose answer text (the model's message) {@code text} writes; JSON-escaped here. */
        public static Action streamedAnswer(Streamed text) {
            return new Action(Kind.STREAMED_ANSWER, Duration.ZERO, 0, Map.of(), text);
        }

        /** A 200 whose whole body {@code body} writes, as is. */
        public static Action streamedBody(Streamed body) {
            return new Action(Kind.STREAMED_BODY, Duration.ZERO, 0, Map.of(), body);
        }

        public static Action ok(Duration latency, Map<String, Double> scores) {
            return new Action(Kind.OK, latency, 0, scores);
        }

        public static Action of(Kind kind) {
            return new Action(kind, Duration.ZERO, 1, Map.of());
        }
    }

    /**
     * One request as the script sees it.
     *
     * @param protocol {@code openai} or {@code gemini}
     * @param caseName the {@code case=} marker of the prompt, or ""
     * @param attempt  how many earlier requests had the same case marker (0 for the first)
     * @param metrics  metric names the answer must hold
     */
    public record Exchange(String protocol, String caseName, int attempt, List<String> metrics, String text) {
    }

    /** A recorded request. */
    public record Seen(long arrivedNanos, String protocol, String caseName, String authorization, int images, int videos) {
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private volatile Function<Exchange, Action> script;

    private ScriptedVlmServer(Function<Exchange, Action> script) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-vlm");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static ScriptedVlmServer start(Function<Exchange, Action> script) throws IOException {
        return new ScriptedVlmServer(script);
    }

    public void script(Function<Exchange, Action> next) {
        this.script = next;
    }

    /** Base URL for the OpenAI protocol ({@code .../v1}). */
    public String openAiBaseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Base URL for Gemini ({@code .../v1beta}). */
    public String geminiBaseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1beta";
    }

    public List<Seen> seen() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    public int requestCount() {
        return seen.size();
    }

    /** The most requests that arrived within any window of the given length (a sliding window over arrivals). */
    public int maxInAnyWindow(Duration window) {
        List<Long> t = seen().stream().map(Seen::arrivedNanos).sorted().toList();
        int best = 0;
        int lo = 0;
        for (int hi = 0; hi < t.size(); hi++) {
            while (t.get(hi) - t.get(lo) >= window.toNanos()) {
                lo++;
            }
            best = Math.max(best, hi - lo + 1);
        }
        return best;
    }

    private void handle(HttpExchange ex) throws IOException {
        long arrived = System.nanoTime();
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String protocol = path.endsWith("/chat/completions") ? "openai" : path.endsWith(":generateContent") ? "gemini" : null;
            byte[] raw = ex.getRequestBody().readAllBytes();
            if (protocol == null || !"POST".equals(ex.getRequestMethod())) {
                send(ex, 404, "{\"error\":\"unknown endpoint\"}");
                return;
            }
            JsonNode body = JSON.readTree(raw);
            String text = allText(body);
            Matcher m = CASE.matcher(text);
            String caseName = m.find() ? m.group(1) : "";
            int attempt = attempts.computeIfAbsent(caseName, k -> new AtomicInteger()).getAndIncrement();
            String auth = protocol.equals("openai") ? ex.getRequestHeaders().getFirst("Authorization")
                    : ex.getRequestHeaders().getFirst("x-goog-api-key");
            int[] media = countMedia(body);
            seen.add(new Seen(arrived, protocol, caseName, auth, media[0], media[1]));
            List<String> metrics = metricNames(body, text);
            Action a = script.apply(new Exchange(protocol, caseName, attempt, metrics, text));
            sleep(a.latency());
            switch (a.kind()) {
                case OK -> send(ex, 200, answer(protocol, answerJson(metrics, a.scores(), null, null), raw.length));
                case MISSING_METRIC -> send(ex, 200, answer(protocol,
                        answerJson(metrics, a.scores(), metrics.isEmpty() ? null : metrics.get(0), null), raw.length));
                case NON_BINARY -> send(ex, 200, answer(protocol,
                        answerJson(metrics, a.scores(), null, metrics.isEmpty() ? null : metrics.get(0)), raw.length));
                case RATE_LIMITED -> {
                    ex.getResponseHeaders().add("Retry-After", Integer.toString(a.retryAfter()));
                    send(ex, 429, "{\"error\":{\"code\":429,\"message\":\"quota exceeded\"}}");
                }
                case SERVER_ERROR -> send(ex, 500, "{\"error\":{\"code\":500,\"message\":\"internal\"}}");
                // like real providers, echo (part of) the key that was refused
                case UNAUTHORIZED -> send(ex, 401, "{\"error\":{\"code\":401,\"message\":\"Incorrect API key provided: "
                        + String.valueOf(auth).replace("\"", "") + "\"}}");
                case HANG -> send(ex, 500, "{\"error\":\"hung\"}");
                case MALFORMED -> send(ex, 200, "<html>upstream error</html>");
                case TRUNCATED -> {
                    byte[] full = answer(protocol, answerJson(metrics, a.scores(), null, null), raw.length)
                            .getBytes(StandardCharsets.UTF_8);
                    ex.getResponseHeaders().add("Content-Type", "application/json");
                    ex.sendResponseHeaders(200, full.length);
                    OutputStream out = ex.getResponseBody();
                    out.write(full, 0, full.length / 2);
                    out.flush();
                    throw new IOException("truncated on purpose"); // the connection is dropped mid-body
                }
                case REFUSAL -> send(ex, 200, refusal(protocol));
                case STREAMED_ANSWER -> {
                    // the envelope of a normal answer, split where its text goes
                    String envelope = answer(protocol, SPLIT, raw.length);
                    int at = envelope.indexOf(SPLIT);
                    stream(ex, out -> {
                        out.write(envelope, 0, at);
                        a.streamed().write(new JsonStringWriter(out));
                        out.write(envelope, at + SPLIT.length(), envelope.length() - at - SPLIT.length());
                    });
                }
                case STREAMED_BODY -> stream(ex, a.streamed());
                default -> throw new IllegalStateException();
            }
        } catch (IOException e) {
            // the client went away (timeout) or the body was cut on purpose
        }
    }

    private static void sleep(Duration d) {
        if (d.isZero() || d.isNegative()) {
            return;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final String SPLIT = "@@answer-text@@";

    /** A chunked 200 (no Content-Length: the size is not known up front). */
    private static void stream(HttpExchange ex, Streamed body) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, 0);
        try (Writer out = new java.io.BufferedWriter(new java.io.OutputStreamWriter(ex.getResponseBody(), StandardCharsets.UTF_8),
                1 << 16)) {
            body.write(out);
        }
    }

    /** Escapes what it is given as the inside of a JSON string. */
    private static final class JsonStringWriter extends Writer {
        private final Writer out;

        JsonStringWriter(Writer out) {
            this.out = out;
        }

        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            for (int i = off; i < off + len; i++) {
                char c = buf[i];
                switch (c) {
                    case '"' -> out.write("\\\"");
                    case '\\' -> out.write("\\\\");
                    case '\n' -> out.write("\\n");
                    case '\r' -> out.write("\\r");
                    case '\t' -> out.write("\\t");
                    default -> {
                        if (c < 0x20) {
                            out.write(String.format("\\u%04x", (int) c));
                        } else {
                            out.write(c);
                        }
                    }
                }
            }
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() {
            // the envelope's tail still follows
        }
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    private static String allText(JsonNode body) {
        StringBuilder b = new StringBuilder();
        for (JsonNode msg : body.path("messages")) {
            JsonNode content = msg.path("content");
            if (content.isTextual()) {
                b.append(content.asText()).append('\n');
            }
            for (JsonNode part : content) {
                b.append(part.path("text").asText("")).append('\n');
            }
        }
        for (JsonNode part : body.path("systemInstruction").path("parts")) {
            b.append(part.path("text").asText("")).append('\n');
        }
        for (JsonNode c : body.path("contents")) {
            for (JsonNode part : c.path("parts")) {
                b.append(part.path("text").asText("")).append('\n');
            }
        }
        return b.toString();
    }

    private static int[] countMedia(JsonNode body) {
        int images = 0;
        int videos = 0;
        for (JsonNode msg : body.path("messages")) {
            for (JsonNode part : msg.path("content")) {
                if (part.has("image_url")) {
                    images++;
                }
            }
        }
        for (JsonNode c : body.path("contents")) {
            for (JsonNode part : c.path("parts")) {
                String mime = part.path("inlineData").path("mimeType").asText("");
                if (mime.startsWith("video/")) {
                    videos++;
                } else if (mime.startsWith("image/")) {
                    images++;
                }
            }
        }
        return new int[] {images, videos};
    }

    private static List<String> metricNames(JsonNode body, String text) {
        JsonNode schema = body.path("response_format").path("json_schema").path("schema");
        if (schema.isMissingNode()) {
            schema = body.path("generationConfig").path("responseSchema");
        }
        List<String> names = new ArrayList<>();
        if (schema.has("properties")) {
            for (Iterator<String> it = schema.path("properties").fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            return names;
        }
        Matcher m = METRIC_LINE.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String answerJson(List<String> metrics, Map<String, Double> scores, String leaveOut, String halve) {
        ObjectNode o = JSON.createObjectNode();
        for (String name : metrics) {
            if (name.equals(leaveOut)) {
                continue;
            }
            ObjectNode e = o.putObject(name);
            double v = name.equals(halve) ? 0.5 : scores.getOrDefault(name, 1.0);
            if (v == Math.rint(v)) {
                e.put("score", (int) v);
            } else {
                e.put("score", v);
            }
            e.put("justification", "scripted");
        }
        return o.toString();
    }

    private static String answer(String protocol, String content, int requestBytes) {
        int in = Math.max(1, requestBytes / 100);
        int out = Math.max(1, content.length() / 4);
        ObjectNode r = JSON.createObjectNode();
        if (protocol.equals("openai")) {
            r.put("id", "chatcmpl-scripted").put("object", "chat.completion");
            ObjectNode choice = r.putArray("choices").addObject();
            choice.put("index", 0).put("finish_reason", "stop");
            choice.putObject("message").put("role", "assistant").put("content", content).putNull("refusal");
            r.putObject("usage").put("prompt_tokens", in).put("completion_tokens", out).put("total_tokens", in + out);
        } else {
            ObjectNode cand = r.putArray("candidates").addObject();
            cand.putObject("content").put("role", "model").putArray("parts").addObject().put("text", content);
            cand.put("finishReason", "STOP");
            r.putObject("usageMetadata").put("promptTokenCount", in).put("candidatesTokenCount", out)
                    .put("totalTokenCount", in + out);
        }
        return r.toString();
    }

    private static String refusal(String protocol) {
        ObjectNode r = JSON.createObjectNode();
        if (protocol.equals("openai")) {
            ObjectNode choice = r.putArray("choices").addObject();
            choice.put("index", 0).put("finish_reason", "stop");
            choice.putObject("message").put("role", "assistant").putNull("content")
                    .put("refusal", "I can't help with grading this content.");
            r.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5);
        } else {
            r.putObject("promptFeedback").put("blockReason", "SAFETY");
            r.putObject("usageMetadata").put("promptTokenCount", 10).put("candidatesTokenCount", 0);
        }
        return r.toString();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
