package io.mmgr.stream.bench;

import io.mmgr.stream.judge.protocol.JudgeProtocol;
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
 * Completions ({@code .../chat/completions}), Gemini {@code generateContent}
 * ({@code .../models/<model>:generateContent}), Anthropic Messages ({@code .../v1/messages}, which needs
 * {@code anthropic-version}) and Azure OpenAI's deployment chat completions
 * ({@code /openai/deployments/<deployment>/chat/completions?api-version=...}, the deployment naming the
 * model) and answers as those APIs do ({@link ProviderAnswers}, {@link AnthropicAnswers}, {@link AzureAnswers}), with
 * Gemini's and Anthropic's batch APIs beside ({@link #batches()}, {@link GeminiBatchApi}, {@link AnthropicBatchApi}):
 * their error objects and rate-limit hints, the 400s OpenAI's reasoning models (o-series, gpt-5) give
 * to {@code max_tokens} and to a temperature, their reasoning tokens counted against
 * {@code max_completion_tokens}, and Gemini 2.5's thoughts counted against {@code maxOutputTokens}
 * (within {@code thinkingConfig.thinkingBudget} when one is sent, or as much as the model likes when not).
 * It records every request with its arrival time, parameters and answer, can enforce a request quota
 * over a sliding window of arrivals as a provider counts it ({@link #quota}), and otherwise answers as
 * a script says: slowly, with 429 and its hints, 500, 503, a hang, a malformed or truncated body, a
 * refusal, or an answer that lacks a metric or scores a binary metric 0.5. Answers are built from the
 * JSON schema in the request (or the metric names in the prompt), so it serves any rubric. A request's
 * script case is the {@code case=NAME} marker in its prompt text. Answers too large to hold in memory
 * (hostile-input tests) are written piece by piece ({@link Action#streamedAnswer},
 * {@link Action#streamedBody}) and sent chunked.
 */
public final class ScriptedVlmServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CASE = Pattern.compile("case=([A-Za-z0-9_\\-]+)");
    private static final Pattern METRIC_LINE = Pattern.compile("- \"([a-z0-9_]+)\": \\{\"score\"");

    /** What the server does with one request. */
    public enum Kind { OK, RATE_LIMITED, SERVER_ERROR, OVERLOADED, HANG, MALFORMED, TRUNCATED, REFUSAL, MISSING_METRIC, NON_BINARY,
        UNAUTHORIZED, STREAMED_ANSWER, STREAMED_BODY,
        /** A prompt the content filter blocks: Azure's 400 {@code content_filter}; the protocol's refusal elsewhere. */
        CONTENT_FILTER }

    /** Writes text piece by piece: an answer or a body that is never held in memory whole. */
    @FunctionalInterface
    public interface Streamed {
        void write(Writer out) throws IOException;
    }

    /**
     * @param kind       what to answer
     * @param latency    delay before answering (a hang's length for HANG)
     * @param retryAfter the wait a 429 announces, seconds (in the protocol's own way; also as Retry-After
     *                   when {@code retryAfterHeader})
     * @param scores     metric scores of an OK answer (missing metrics score 1)
     * @param streamed   the answer text (STREAMED_ANSWER) or the whole body (STREAMED_BODY), else null
     * @param thinking   tokens a reasoning model wants to think before answering; -1: the model's usual
     * @param overflow   tokens a Gemini thinking model thinks past the budget it was given (it may)
     */
    public record Action(Kind kind, Duration latency, double retryAfter, Map<String, Double> scores, Streamed streamed,
                         int thinking, int overflow, boolean retryAfterHeader) {
        public Action(Kind kind, Duration latency, int retryAfter, Map<String, Double> scores) {
            this(kind, latency, retryAfter, scores, null, -1, 0, false);
        }

        public Action(Kind kind, Duration latency, int retryAfter, Map<String, Double> scores, Streamed streamed) {
            this(kind, latency, retryAfter, scores, streamed, -1, 0, false);
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

        /** A 429 announcing {@code seconds} (fractions allowed) the protocol's way. */
        public static Action rateLimited(double seconds) {
            return new Action(Kind.RATE_LIMITED, Duration.ZERO, seconds, Map.of(), null, -1, 0, false);
        }

        /** The same action with the model thinking {@code tokens} (and {@code overflow} past a Gemini budget). */
        public Action thinking(int tokens, int pastBudget) {
            return new Action(kind, latency, retryAfter, scores, streamed, tokens, pastBudget, retryAfterHeader);
        }

        /** The same 429 with a Retry-After header too. */
        public Action withRetryAfterHeader() {
            return new Action(kind, latency, retryAfter, scores, streamed, thinking, overflow, true);
        }
    }

    /**
     * One request as the script sees it.
     *
     * @param protocol the protocol the request came in
     * @param caseName the {@code case=} marker of the prompt, or ""
     * @param attempt  how many earlier requests had the same case marker (0 for the first)
     * @param metrics  metric names the answer must hold
     * @param text     every text of the request
     * @param model    the model asked for
     * @param seed     the request's sample seed: OpenAI's and Azure's {@code seed}, Gemini's {@code generationConfig.seed},
     *                 the index in Anthropic's {@code metadata.user_id} ({@code mmgr-sample-<n>}); 0 when none was sent
     */
    public record Exchange(JudgeProtocol protocol, String caseName, int attempt, List<String> metrics, String text, String model,
                           int seed) {
    }

    /**
     * A recorded request and what it was answered (recorded once the answer is known; {@link #requestCount()}
     * counts arrivals at once).
     *
     * @param arrivedNanos  when the server's dispatcher saw it (the provider's arrival count)
     * @param params        the request parameters: max_tokens, max_completion_tokens, temperature, reasoning_effort,
     *                      maxOutputTokens, thinkingBudget, Anthropic's budget_tokens, Azure's api-version (those present)
     * @param authorization the key header as sent: OpenAI's Authorization, Gemini's x-goog-api-key, Anthropic's
     *                      x-api-key, Azure's api-key
     * @param status        the HTTP status answered
     * @param announced     the wait a 429 announced (the precise one), else null
     * @param finish        the finish reason of a 200 (stop, length, STOP, MAX_TOKENS), else null
     * @param bodySha256    the request body's SHA-256: a request sent again (the same judge request asked twice) has
     *                      the same one, whatever its case marker
     */
    public record Seen(long arrivedNanos, JudgeProtocol protocol, String caseName, String authorization, int images, int videos,
                       String model, Map<String, Object> params, int status, Duration announced, String finish,
                       String bodySha256) {
    }

    /** A request quota the server enforces over any sliding window of arrivals, answering 429 past it. */
    public record Quota(int requests, Duration window) {
    }

    private final HttpServer server;
    private final OpenAiBatches openAiBatches;
    private final ExecutorService executor;
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final AtomicInteger arrivals = new AtomicInteger();
    private volatile Function<Exchange, Action> script;
    private volatile Quota quota;
    private final java.util.TreeSet<Long> accepted = new java.util.TreeSet<>();
    private final ScriptedBatches batches = new ScriptedBatches(this);
    private final GeminiBatchApi geminiBatches = new GeminiBatchApi(batches);
    private final AnthropicBatchApi anthropicBatches = new AnthropicBatchApi(batches);

    private ScriptedVlmServer(Function<Exchange, Action> script) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-vlm");
            t.setDaemon(true);
            return t;
        });
        // a request arrives when the server's dispatcher sees its bytes, not when a worker thread gets to it: the
        // dispatcher hands each request over at once, so the time is taken there (a provider counts at its edge)
        server.setExecutor(r -> {
            long seenAt = System.nanoTime();
            executor.execute(() -> {
                ARRIVED.set(seenAt);
                r.run();
            });
        });
        server.createContext("/", this::handle);
        this.openAiBatches = new OpenAiBatches(this);
        server.createContext("/v1/files", openAiBatches::handle);
        server.createContext("/v1/batches", openAiBatches::handle);
        server.start();
    }

    public static ScriptedVlmServer start(Function<Exchange, Action> script) throws IOException {
        return new ScriptedVlmServer(script);
    }

    /** OpenAI's Batch API on this server ({@code /v1/files}, {@code /v1/batches}), answering lines by this server's script. */
    public OpenAiBatches openAiBatches() {
        return openAiBatches;
    }

    public void script(Function<Exchange, Action> next) {
        this.script = next;
    }

    /** Enforces a request quota from now on (null: none); requests past it get the protocol's 429 with its hints. */
    public void quota(Quota q) {
        synchronized (accepted) {
            accepted.clear();
            this.quota = q;
        }
    }

    /**
     * The wait until a request fits the quota, counting this arrival if it fits; zero when it does. Handler
     * threads may get to requests out of their arrival order, so an arrival is accepted only if every window
     * holding it, before or after, keeps within the quota.
     */
    private Duration admit(long arrived) {
        Quota q = quota;
        if (q == null) {
            return Duration.ZERO;
        }
        long window = q.window().toNanos();
        synchronized (accepted) {
            while (!accepted.isEmpty() && accepted.first() < arrived - 4 * window) {
                accepted.pollFirst();
            }
            List<Long> near = new ArrayList<>(accepted.subSet(arrived - window + 1, arrived + window));
            near.add(arrived);
            Collections.sort(near);
            int lo = 0;
            for (int hi = 0; hi < near.size(); hi++) {
                while (near.get(hi) - near.get(lo) >= window) {
                    lo++;
                }
                if (hi - lo + 1 > q.requests() && near.get(lo) <= arrived && arrived <= near.get(hi)) {
                    // refused: the oldest arrival of the window that holds it leaves then
                    return Duration.ofNanos(Math.max(1_000_000, near.get(lo) + window - arrived));
                }
            }
            for (long t = arrived; !accepted.add(t); t++) {
                // two arrivals in the same nanosecond: both count
            }
            return Duration.ZERO;
        }
    }

    /** Base URL for the OpenAI protocol ({@code .../v1}). */
    public String openAiBaseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Base URL for Gemini ({@code .../v1beta}). */
    public String geminiBaseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1beta";
    }

    /** Base URL for Anthropic ({@code .../v1}: the client adds {@code /messages}). */
    public String anthropicBaseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The Azure OpenAI resource endpoint (the client adds {@code /openai/deployments/...}). */
    public String azureEndpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The base URL a judge of {@code protocol} is given. */
    public String baseUrl(JudgeProtocol protocol) {
        return switch (protocol) {
            case OPENAI -> openAiBaseUrl();
            case GEMINI -> geminiBaseUrl();
            case ANTHROPIC -> anthropicBaseUrl();
            case AZURE_OPENAI -> azureEndpoint();
        };
    }

    private static final Pattern AZURE_PATH = Pattern.compile("/openai/deployments/([^/]+)/chat/completions");

    private static JudgeProtocol protocolOf(String path) {
        if (AZURE_PATH.matcher(path).matches()) {
            return JudgeProtocol.AZURE_OPENAI;
        }
        if (path.endsWith("/chat/completions")) {
            return JudgeProtocol.OPENAI;
        }
        if (path.endsWith(":generateContent")) {
            return JudgeProtocol.GEMINI;
        }
        return path.equals("/v1/messages") ? JudgeProtocol.ANTHROPIC : null;
    }

    /** The model a request asks for: in the body, Gemini's path, or Azure's deployment. */
    private static String modelOf(JudgeProtocol protocol, String path, JsonNode body) {
        return switch (protocol) {
            case OPENAI, ANTHROPIC -> body.path("model").asText("");
            case GEMINI -> path.substring(path.indexOf("/models/") + 8, path.lastIndexOf(':'));
            case AZURE_OPENAI -> {
                Matcher m = AZURE_PATH.matcher(path);
                yield m.matches() ? m.group(1) : "";
            }
        };
    }

    /** The key header of each protocol. */
    private static String authOf(JudgeProtocol protocol, HttpExchange ex) {
        return ex.getRequestHeaders().getFirst(switch (protocol) {
            case OPENAI -> "Authorization";
            case GEMINI -> "x-goog-api-key";
            case ANTHROPIC -> "x-api-key";
            case AZURE_OPENAI -> "api-key";
        });
    }

    /** What the endpoint refuses before any model sees the request: Azure's missing api-version, Anthropic's missing version. */
    private static ProviderAnswers.Reply refusedAtTheDoor(JudgeProtocol protocol, HttpExchange ex, Map<String, Object> params) {
        if (protocol == JudgeProtocol.AZURE_OPENAI && !params.containsKey("api-version")) {
            return AzureAnswers.notFound();
        }
        if (protocol == JudgeProtocol.ANTHROPIC && ex.getRequestHeaders().getFirst("anthropic-version") == null) {
            return AnthropicAnswers.badRequest("anthropic-version: header is required");
        }
        return null;
    }

    public List<Seen> seen() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /** The batch API of {@code protocol} on this server, as any test of the batch lane asks it. */
    public ScriptedBatchApi batchApi(JudgeProtocol protocol) {
        return switch (protocol) {
            case OPENAI -> openAiBatches;
            case GEMINI, ANTHROPIC -> batches;
            case AZURE_OPENAI -> throw new IllegalArgumentException("no batch API is scripted for " + protocol);
        };
    }

    /** The batch APIs' side: batches created, their scripting, and how often each entry was submitted and billed. */
    public ScriptedBatches batches() {
        return batches;
    }

    /** Requests that arrived so far (answered or not yet). */
    public int requestCount() {
        return arrivals.get();
    }

    /** The most requests that arrived within any window of the given length (a sliding window over arrivals). */
    public int maxInAnyWindow(Duration window) {
        return busiestWindow(window).requests();
    }

    /** The window of the given length holding the most arrivals: how many, and when its first arrived. */
    public Busiest busiestWindow(Duration window) {
        List<Long> t = seen().stream().map(Seen::arrivedNanos).sorted().toList();
        int best = 0;
        long from = t.isEmpty() ? 0 : t.get(0);
        int lo = 0;
        for (int hi = 0; hi < t.size(); hi++) {
            while (t.get(hi) - t.get(lo) >= window.toNanos()) {
                lo++;
            }
            if (hi - lo + 1 > best) {
                best = hi - lo + 1;
                from = t.get(lo);
            }
        }
        return new Busiest(best, from);
    }

    /** @param requests arrivals in the window; @param fromNanos the first of them */
    public record Busiest(int requests, long fromNanos) {
    }

    private static final ThreadLocal<Long> ARRIVED = new ThreadLocal<>();

    private void handle(HttpExchange ex) throws IOException {
        Long handedOver = ARRIVED.get();
        long arrived = handedOver != null ? handedOver : System.nanoTime();
        try (ex) {
            String path = ex.getRequestURI().getPath();
            JudgeProtocol protocol = protocolOf(path);
            byte[] raw = ex.getRequestBody().readAllBytes();
            if (GeminiBatchApi.serves(path)) {
                geminiBatches.handle(ex, raw);
                return;
            }
            if (AnthropicBatchApi.serves(path)) {
                anthropicBatches.handle(ex, raw);
                return;
            }
            if (protocol == null || !"POST".equals(ex.getRequestMethod())) {
                send(ex, 404, "{\"error\":\"unknown endpoint\"}");
                return;
            }
            arrivals.incrementAndGet();
            JsonNode body = JSON.readTree(raw);
            String model = modelOf(protocol, path, body);
            String text = allText(body);
            Matcher m = CASE.matcher(text);
            String caseName = m.find() ? m.group(1) : "";
            int attempt = attempts.computeIfAbsent(caseName, k -> new AtomicInteger()).getAndIncrement();
            String auth = authOf(protocol, ex);
            int[] media = countMedia(body);
            Map<String, Object> params = params(protocol, body, ex.getRequestURI().getQuery());
            List<String> metrics = metricNames(body, text);
            Action a = script.apply(new Exchange(protocol, caseName, attempt, metrics, text, model, seedOf(params)));
            Record record = new Record(arrived, protocol, caseName, auth, media, model, params,
                    io.mmgr.stream.artifacts.Digests.sha256(raw));
            ProviderAnswers.Reply door = refusedAtTheDoor(protocol, ex, params);
            if (door != null) {
                send(ex, record.replied(door));
                return;
            }
            Duration over = admit(arrived);
            ProviderAnswers.Reply refused = !over.isZero()
                    ? ProviderAnswers.rateLimited(protocol, model, quota.requests(), over, false)
                    : protocol == JudgeProtocol.ANTHROPIC ? ModelRules.checkAnthropic(params, body) : ModelRules.check(protocol, model, params);
            if (refused != null) {
                record.seen(refused.status(), refused.status() == 429 ? over : null, null);
                send(ex, refused);
                return;
            }
            sleep(a.latency());
            int thinking = ModelRules.thinking(protocol, model, params, a);
            int cap = ModelRules.outputCap(protocol, params);
            Scripted plain = scripted(a, protocol, model, metrics, raw.length, thinking, cap, auth);
            if (plain != null) {
                record.seen(plain.reply().status(), plain.announced(), plain.finish());
                send(ex, plain.reply());
                return;
            }
            switch (a.kind()) {
                case TRUNCATED -> {
                    record.seen(200, null, null);
                    byte[] full = ProviderAnswers.answer(protocol, model, answerJson(metrics, a.scores(), null, null), raw.length, 0, -1)
                            .getBytes(StandardCharsets.UTF_8);
                    ex.getResponseHeaders().add("Content-Type", "application/json");
                    ex.sendResponseHeaders(200, full.length);
                    OutputStream out = ex.getResponseBody();
                    out.write(full, 0, full.length / 2);
                    out.flush();
                    throw new IOException("truncated on purpose"); // the connection is dropped mid-body
                }
                case STREAMED_ANSWER -> {
                    record.seen(200, null, "stop");
                    // the envelope of a normal answer, split where its text goes
                    String envelope = ProviderAnswers.answer(protocol, model, SPLIT, raw.length, 0, -1);
                    int at = envelope.indexOf(SPLIT);
                    stream(ex, out -> {
                        out.write(envelope, 0, at);
                        a.streamed().write(new JsonStringWriter(out));
                        out.write(envelope, at + SPLIT.length(), envelope.length() - at - SPLIT.length());
                    });
                }
                case STREAMED_BODY -> {
                    record.seen(200, null, null);
                    stream(ex, a.streamed());
                }
                default -> throw new IllegalStateException();
            }
        } catch (IOException e) {
            // the client went away (timeout) or the body was cut on purpose
        }
    }

    /** A request being answered: recorded once its answer is known. */
    private final class Record {
        final long arrived;
        final JudgeProtocol protocol;
        final String caseName;
        final String auth;
        final int[] media;
        final String model;
        final Map<String, Object> params;

        final String bodySha256;

        Record(long arrived, JudgeProtocol protocol, String caseName, String auth, int[] media, String model, Map<String, Object> params,
               String bodySha256) {
            this.bodySha256 = bodySha256;
            this.arrived = arrived;
            this.protocol = protocol;
            this.caseName = caseName;
            this.auth = auth;
            this.media = media;
            this.model = model;
            this.params = params;
        }

        void seen(int status, Duration announced, String finish) {
            seen.add(new Seen(arrived, protocol, caseName, auth, media[0], media[1], model, params, status, announced, finish,
                    bodySha256));
        }

        ProviderAnswers.Reply replied(ProviderAnswers.Reply r) {
            seen(r.status(), null, null);
            return r;
        }
    }

    /** A whole answer the script gives (status, headers, body), with what {@link Seen} records of it. */
    record Scripted(ProviderAnswers.Reply reply, Duration announced, String finish) {
    }

    /**
     * The answer of every kind that is one whole body (all but TRUNCATED and the streamed ones, which are null):
     * what a realtime call gets, and what a batch line of the same request gets in the results.
     */
    private static Scripted scripted(Action a, JudgeProtocol protocol, String model, List<String> metrics, int requestBytes,
                                     int thinking, int cap, String auth) throws IOException {
        return switch (a.kind()) {
            case OK -> answered(protocol, model, answerJson(metrics, a.scores(), null, null), requestBytes, thinking, cap);
            case MISSING_METRIC -> answered(protocol, model,
                    answerJson(metrics, a.scores(), metrics.isEmpty() ? null : metrics.get(0), null), requestBytes, thinking, cap);
            case NON_BINARY -> answered(protocol, model,
                    answerJson(metrics, a.scores(), null, metrics.isEmpty() ? null : metrics.get(0)), requestBytes, thinking, cap);
            case RATE_LIMITED -> {
                Duration d = Duration.ofNanos((long) (a.retryAfter() * 1e9));
                yield new Scripted(ProviderAnswers.rateLimited(protocol, model, 60, d, a.retryAfterHeader()), d, null);
            }
            case SERVER_ERROR, HANG -> new Scripted(ProviderAnswers.serverError(protocol), null, null);
            case OVERLOADED -> new Scripted(ProviderAnswers.overloaded(protocol), null, null);
            case UNAUTHORIZED -> new Scripted(ProviderAnswers.unauthorized(protocol, auth), null, null);
            case CONTENT_FILTER -> {
                ProviderAnswers.Reply r = ProviderAnswers.contentFilter(protocol, model);
                yield new Scripted(r, null, r.status() == 200 ? "refusal" : null);
            }
            case MALFORMED -> new Scripted(new ProviderAnswers.Reply(200, Map.of(), "<html>upstream error</html>"), null, null);
            case REFUSAL -> new Scripted(new ProviderAnswers.Reply(200, Map.of(), ProviderAnswers.refusal(protocol, model)), null,
                    "refusal");
            default -> null;
        };
    }

    private static Scripted answered(JudgeProtocol protocol, String model, String content, int requestBytes, int thinking, int cap)
            throws IOException {
        String body = ProviderAnswers.answer(protocol, model, content, requestBytes, thinking, cap);
        return new Scripted(new ProviderAnswers.Reply(200, Map.of(), body), null, ProviderAnswers.finish(protocol, JSON.readTree(body)));
    }

    /**
     * What a batch line holding this realtime request body gets: the same script (case marker, attempt count, model
     * rules) as the realtime call, without the request quota (a batch has its own) and without being counted as a
     * realtime arrival. A streamed answer is written whole; a kind that has no whole body (TRUNCATED, a streamed body) is
     * answered as the provider's 500.
     */
    ProviderAnswers.Reply answerLine(JudgeProtocol protocol, String model, JsonNode body) throws IOException {
        String text = allText(body);
        Matcher m = CASE.matcher(text);
        String caseName = m.find() ? m.group(1) : "";
        int attempt = attempts.computeIfAbsent(caseName, k -> new AtomicInteger()).getAndIncrement();
        Map<String, Object> params = params(protocol, body, null);
        List<String> metrics = metricNames(body, text);
        Action a = script.apply(new Exchange(protocol, caseName, attempt, metrics, text, model, seedOf(params)));
        ProviderAnswers.Reply refused = protocol == JudgeProtocol.ANTHROPIC ? ModelRules.checkAnthropic(params, body)
                : ModelRules.check(protocol, model, params);
        if (refused != null) {
            return refused;
        }
        int bytes = body.toString().getBytes(StandardCharsets.UTF_8).length;
        if (a.kind() == Kind.STREAMED_ANSWER) {
            // written whole into the result, uncapped as the realtime streamed answer: few lines make a large results file
            java.io.StringWriter written = new java.io.StringWriter();
            a.streamed().write(written);
            return answered(protocol, model, written.toString(), bytes, 0, -1).reply();
        }
        Scripted s = scripted(a, protocol, model, metrics, bytes, ModelRules.thinking(protocol, model, params, a),
                ModelRules.outputCap(protocol, params), "");
        return s != null ? s.reply() : ProviderAnswers.serverError(protocol);
    }

    /** The request parameters that decide how a model answers. */
    private static Map<String, Object> params(JudgeProtocol protocol, JsonNode body, String query) {
        Map<String, Object> p = new java.util.LinkedHashMap<>();
        JsonNode src = protocol == JudgeProtocol.GEMINI ? body.path("generationConfig") : body;
        for (String name : List.of("max_tokens", "max_completion_tokens", "temperature", "reasoning_effort", "maxOutputTokens")) {
            JsonNode v = src.get(name);
            if (v != null && !v.isNull()) {
                p.put(name, v.isNumber() ? (Object) v.numberValue() : v.asText());
            }
        }
        JsonNode budget = body.path("generationConfig").path("thinkingConfig").get("thinkingBudget");
        if (budget != null) {
            p.put("thinkingBudget", budget.asInt());
        }
        JsonNode seed = src.get("seed");
        if (seed != null && seed.isIntegralNumber()) {
            p.put("seed", seed.asInt());
        }
        JsonNode user = body.path("metadata").get("user_id");
        if (user != null && user.isTextual()) {
            p.put("metadata.user_id", user.asText());
        }
        JsonNode anthropicBudget = body.path("thinking").get("budget_tokens");
        if (anthropicBudget != null) {
            p.put("budget_tokens", anthropicBudget.asInt());
        }
        for (String pair : query == null ? new String[0] : query.split("&")) {
            if (pair.startsWith("api-version=") && pair.length() > "api-version=".length()) {
                p.put("api-version", pair.substring("api-version=".length()));
            }
        }
        return p;
    }

    private static final Pattern SAMPLE_USER = Pattern.compile("mmgr-sample-([0-9]{1,9})");

    /** The sample seed a request carries (see {@link Exchange#seed}), 0 for none. */
    private static int seedOf(Map<String, Object> params) {
        if (params.get("seed") instanceof Integer i) {
            return i;
        }
        Matcher m = params.get("metadata.user_id") instanceof String u ? SAMPLE_USER.matcher(u) : null;
        return m != null && m.matches() ? Integer.parseInt(m.group(1)) : 0;
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
    static void stream(HttpExchange ex, Streamed body) throws IOException {
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

    static void send(HttpExchange ex, ProviderAnswers.Reply r) throws IOException {
        r.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
        send(ex, r.status(), r.body());
    }

    static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    private static String allText(JsonNode body) {
        StringBuilder b = new StringBuilder();
        if (body.path("system").isTextual()) {
            b.append(body.path("system").asText()).append('\n'); // Anthropic's system prompt
        }
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
                if (part.has("image_url") || "image".equals(part.path("type").asText())) {
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
        if (schema.isMissingNode()) {
            schema = body.path("output_config").path("format").path("schema");
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

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
