package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Anthropic Messages ({@code POST <base>/messages}, base e.g. {@code https://api.anthropic.com/v1}) with the
 * key in {@code x-api-key} and the API version in {@code anthropic-version}. Images travel as base64
 * content blocks ({@code {"type": "image", "source": {"type": "base64", "media_type", "data"}}}); videos
 * as frames. Structured output: {@code json_schema} sends the rubric's schema as
 * {@code output_config.format} ({@code json_schema}) without the bounds Anthropic refuses; Anthropic has no schema-less JSON mode, so
 * {@code json_object} is refused when the settings are made ({@link StructuredOutput#parse}). Extended
 * thinking ({@code anthropic-thinking} profile) sends {@code thinking.budget_tokens} inside
 * {@code max_tokens} and no temperature. An answer cut at {@code stop_reason: max_tokens} is a reply
 * like OpenAI's {@code length}; {@code stop_reason: refusal} is a refusal.
 */
public final class AnthropicClient extends HttpProviderClient {

    /** The {@code anthropic-version} header: the API version every current model is served under. */
    public static final String API_VERSION = "2023-06-01";
    /** The errors Anthropic answers that mean the key or account, not the request (its documented error types). */
    private static final List<String> CONFIGURATION_ERRORS = List.of("authentication_error", "permission_error", "not_found_error",
            "billing_error");

    /** JSON-schema keywords Anthropic's structured output refuses (its documented limitations). */
    static final Set<String> UNSUPPORTED_SCHEMA_KEYWORDS = Set.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
            "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties");

    private final StructuredOutput structured;

    public AnthropicClient(URI baseUrl, ApiKey key, Duration requestTimeout, StructuredOutput structured) {
        super(baseUrl, key, requestTimeout);
        if (structured == StructuredOutput.JSON_OBJECT) {
            throw new IllegalArgumentException(StructuredOutput.NO_JSON_OBJECT);
        }
        this.structured = structured;
    }

    @Override
    public JudgeProtocol protocol() {
        return JudgeProtocol.ANTHROPIC;
    }

    @Override
    ObjectNode requestJson(ProviderCall call) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", call.model());
        ModelProfile profile = call.profile();
        body.put("max_tokens", profile.outputCap());
        body.put("system", call.system());
        ArrayNode content = body.putArray("messages").addObject().put("role", "user").putArray("content");
        textAndImages(call, content, "Anthropic", (block, m) -> block.put("type", "image").putObject("source").put("type", "base64")
                .put("media_type", m.mimeType()).put("data", Base64.getEncoder().encodeToString(m.bytes())));
        if (profile.kind() == ModelProfile.Kind.ANTHROPIC_THINKING) {
            // thinking takes no temperature but 1 (HTTP 400 otherwise); its budget counts against max_tokens
            body.putObject("thinking").put("type", "enabled").put("budget_tokens", profile.thinkingTokens());
        } else {
            body.put("temperature", 0);
        }
        if (profile.seed() != 0) {
            // Messages has no seed: the sample's index in the metadata makes each of the n requests distinct
            body.putObject("metadata").put("user_id", "mmgr-sample-" + profile.seed());
        }
        if (call.schema() != null && structured == StructuredOutput.JSON_SCHEMA) {
            body.putObject("output_config").putObject("format").put("type", "json_schema")
                    .set("schema", JSON.valueToTree(anthropicSchema(call.schema())));
        }
        return body;
    }

    /**
     * The rubric's schema in the subset Anthropic's structured output compiles: numeric, string-length, array and
     * object-size bounds are refused with a 400 ("For 'number' type, property 'minimum' is not supported"), so they
     * are left out, as Anthropic's SDKs do; the rubric's parser still checks every score's range.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> anthropicSchema(Map<String, Object> schema) {
        Map<String, Object> out = new LinkedHashMap<>();
        schema.forEach((k, v) -> {
            if (UNSUPPORTED_SCHEMA_KEYWORDS.contains(k)) {
                return;
            }
            if (k.equals("properties") && v instanceof Map<?, ?> props) {
                Map<String, Object> converted = new LinkedHashMap<>();
                ((Map<String, Object>) props).forEach((name, sub) -> converted.put(name, sub instanceof Map<?, ?> m
                        ? anthropicSchema((Map<String, Object>) m) : sub));
                out.put(k, converted);
            } else if (k.equals("items") && v instanceof Map<?, ?> items) {
                out.put(k, anthropicSchema((Map<String, Object>) items));
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    @Override
    HttpRequest.Builder request(ProviderCall call) {
        return authorize(HttpRequest.newBuilder(URI.create(baseUrl + "/messages")));
    }

    @Override
    public HttpRequest.Builder authorize(HttpRequest.Builder b) {
        b.header("anthropic-version", API_VERSION);
        if (key.present()) {
            b.header("x-api-key", key.value());
        }
        return b;
    }

    /**
     * Anthropic's error body is {@code {"type": "error", "error": {"type", "message"}}}: 529
     * {@code overloaded_error} is a 5xx like any other (retried); an {@code authentication_error},
     * {@code permission_error}, {@code not_found_error} or {@code billing_error} waits for the key or account to
     * be fixed, whatever its status.
     */
    @Override
    ProviderException.Kind classify(int status, JsonNode error) {
        String type = error == null ? null : text(error.path("error").get("type"));
        if (type != null && CONFIGURATION_ERRORS.contains(type)) {
            return ProviderException.Kind.CONFIGURATION;
        }
        if ("overloaded_error".equals(type) || "api_error".equals(type)) {
            return ProviderException.Kind.SERVER;
        }
        if ("rate_limit_error".equals(type)) {
            return ProviderException.Kind.RATE_LIMITED;
        }
        return super.classify(status, error);
    }

    /**
     * On a 429 or 5xx: {@code retry-after}, and the reset of every limit that ran out
     * ({@code anthropic-ratelimit-<limit>-remaining} 0: requests, tokens, input-tokens, output-tokens), whichever is
     * longest; a reset is when the limit is back to its initial state, so waiting for it never comes early.
     */
    @Override
    RetryHints.Hint hint(HttpHeaders headers, JsonNode error) {
        RetryHints.Hint hint = super.hint(headers, error);
        Instant now = Instant.now();
        for (String limit : List.of("requests", "tokens", "input-tokens", "output-tokens")) {
            String prefix = "anthropic-ratelimit-" + limit;
            if ("0".equals(headers.firstValue(prefix + "-remaining").orElse(null))) {
                hint = RetryHints.Hint.longer(hint, RetryHints.Hint.of(
                        RetryHints.until(headers.firstValue(prefix + "-reset").orElse(null), now), prefix + "-reset"));
            }
        }
        return hint;
    }

    /**
     * The answer's text blocks (thinking blocks left out). {@code stop_reason: max_tokens} with no text (the
     * cap went on thinking) is a reply with empty text, for the engine to ask again with more room; with text it
     * is a cut answer, which the rubric's parser judges. {@code refusal} is a final refusal.
     */
    @Override
    ProviderReply reply(JsonNode body) throws ProviderException {
        if (!"message".equals(text(body.get("type")))) {
            throw new ProviderException(ProviderException.Kind.MALFORMED, 200, "the answer is not a message", null,
                    snippet(body.toString()));
        }
        String stop = text(body.get("stop_reason"));
        StringBuilder text = new StringBuilder();
        for (JsonNode block : body.path("content")) {
            if ("text".equals(block.path("type").asText())) {
                text.append(block.path("text").asText(""));
            }
        }
        if ("refusal".equals(stop)) {
            throw new ProviderException(ProviderException.Kind.REFUSED, 200, "the judge refused (stop_reason refusal)", null,
                    text.length() == 0 ? null : text.toString());
        }
        if (text.length() == 0 && !"max_tokens".equals(stop)) {
            throw new ProviderException(ProviderException.Kind.MALFORMED, 200, "the answer has no text (stop_reason " + stop + ")",
                    null, snippet(body.toString()));
        }
        JsonNode usage = body.path("usage");
        // prompt caching is never asked for, so the cache counts are normally 0; billed input all the same when not
        long in = usage.path("input_tokens").asLong(0) + usage.path("cache_creation_input_tokens").asLong(0)
                + usage.path("cache_read_input_tokens").asLong(0);
        // output_tokens includes thinking (billed as output); Anthropic does not report the thinking share
        return new ProviderReply(text.toString(), in, usage.path("output_tokens").asLong(0), stop, 0);
    }
}
