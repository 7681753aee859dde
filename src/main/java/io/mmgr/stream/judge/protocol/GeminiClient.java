package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gemini's native {@code POST <base>/models/<model>:generateContent}, with inline image and video
 * parts and structured output through {@code responseSchema} (OpenAPI subset: the converter drops
 * what it does not take, the rubric's parser still validates everything).
 */
public final class GeminiClient extends HttpProviderClient {

    private static final Set<String> BLOCKED = Set.of("SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII",
            "IMAGE_SAFETY");

    private final boolean structured;

    public GeminiClient(URI baseUrl, ApiKey key, Duration requestTimeout, boolean structured) {
        super(baseUrl, key, requestTimeout);
        this.structured = structured;
    }

    @Override
    public String protocol() {
        return "gemini";
    }

    @Override
    public boolean acceptsVideo() {
        return true;
    }

    @Override
    byte[] body(ProviderCall call) throws IOException {
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
        config.put("temperature", 0);
        config.put("maxOutputTokens", call.maxOutputTokens());
        if (call.schema() != null && structured) {
            config.put("responseMimeType", "application/json");
            config.set("responseSchema", JSON.valueToTree(geminiSchema(call.schema())));
        }
        return JSON.writeValueAsBytes(body);
    }

    @Override
    HttpRequest.Builder request(ProviderCall call) {
        String model = URLEncoder.encode(call.model(), StandardCharsets.UTF_8).replace("%2F", "/");
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + "/models/" + model + ":generateContent"))
                .header("Content-Type", "application/json");
        if (key.present()) {
            b.header("x-goog-api-key", key.value());
        }
        return b;
    }

    /** JSON schema to Gemini's Schema: upper-case types, no additionalProperties, enums only on strings. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> geminiSchema(Map<String, Object> schema) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
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
                    Map<String, Object> props = new java.util.LinkedHashMap<>();
                    ((Map<String, Object>) v).forEach((name, s) -> props.put(name, geminiSchema((Map<String, Object>) s)));
                    out.put("properties", props);
                }
                case "items" -> out.put("items", geminiSchema((Map<String, Object>) v));
                default -> out.put(k, v);
            }
        });
        return out;
    }

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
        if (text.length() == 0 && !List.of("MAX_TOKENS").contains(String.valueOf(finish))) {
            throw new ProviderException(ProviderException.Kind.MALFORMED, 200, "the answer has no text", null,
                    snippet(body.toString()));
        }
        JsonNode usage = body.path("usageMetadata");
        long out = usage.path("candidatesTokenCount").asLong(0) + usage.path("thoughtsTokenCount").asLong(0);
        return new ProviderReply(text.toString(), usage.path("promptTokenCount").asLong(0), out, finish);
    }
}
