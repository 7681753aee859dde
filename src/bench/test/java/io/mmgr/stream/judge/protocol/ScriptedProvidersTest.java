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

/**
 * The scripted providers answer as OpenAI and Gemini document and really answer (checked on the raw
 * HTTP exchange: status, headers, error objects), and the clients read those answers right: the hints
 * of a 429, the 400s of reasoning models, thinking answers cut at the cap before any text.
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
        return p == JudgeProtocol.OPENAI
                ? new OpenAiChatClient(URI.create(server.openAiBaseUrl()), ApiKey.none(), Duration.ofSeconds(20), StructuredOutput.NONE)
                : new GeminiClient(URI.create(server.geminiBaseUrl()), ApiKey.none(), Duration.ofSeconds(20), StructuredOutput.NONE);
    }

    static ProviderCall call(String model, ModelProfile profile) {
        return new ProviderCall(model, "Grade it.", List.of(new ProviderCall.Text("case=x grade")),
                Map.of("type", "object", "properties", Map.of("final_correctness", Map.of("type", "object"))), profile);
    }

    ProviderException failure(JudgeProtocol p, ProviderCall call) {
        Throwable t = catchThrowable(() -> client(p).send(call).get(30, TimeUnit.SECONDS));
        Throwable cause = t.getCause() instanceof CompletionException c ? c.getCause() : t.getCause();
        assertThat(cause).isInstanceOf(ProviderException.class);
        return (ProviderException) cause;
    }

    ProviderReply reply(JudgeProtocol p, ProviderCall call) throws Exception {
        return client(p).send(call).get(30, TimeUnit.SECONDS);
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

    @Test
    void aRefusedKeyIsAConfigurationProblemOnBothProtocols() throws Exception {
        start(e -> Action.of(Kind.UNAUTHORIZED));
        ProviderException o = failure(JudgeProtocol.OPENAI, call("gpt-4o", ModelProfile.forModel(JudgeProtocol.OPENAI, "gpt-4o")));
        assertThat(o.status()).isEqualTo(401);
        assertThat(o.kind()).isEqualTo(ProviderException.Kind.CONFIGURATION);
        ProviderException g = failure(JudgeProtocol.GEMINI, call("gemini-2.5-pro", ModelProfile.forModel(JudgeProtocol.GEMINI, "gemini-2.5-pro")));
        assertThat(g.status()).isEqualTo(400);
        assertThat(g.getMessage()).contains("API_KEY_INVALID");
        assertThat(g.kind()).as("Gemini's invalid key is a 400, yet not a rejection of the request")
                .isEqualTo(ProviderException.Kind.CONFIGURATION);
    }
}
