package io.mmgr.stream.judge.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.bench.ScriptedVlmServer.Kind;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The scripted providers answer as OpenAI, Gemini, Anthropic and Azure OpenAI document and really answer
 * (checked on the raw HTTP exchange: status, headers, error objects), and the clients read those answers
 * right: the hints of a 429, the 400s of reasoning models, thinking answers cut at the cap before any
 * text, content filters; every protocol reads the usual failures alike and sends its key only in its header.
 */
@Tag("unit")
class ScriptedProvidersTest {

    static final ObjectMapper JSON = new ObjectMapper();
    ScriptedVlmServer server;

    @AfterEach
    void stop() {
        server.close();
    }

    void start(Function<ScriptedVlmServer.Exchange, Action> script) throws Exception {
        server = ScriptedVlmServer.start(script);
    }

    HttpResponse<String> post(String path, String body) throws Exception {
        String base = path.startsWith("/models") ? server.geminiBaseUrl() : server.openAiBaseUrl();
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String chat(String model, String params) {
        return "{\"model\": \"" + model + "\", \"messages\": [{\"role\": \"user\", \"content\": \"grade case=x\"}]" + params + "}";
    }

    static String gemini(String config) {
        return "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"grade case=x\"}]}], \"generationConfig\": " + config + "}";
    }

    ProviderClient client(JudgeProtocol p) {
        return client(p, "gpt-4o", Map.of());
    }

    /** The client the judge builds for {@code p} against the scripted provider (an Azure deployment named after the model). */
    ProviderClient client(JudgeProtocol p, String model, Map<String, String> env) {
        return io.mmgr.stream.judge.JudgeRuntime.client(io.mmgr.stream.judge.JudgeSettings.builder(p, URI.create(server.baseUrl(p)), model)
                .apiKeyEnv(env.isEmpty() ? null : "SCRIPTED_KEY").structuredOutput(StructuredOutput.NONE)
                .timeout(Duration.ofSeconds(15)).build(), env);
    }

    HttpResponse<String> postTo(String url, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (headers.length > 0) {
            b.headers(headers);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String messages(String model, String params) {
        return "{\"model\": \"" + model + "\", \"system\": \"Grade it.\", \"messages\": [{\"role\": \"user\", \"content\": "
                + "[{\"type\": \"text\", \"text\": \"grade case=x\"}]}]" + params + "}";
    }

    String azure(String deployment, String query) {
        return server.azureEndpoint() + "/openai/deployments/" + deployment + "/chat/completions" + query;
    }

    static ProviderCall call(String model, ModelProfile profile) {
        return new ProviderCall(model, "Grade it.", List.of(new ProviderCall.Text("case=x grade")),
                Map.of("type", "object", "properties", Map.of("final_correctness", Map.of("type", "object"))), profile);
    }

    ProviderException failure(JudgeProtocol p, ProviderCall call) {
        return failure(client(p, call.model(), Map.of()), call);
    }

    static ProviderException failure(ProviderClient client, ProviderCall call) {
        Throwable t = catchThrowable(() -> client.send(call).get(30, TimeUnit.SECONDS));
        Throwable cause = t.getCause() instanceof CompletionException c ? c.getCause() : t.getCause();
        assertThat(cause).isInstanceOf(ProviderException.class);
        return (ProviderException) cause;
    }

    ProviderReply reply(JudgeProtocol p, ProviderCall call) throws Exception {
        return client(p, call.model(), Map.of()).send(call).get(30, TimeUnit.SECONDS);
    }

    @Test
    void openAiRateLimitsAnnounceTheirResetInHeadersAndInTheMessage() throws Exception {
        start(e -> Action.rateLimited(1.5));
        HttpResponse<String> r = post("/chat/completions", chat("gpt-4.1", ""));
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("x-ratelimit-remaining-requests")).hasValue("0");
        assertThat(r.headers().firstValue("x-ratelimit-reset-requests")).hasValue("1.5s");
        assertThat(r.headers().firstValue("x-ratelimit-reset-tokens")).hasValue("400ms");
        JsonNode error = JSON.readTree(r.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo("requests");
        assertThat(error.get("code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(error.get("param").isNull()).isTrue();
        assertThat(error.get("message").asText()).startsWith("Rate limit reached for gpt-4.1 in organization")
                .contains("on requests per min (RPM): Limit 60, Used 60, Requested 1. Please try again in 1.5s.");

        ProviderException e = failure(JudgeProtocol.OPENAI, call("gpt-4.1", ModelProfile.forModel(JudgeProtocol.OPENAI, "gpt-4.1")));
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.RATE_LIMITED);
        // the request limit ran out: its reset is the wait (not the tokens' 400 ms)
        assertThat(e.retryAfter()).isEqualTo(Duration.ofMillis(1500));
        assertThat(e.hint().source()).isEqualTo("x-ratelimit-reset-requests");
    }

    @Test
    void geminiRateLimitsAnnounceTheirWaitInRetryInfoAndTheMessage() throws Exception {
        start(e -> Action.rateLimited(1.7));
        HttpResponse<String> r = post("/models/gemini-2.5-flash:generateContent", gemini("{}"));
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("Retry-After")).as("Gemini puts it in the body").isEmpty();
        JsonNode error = JSON.readTree(r.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(429);
        assertThat(error.get("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(error.get("message").asText()).contains("You exceeded your current quota").endsWith("Please retry in 1.7s.");
        assertThat(error.get("details")).extracting(d -> d.get("@type").asText()).containsExactly(
                "type.googleapis.com/google.rpc.QuotaFailure", "type.googleapis.com/google.rpc.Help",
                "type.googleapis.com/google.rpc.RetryInfo");
        assertThat(error.get("details").get(0).get("violations").get(0).get("quotaId").asText())
                .isEqualTo("GenerateRequestsPerMinutePerProjectPerModel-FreeTier");
        assertThat(error.get("details").get(2).get("retryDelay").asText()).as("whole seconds, as the free tier sends it")
                .isEqualTo("1s");

        ProviderException e = failure(JudgeProtocol.GEMINI, call("gemini-2.5-flash",
                ModelProfile.forModel(JudgeProtocol.GEMINI, "gemini-2.5-flash")));
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.RATE_LIMITED);
        assertThat(e.retryAfter()).as("the longer of retryDelay (1 s) and the message (1.7 s)").isEqualTo(Duration.ofMillis(1700));
    }

    @Test
    void serverErrorsAndOverloadAsEachProviderWordsThem() throws Exception {
        start(e -> Action.of(e.caseName().equals("x") && e.attempt() % 2 == 0 ? Kind.SERVER_ERROR : Kind.OVERLOADED));
        HttpResponse<String> o500 = post("/chat/completions", chat("gpt-4o", ""));
        assertThat(o500.statusCode()).isEqualTo(500);
        assertThat(JSON.readTree(o500.body()).at("/error/type").asText()).isEqualTo("server_error");
        HttpResponse<String> o503 = post("/chat/completions", chat("gpt-4o", ""));
        assertThat(o503.statusCode()).isEqualTo(503);
        HttpResponse<String> g500 = post("/models/gemini-2.5-pro:generateContent", gemini("{}"));
        assertThat(JSON.readTree(g500.body()).at("/error/status").asText()).isEqualTo("INTERNAL");
        HttpResponse<String> g503 = post("/models/gemini-2.5-pro:generateContent", gemini("{}"));
        assertThat(g503.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(g503.body()).at("/error/message").asText()).isEqualTo("The model is overloaded. Please try again later.");
        ProviderException e = failure(JudgeProtocol.GEMINI, call("gemini-2.5-pro", ModelProfile.forModel(JudgeProtocol.GEMINI, "gemini-2.5-pro")));
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.SERVER);
        assertThat(e.retryable()).isTrue();
    }

    @Test
    void openAiReasoningModelsRejectMaxTokensAndTemperatureAsOpenAiDoes() throws Exception {
        start(e -> Action.ok(Duration.ZERO, Map.of()));
        HttpResponse<String> maxTokens = post("/chat/completions", chat("o4-mini", ", \"max_tokens\": 2048"));
        assertThat(maxTokens.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(maxTokens.body()).get("error")).isEqualTo(JSON.readTree("""
                {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
                 "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}"""));
        HttpResponse<String> temperature = post("/chat/completions",
                chat("gpt-5", ", \"max_completion_tokens\": 4000, \"temperature\": 0"));
        assertThat(temperature.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(temperature.body()).get("error")).isEqualTo(JSON.readTree("""
                {"message": "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
                 "type": "invalid_request_error", "param": "temperature", "code": "unsupported_value"}"""));
        assertThat(post("/chat/completions", chat("gpt-4o", ", \"max_tokens\": 2048, \"temperature\": 0")).statusCode())
                .as("a chat model takes both").isEqualTo(200);

        // the clients: a chat profile on o4-mini is rejected (final for that configuration); its own profile answers
        ProviderException e = failure(JudgeProtocol.OPENAI, call("o4-mini", ModelProfile.defaults(ModelProfile.Kind.OPENAI_CHAT, "o4-mini")));
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.REJECTED);
        assertThat(e.kind().answered()).isTrue();
        ProviderReply ok = reply(JudgeProtocol.OPENAI, call("o4-mini", ModelProfile.forModel(JudgeProtocol.OPENAI, "o4-mini")));
        assertThat(ok.finishReason()).isEqualTo("stop");
        assertThat(ok.thinkingTokens()).as("reasoning at medium effort").isEqualTo(2_500);
        assertThat(ok.outputTokens()).isGreaterThan(2_500);
    }

    @Test
    void aReasoningAnswerOutOfRoomComesBackEmptyWithFinishLength() throws Exception {
        start(e -> Action.ok(Duration.ZERO, Map.of()));
        ProviderReply r = reply(JudgeProtocol.OPENAI, call("o4-mini",
                ModelProfile.forModel(JudgeProtocol.OPENAI, "o4-mini").withThinkingTokens(0).withAnswerTokens(1_000)));
        assertThat(r.finishReason()).isEqualTo("length");
        assertThat(r.text()).isEmpty();
        assertThat(r.thinkingTokens()).isEqualTo(1_000);
        assertThat(r.cutBeforeAnswer()).isTrue();
    }

    @Test
    void gemini25ProCountsItsThoughtsAgainstTheOutputCap() throws Exception {
        start(e -> Action.ok(Duration.ZERO, Map.of()));
        // no thinkingConfig and a 2,048 cap, as the judge used to ask: the model thinks 3,000 and runs out before any text
        HttpResponse<String> raw = post("/models/gemini-2.5-pro:generateContent", gemini("{\"maxOutputTokens\": 2048}"));
        JsonNode body = JSON.readTree(raw.body());
        assertThat(body.at("/candidates/0/finishReason").asText()).isEqualTo("MAX_TOKENS");
        assertThat(body.at("/candidates/0/content")).isEqualTo(JSON.readTree("{\"role\": \"model\"}"));
        assertThat(body.at("/usageMetadata/thoughtsTokenCount").asInt()).isEqualTo(2_048);
        assertThat(body.at("/usageMetadata").has("candidatesTokenCount")).isFalse();
        ProviderReply cut = reply(JudgeProtocol.GEMINI, call("gemini-2.5-pro", ModelProfile.defaults(ModelProfile.Kind.GEMINI, "gemini-2.5-pro")));
        assertThat(cut.cutBeforeAnswer()).isTrue();
        assertThat(cut.thinkingTokens()).isEqualTo(2_048);

        // its own profile: a 4,096 budget inside a 6,144 cap leaves room for the answer
        ProviderReply ok = reply(JudgeProtocol.GEMINI, call("gemini-2.5-pro", ModelProfile.forModel(JudgeProtocol.GEMINI, "gemini-2.5-pro")));
        assertThat(ok.finishReason()).isEqualTo("STOP");
        assertThat(ok.text()).isNotBlank();
        assertThat(ok.thinkingTokens()).isEqualTo(3_000);
        assertThat(server.seen().get(2).params()).containsEntry("thinkingBudget", 4_096).containsEntry("maxOutputTokens", 6_144)
                .containsEntry("temperature", 0);

        // 2.5 Pro only works in thinking mode
        HttpResponse<String> off = post("/models/gemini-2.5-pro:generateContent",
                gemini("{\"maxOutputTokens\": 2048, \"thinkingConfig\": {\"thinkingBudget\": 0}}"));
        assertThat(off.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(off.body()).at("/error/status").asText()).isEqualTo("INVALID_ARGUMENT");
    }

    /** A model of each protocol's that judges without reasoning, and the key header as each protocol sends it. */
    static String model(JudgeProtocol p) {
        return switch (p) {
            case OPENAI, AZURE_OPENAI -> "gpt-4o";
            case GEMINI -> "gemini-2.0-flash";
            case ANTHROPIC -> "claude-sonnet-4-5";
        };
    }

    static ProviderCall plain(JudgeProtocol p) {
        return call(model(p), ModelProfile.forModel(p, model(p)));
    }

    @ParameterizedTest
    @EnumSource(JudgeProtocol.class)
    void everyProtocolReadsTheUsualFailuresAlike(JudgeProtocol p) throws Exception {
        java.util.concurrent.atomic.AtomicReference<Action> next = new java.util.concurrent.atomic.AtomicReference<>();
        start(e -> next.get());
        Map<Kind, ProviderException.Kind> expected = new java.util.LinkedHashMap<>();
        expected.put(Kind.SERVER_ERROR, ProviderException.Kind.SERVER);
        expected.put(Kind.OVERLOADED, ProviderException.Kind.SERVER);
        expected.put(Kind.UNAUTHORIZED, ProviderException.Kind.CONFIGURATION);
        expected.put(Kind.MALFORMED, ProviderException.Kind.MALFORMED);
        expected.put(Kind.TRUNCATED, ProviderException.Kind.TRANSPORT);
        expected.put(Kind.REFUSAL, ProviderException.Kind.REFUSED);
        expected.put(Kind.CONTENT_FILTER, ProviderException.Kind.REFUSED);
        for (var e : expected.entrySet()) {
            next.set(Action.of(e.getKey()));
            ProviderException x = failure(p, plain(p));
            assertThat(x.kind()).as(p + " " + e.getKey() + ": " + x.getMessage()).isEqualTo(e.getValue());
            assertThat(x.retryable()).as(p + " " + e.getKey()).isEqualTo(e.getValue().retryable());
        }
        next.set(Action.rateLimited(1.2));
        ProviderException limited = failure(p, plain(p));
        assertThat(limited.kind()).isEqualTo(ProviderException.Kind.RATE_LIMITED);
        assertThat(limited.retryAfter()).as(p + ": the wait announced, never less").isBetween(Duration.ofMillis(1200), Duration.ofSeconds(3));

        next.set(Action.ok(Duration.ZERO, Map.of("final_correctness", 0.0)));
        ProviderReply ok = reply(p, plain(p));
        assertThat(JSON.readTree(ok.text()).at("/final_correctness/score").asInt()).isZero();
        assertThat(ok.inputTokens()).isPositive();
        assertThat(ok.outputTokens()).isPositive();
        assertThat(ok.cutBeforeAnswer()).isFalse();
        assertThat(server.seen()).extracting(ScriptedVlmServer.Seen::protocol).containsOnly(p);
        assertThat(server.seen().get(server.seen().size() - 1).finish()).isIn("stop", "STOP", "end_turn");
    }

    @ParameterizedTest
    @EnumSource(JudgeProtocol.class)
    void theKeyTravelsInItsProtocolsHeaderAndNowhereElse(JudgeProtocol p) throws Exception {
        String key = "judge-key-8Vb3Nc5s3cr3tJ";
        start(e -> e.attempt() == 0 ? Action.of(Kind.UNAUTHORIZED) : Action.ok(Duration.ZERO, Map.of()));
        ProviderClient c = client(p, model(p), Map.of("SCRIPTED_KEY", key));
        ProviderException refused = failure(c, plain(p));
        assertThat(refused.kind()).isEqualTo(ProviderException.Kind.CONFIGURATION);
        for (String text : new String[] {refused.getMessage(), refused.body(), String.valueOf(refused)}) {
            assertThat(text).doesNotContain(key);
        }
        assertThat(c.send(plain(p)).get(30, TimeUnit.SECONDS).text()).isNotBlank();
        String sent = p == JudgeProtocol.OPENAI ? "Bearer " + key : key;
        assertThat(server.seen()).hasSize(2).allSatisfy(x -> assertThat(x.authorization()).isEqualTo(sent));
    }

    @ParameterizedTest
    @EnumSource(JudgeProtocol.class)
    void imagesTravelInlineInTheProtocolsOwnBlocksAndVideosOnlyToGemini(JudgeProtocol p) throws Exception {
        start(e -> Action.ok(Duration.ZERO, Map.of()));
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10};
        ProviderCall withImage = new ProviderCall(model(p), "Grade it.", List.of(new ProviderCall.Text("case=x look"),
                new ProviderCall.Media("image/png", png), new ProviderCall.Text("and grade")), null, ModelProfile.forModel(p, model(p)));
        assertThat(reply(p, withImage).text()).isNotBlank();
        assertThat(server.seen().get(0).images()).as("the image block the scripted %s provider counts", p).isEqualTo(1);
        ProviderCall withVideo = new ProviderCall(model(p), "Grade it.", List.of(new ProviderCall.Text("case=x"),
                new ProviderCall.Media("video/mp4", new byte[] {0, 0, 0, 24})), null, ModelProfile.forModel(p, model(p)));
        ProviderClient c = client(p, model(p), Map.of());
        assertThat(c.acceptsVideo()).isEqualTo(p == JudgeProtocol.GEMINI);
        if (!c.acceptsVideo()) {
            ProviderException refused = failure(c, withVideo);
            assertThat(refused.kind()).isEqualTo(ProviderException.Kind.REJECTED);
            assertThat(refused.getMessage()).contains("takes no video parts; send frames");
            assertThat(server.seen()).as("nothing sent").hasSize(1);
        }
    }

    @Test
    void aRefusedKeyIsAConfigurationProblemOnEveryProtocol() throws Exception {
        start(e -> Action.of(Kind.UNAUTHORIZED));
        ProviderException o = failure(JudgeProtocol.OPENAI, call("gpt-4o", ModelProfile.forModel(JudgeProtocol.OPENAI, "gpt-4o")));
        assertThat(o.status()).isEqualTo(401);
        assertThat(o.kind()).isEqualTo(ProviderException.Kind.CONFIGURATION);
        ProviderException g = failure(JudgeProtocol.GEMINI, call("gemini-2.5-pro", ModelProfile.forModel(JudgeProtocol.GEMINI, "gemini-2.5-pro")));
        assertThat(g.status()).isEqualTo(400);
        assertThat(g.getMessage()).contains("API_KEY_INVALID");
        assertThat(g.kind()).as("Gemini's invalid key is a 400, yet not a rejection of the request")
                .isEqualTo(ProviderException.Kind.CONFIGURATION);
        ProviderException a = failure(JudgeProtocol.ANTHROPIC, plain(JudgeProtocol.ANTHROPIC));
        assertThat(a.status()).isEqualTo(401);
        assertThat(a.getMessage()).contains("authentication_error", "invalid x-api-key");
        ProviderException z = failure(JudgeProtocol.AZURE_OPENAI, plain(JudgeProtocol.AZURE_OPENAI));
        assertThat(z.status()).isEqualTo(401);
        assertThat(z.getMessage()).contains("Access denied due to invalid subscription key");
    }

    @Test
    void anthropicAnswersAsItsDocumentationSays() throws Exception {
        // attempts count every request of the case, the one refused at the door (no version) too
        start(e -> switch (e.attempt()) {
            case 2 -> Action.rateLimited(1.5);
            case 3 -> Action.of(Kind.OVERLOADED);
            default -> Action.ok(Duration.ZERO, Map.of());
        });
        String url = server.anthropicBaseUrl() + "/messages";
        HttpResponse<String> noVersion = postTo(url, messages("claude-sonnet-4-5", ", \"max_tokens\": 1024"));
        assertThat(noVersion.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(noVersion.body())).isEqualTo(JSON.readTree("""
                {"type": "error", "error": {"type": "invalid_request_error", "message": "anthropic-version: header is required"},
                 "request_id": "req_scripted"}"""));
        HttpResponse<String> ok = postTo(url, messages("claude-sonnet-4-5", ", \"max_tokens\": 1024"), "anthropic-version", "2023-06-01");
        JsonNode m = JSON.readTree(ok.body());
        assertThat(m.get("type").asText()).isEqualTo("message");
        assertThat(m.get("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(m.at("/content/0/type").asText()).isEqualTo("text");
        assertThat(m.at("/usage/input_tokens").asInt()).isPositive();
        assertThat(m.at("/usage/output_tokens").asInt()).isPositive();

        HttpResponse<String> limited = postTo(url, messages("claude-sonnet-4-5", ", \"max_tokens\": 1024"), "anthropic-version", "2023-06-01");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after")).as("whole seconds, rounded up").hasValue("2");
        assertThat(limited.headers().firstValue("anthropic-ratelimit-requests-remaining")).hasValue("0");
        assertThat(java.time.Instant.parse(limited.headers().firstValue("anthropic-ratelimit-requests-reset").orElseThrow()))
                .isAfter(java.time.Instant.now().plusMillis(1000));
        assertThat(JSON.readTree(limited.body()).at("/error/type").asText()).isEqualTo("rate_limit_error");
        HttpResponse<String> overloaded = postTo(url, messages("claude-sonnet-4-5", ", \"max_tokens\": 1024"), "anthropic-version",
                "2023-06-01");
        assertThat(overloaded.statusCode()).isEqualTo(529);
        assertThat(JSON.readTree(overloaded.body()).at("/error/type").asText()).isEqualTo("overloaded_error");

        // what the client sent for the first answer: the version header, max_tokens, a temperature, no thinking
        ProviderReply r = reply(JudgeProtocol.ANTHROPIC, call("claude-sonnet-4-5", ModelProfile.forModel(JudgeProtocol.ANTHROPIC,
                "claude-sonnet-4-5")));
        assertThat(r.finishReason()).isEqualTo("end_turn");
        assertThat(server.seen().get(server.seen().size() - 1).params()).containsEntry("max_tokens", 2048).containsEntry("temperature", 0)
                .doesNotContainKey("budget_tokens");
    }

    @Test
    void claudesStructuredOutputGetsTheRubricSchemaWithoutTheBoundsAnthropicRefuses() throws Exception {
        start(e -> Action.ok(Duration.ZERO, Map.of("progress", 0.5)));
        // a fraction metric's score is bounded 0..1 in the rubric's schema; Anthropic answers 400 to the bound
        Map<String, Object> fraction = Map.of("type", "object", "additionalProperties", false, "required", List.of("score"),
                "properties", Map.of("score", Map.of("type", "number", "minimum", 0, "maximum", 1)));
        Map<String, Object> schema = Map.of("type", "object", "additionalProperties", false, "required", List.of("progress"),
                "properties", Map.of("progress", fraction));
        HttpResponse<String> raw = postTo(server.anthropicBaseUrl() + "/messages", messages("claude-sonnet-4-5",
                ", \"max_tokens\": 1024, \"output_config\": {\"format\": {\"type\": \"json_schema\", \"schema\": "
                        + JSON.writeValueAsString(schema) + "}}"), "anthropic-version", "2023-06-01");
        assertThat(raw.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(raw.body()).at("/error/message").asText())
                .isEqualTo("output_config.format.schema: For 'number' type, property 'minimum' is not supported");

        ProviderClient c = new AnthropicClient(URI.create(server.anthropicBaseUrl()), ApiKey.none(), Duration.ofSeconds(15),
                StructuredOutput.JSON_SCHEMA);
        ProviderReply r = c.send(new ProviderCall("claude-sonnet-4-5", "Grade it.", List.of(new ProviderCall.Text("case=x grade")),
                schema, ModelProfile.forModel(JudgeProtocol.ANTHROPIC, "claude-sonnet-4-5"))).get(30, TimeUnit.SECONDS);
        assertThat(JSON.readTree(r.text()).at("/progress/score").asDouble()).as("the metric named by the schema sent").isEqualTo(0.5);
    }

    @Test
    void claudeThinkingOutOfRoomStopsAtMaxTokensWithoutTextAndIsAskedAgainWithMore() throws Exception {
        start(e -> Action.ok(Duration.ZERO, Map.of()).thinking(9_000, 2_100));
        String url = server.anthropicBaseUrl() + "/messages";
        HttpResponse<String> withTemperature = postTo(url, messages("claude-sonnet-4-5",
                ", \"max_tokens\": 6144, \"temperature\": 0, \"thinking\": {\"type\": \"enabled\", \"budget_tokens\": 4096}"),
                "anthropic-version", "2023-06-01");
        assertThat(withTemperature.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(withTemperature.body()).at("/error/message").asText())
                .startsWith("`temperature` may only be set to 1 when thinking is enabled.");
        HttpResponse<String> small = postTo(url, messages("claude-sonnet-4-5",
                ", \"max_tokens\": 6144, \"thinking\": {\"type\": \"enabled\", \"budget_tokens\": 512}"), "anthropic-version", "2023-06-01");
        assertThat(JSON.readTree(small.body()).at("/error/message").asText()).contains("greater than or equal to 1024");

        ModelProfile thinking = ModelProfile.defaults(ModelProfile.Kind.ANTHROPIC_THINKING, "claude-sonnet-4-5");
        ProviderReply cut = reply(JudgeProtocol.ANTHROPIC, call("claude-sonnet-4-5", thinking));
        assertThat(cut.finishReason()).isEqualTo("max_tokens");
        assertThat(cut.text()).isEmpty();
        assertThat(cut.outputTokens()).as("the whole cap went on thinking").isEqualTo(6_144);
        assertThat(cut.cutBeforeAnswer()).isTrue();
        ProviderReply again = reply(JudgeProtocol.ANTHROPIC, call("claude-sonnet-4-5", thinking.enlarged()));
        assertThat(again.finishReason()).isEqualTo("end_turn");
        assertThat(again.text()).isNotBlank();
        assertThat(again.outputTokens()).isGreaterThan(9_000);
        assertThat(server.seen().subList(2, 4)).extracting(x -> x.params().get("max_tokens") + "/" + x.params().get("budget_tokens") + " "
                + x.finish()).containsExactly("6144/4096 max_tokens", "10240/8192 end_turn");
        assertThat(server.seen().get(2).params()).doesNotContainKey("temperature");
    }

    @Test
    void azureAnswersAtItsDeploymentUrlAndFiltersAsItsDocumentationSays() throws Exception {
        // attempts count every request of the case, the one refused at the door (no api-version) too
        start(e -> switch (e.attempt()) {
            case 2 -> Action.rateLimited(1.5);
            case 3 -> Action.of(Kind.CONTENT_FILTER);
            case 4 -> Action.of(Kind.REFUSAL);
            default -> Action.ok(Duration.ZERO, Map.of());
        });
        HttpResponse<String> noVersion = postTo(azure("gpt-4o", ""), chat("ignored", ""));
        assertThat(noVersion.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(noVersion.body()).at("/error/message").asText()).isEqualTo("Resource not found");
        HttpResponse<String> ok = postTo(azure("gpt-4o", "?api-version=2024-10-21"), chat("ignored", ""));
        JsonNode a = JSON.readTree(ok.body());
        assertThat(a.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(a.at("/prompt_filter_results/0/content_filter_results/hate/filtered").asBoolean()).isFalse();
        assertThat(a.at("/choices/0/content_filter_results/violence/severity").asText()).isEqualTo("safe");

        HttpResponse<String> limited = postTo(azure("gpt-4o", "?api-version=2024-10-21"), chat("ignored", ""));
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after")).hasValue("2");
        assertThat(limited.headers().firstValue("retry-after-ms")).hasValue("1500");
        assertThat(JSON.readTree(limited.body()).at("/error/message").asText()).contains("Please retry after 2 seconds.");

        ProviderException prompt = failure(JudgeProtocol.AZURE_OPENAI, plain(JudgeProtocol.AZURE_OPENAI));
        assertThat(prompt.status()).isEqualTo(400);
        assertThat(prompt.kind()).as("final, not retried").isEqualTo(ProviderException.Kind.REFUSED);
        assertThat(prompt.getMessage()).startsWith("the prompt was blocked by Azure OpenAI's content filter (violence: medium) (HTTP 400");
        ProviderException answer = failure(JudgeProtocol.AZURE_OPENAI, plain(JudgeProtocol.AZURE_OPENAI));
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.kind()).isEqualTo(ProviderException.Kind.REFUSED);
        assertThat(answer.getMessage()).isEqualTo("the answer was blocked by Azure OpenAI's content filter (hate: high)");

        // the deployment is in the path, the api-version in the query, the deployment's model rules apply (o4-mini reasons)
        ProviderReply o4 = reply(JudgeProtocol.AZURE_OPENAI, call("o4-mini", ModelProfile.forModel(JudgeProtocol.AZURE_OPENAI, "o4-mini")));
        assertThat(o4.thinkingTokens()).isEqualTo(2_500);
        ScriptedVlmServer.Seen last = server.seen().get(server.seen().size() - 1);
        assertThat(last.model()).isEqualTo("o4-mini");
        assertThat(last.params()).containsEntry("api-version", "2024-10-21").containsEntry("max_completion_tokens", 16_384)
                .doesNotContainKeys("max_tokens", "temperature");
    }

    @Test
    void azureRateLimitsAreReadFromRetryAfterMs() throws Exception {
        start(e -> Action.rateLimited(0.3));
        ProviderException e = failure(JudgeProtocol.AZURE_OPENAI, plain(JudgeProtocol.AZURE_OPENAI));
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.RATE_LIMITED);
        // retry-after and the message say 1 s (whole seconds, rounded up): the longest wait is never early
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(1));
        assertThat(RetryHints.millis("300")).isEqualTo(Duration.ofMillis(300));
    }
}
