package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;

/**
 * Gemini's native {@code POST <base>/models/<model>:generateContent}, with inline image and video
 * parts and structured output through {@code responseMimeType} (and {@code responseSchema}, an OpenAPI
 * subset: the converter drops what it does not take, the rubric's parser still validates everything).
 * Thinking models get {@code thinkingConfig.thinkingBudget} and an output cap with room for the thoughts.
 */
public final class GeminiClient extends HttpProviderClient {

    private static final Set<String> BLOCKED = Set.of("SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII",
            "IMAGE_SAFETY");
    /** Error reasons (google.rpc.ErrorInfo) and statuses of a 400 that are about the key or the project, not the request. */
    private static final Set<String> CONFIGURATION_REASONS = Set.of("API_KEY_INVALID", "API_KEY_SERVICE_BLOCKED",
            "SERVICE_DISABLED", "CONSUMER_INVALID");

    private final StructuredOutput structured;

    public GeminiClient(URI baseUrl, ApiKey key, Duration requestTimeout, StructuredOutput structured) {
        super(baseUrl, key, requestTimeout);
        this.structured = structured;
    }

    @Override
    public JudgeProtocol protocol() {
        return JudgeProtocol.GEMINI;
    }

    @Override
    public boolean acceptsVideo() {
        return true;
    }

    @Override
    ObjectNode requestJson(ProviderCall call) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("systemInstruction").putArray("parts").addObject().put("text", call.system());
        ObjectNode user = body.putArray("contents").addObject().put("role", "user");
        ArrayNode parts = user.putArray("parts");
        for (ProviderCall.Part p : call.parts()) {
            if (p instanceof ProviderCall.Text t) {
                parts.addObject().put("text", t.text());
            } else if (p instanceof ProviderCall.Media m) {
                parts.addObject().putObject("inlineData").put("mimeType", m.mimeType())
                        .put("data", Base64.getEncoder().encodeToString(m.bytes()));
            }
        }
        ObjectNode config = body.putObject("generationConfig");
        ModelProfile profile = call.profile();
        config.put("temperature", 0);
        if (profile.seed() != 0) {
            config.put("seed", profile.seed());
        }
        // thoughts count against maxOutputTokens: the cap holds the thinking budget and the answer's room
        config.put("maxOutputTokens", profile.outputCap());
        if (profile.kind() == ModelProfile.Kind.GEMINI_THINKING) {
            config.putObject("thinkingConfig").put("thinkingBudget", profile.thinkingTokens());
        }
        if (call.schema() != null && structured != StructuredOutput.NONE) {
            config.put("responseMimeType", "application/json");
            if (structured == StructuredOutput.JSON_SCHEMA) {
                config.set("responseSchema", JSON.valueToTree(geminiSchema(call.schema())));
            }
        }
        return body;
    }

    @Override
    HttpRequest.Builder request(ProviderCall call) {
        String model = URLEncoder.encode(call.model(), StandardCharsets.UTF_8).replace("%2F", "/");
        return authorize(HttpRequest.newBuilder(URI.create(baseUrl + "/models/" + model + ":generateContent")));
    }

    @Override
    public HttpRequest.Builder authorize(HttpRequest.Builder b) {
        if (key.present()) {
            b.header("x-goog-api-key", key.value());
        }
        return b;
    }

    /** Gemini answers an invalid key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID): that is the key, not the request. */
    @Override
    ProviderException.Kind classify(int status, JsonNode error) {
        if (status == 400 && error != null) {
            if ("FAILED_PRECONDITION".equals(text(error.path("error").get("status")))) {
                return ProviderException.Kind.CONFIGURATION; // e.g. the API is not available in the project's region
            }
            for (JsonNode d : error.path("error").path("details")) {
                if (CONFIGURATION_REASONS.contains(d.path("reason").asText(""))) {
                    return ProviderException.Kind.CONFIGURATION;
                }
            }
        }
        return super.classify(status, error);
    }

    /** RetryInfo's {@code retryDelay}, the message's "Please retry in", Retry-After: the longest. */
    @Override
    RetryHints.Hint hint(HttpHeaders headers, JsonNode error) {
        RetryHints.Hint hint = RetryHints.Hint.longer(super.hint(headers, error),
                RetryHints.Hint.of(RetryHints.geminiRetryInfo(error), "RetryInfo retryDelay"));
        return RetryHints.Hint.longer(hint, RetryHints.inMessage(error == null ? null : text(error.path("error").get("message"))));
    }

    /** JSON schema to Gemini's Schema: upper-case types, no additionalProperties, enums only on strings. */
    @SuppressWarnings("unchecked")
    static java.util.Map<String, Object> geminiSchema(java.util.Map<String, Object> schema) {
        java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
        String type = String.valueOf(schema.get("type"));
        out.put("type", type.toUpperCase(java.util.Locale.ROOT));
        schema.forEach((k, v) -> {
            switch (k) {
                case "type", "additionalProperties" -> { }
                case "enum" -> {
                    if ("string".equals(type)) {
                        out.put("enum", v);
                    }
                }
                case "properties" -> {
                    java.util.Map<String, Object> props = new java.util.LinkedHashMap<>();
                    ((java.util.Map<String, Object>) v).forEach((name, s) -> props.put(name, geminiSchema((java.util.Map<String, Object>) s)));
                    out.put("properties", props);
                }
                case "items" -> out.put("items", geminiSchema((java.util.Map<String, Object>) v));
                default -> out.put(k, v);
            }
        });
        return out;
    }

    /**
     * The answer's text parts (thought parts left out). A candidate cut at {@code MAX_TOKENS} with no
     * text (its content has no parts: 2.5 models spent the cap thinking) is a reply with empty text, for
     * the engine to ask again with more room.
     */
    @Override
    ProviderReply reply(JsonNode body) throws ProviderException {
        String blockReason = text(body.path("promptFeedback").get("blockReason"));
        if (blockReason != null) {
            throw new ProviderException(ProviderException.Kind.REFUSED, 200, "the prompt was blocked: " + blockReason, null, null);
        }
        JsonNode candidate = body.path("candidates").path(0);
        if (candidate.isMissingNode()) {
            throw new ProviderException(ProviderException.Kind.MALFORMED, 200, "the answer has no candidates", null,
                    snippet(body.toString()));
        }
        String finish = text(candidate.get("finishReason"));
        StringBuilder text = new StringBuilder();
        for (JsonNode part : candidate.path("content").path("parts")) {
            if (part.has("text") && !part.path("thought").asBoolean(false)) {
                text.append(part.get("text").asText());
            }
        }
        if (finish != null && BLOCKED.contains(finish)) {
            throw new ProviderException(ProviderException.Kind.REFUSED, 200, "the answer was blocked: " + finish, null,
                    text.length() == 0 ? null : text.toString());
        }
        if (text.length() == 0 && !"MAX_TOKENS".equals(finish)) {
            throw new ProviderException(ProviderException.Kind.MALFORMED, 200, "the answer has no text", null,
                    snippet(body.toString()));
        }
        JsonNode usage = body.path("usageMetadata");
        long thoughts = usage.path("thoughtsTokenCount").asLong(0);
        long out = usage.path("candidatesTokenCount").asLong(0) + thoughts;
        return new ProviderReply(text.toString(), usage.path("promptTokenCount").asLong(0), out, finish, thoughts);
    }
}
