package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Anthropic's Messages API sends back, as its documentation shows it: the message envelope
 * ({@code type: message}, content blocks, {@code stop_reason}, {@code usage.input_tokens/output_tokens}),
 * thinking blocks before the text when extended thinking is on, the error body
 * {@code {"type": "error", "error": {"type", "message"}, "request_id"}} with its documented types
 * ({@code rate_limit_error} 429, {@code api_error} 500, {@code overloaded_error} 529,
 * {@code authentication_error} 401, {@code invalid_request_error} 400), and a 429's {@code retry-after}
 * (whole seconds) beside the {@code anthropic-ratelimit-*} headers, whose resets are RFC 3339 times.
 */
final class AnthropicAnswers {

    private AnthropicAnswers() {
    }

    static ObjectNode error(String type, String message) {
        ObjectNode r = ProviderAnswers.JSON.createObjectNode().put("type", "error");
        r.putObject("error").put("type", type).put("message", message);
        r.put("request_id", "req_scripted");
        return r;
    }

    static ProviderAnswers.Reply rateLimited(int limit, Duration delay) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("retry-after", Long.toString((delay.toMillis() + 999) / 1000));
        h.put("anthropic-ratelimit-requests-limit", Integer.toString(limit));
        h.put("anthropic-ratelimit-requests-remaining", "0");
        // RFC 3339 to the second, rounded up: a reset never comes before the limit is back
        h.put("anthropic-ratelimit-requests-reset", Instant.now().plus(delay).plusMillis(999).truncatedTo(ChronoUnit.SECONDS).toString());
        h.put("anthropic-ratelimit-tokens-limit", "80000");
        h.put("anthropic-ratelimit-tokens-remaining", "79000");
        h.put("anthropic-ratelimit-tokens-reset", Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS).toString());
        return new ProviderAnswers.Reply(429, h, error("rate_limit_error", "This request would exceed the rate limit for your "
                + "organization of " + limit + " requests per minute. For details, refer to: "
                + "https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce "
                + "the prompt length or the maximum tokens requested, or try again later.").toString());
    }

    static ProviderAnswers.Reply serverError() {
        return ProviderAnswers.Reply.json(500, error("api_error", "Internal server error"));
    }

    static ProviderAnswers.Reply overloaded() {
        return ProviderAnswers.Reply.json(529, error("overloaded_error", "Overloaded"));
    }

    /** 401 {@code authentication_error}; Anthropic does not echo the key. */
    static ProviderAnswers.Reply unauthorized() {
        return ProviderAnswers.Reply.json(401, error("authentication_error", "invalid x-api-key"));
    }

    static ProviderAnswers.Reply badRequest(String message) {
        return ProviderAnswers.Reply.json(400, error("invalid_request_error", message));
    }

    /** A message holding {@code text} after {@code thought} tokens of thinking; {@code max_tokens} when {@code cut}. */
    static String answer(String model, ProviderAnswers.Cut c) {
        ObjectNode r = ProviderAnswers.JSON.createObjectNode();
        r.put("id", "msg_scripted").put("type", "message").put("role", "assistant").put("model", model);
        ArrayNode content = r.putArray("content");
        if (c.thought() > 0) {
            content.addObject().put("type", "thinking").put("thinking", "Let me check each metric.").put("signature", "c2NyaXB0ZWQ=");
        }
        if (!c.text().isEmpty()) {
            content.addObject().put("type", "text").put("text", c.text());
        }
        r.put("stop_reason", c.cut() ? "max_tokens" : "end_turn").putNull("stop_sequence");
        r.putObject("usage").put("input_tokens", c.in()).put("cache_creation_input_tokens", 0).put("cache_read_input_tokens", 0)
                .put("output_tokens", c.thought() + c.out());
        return r.toString();
    }

    /** Claude 4's refusal: a 200 whose {@code stop_reason} is {@code refusal}. */
    static String refusal(String model) {
        ObjectNode r = ProviderAnswers.JSON.createObjectNode();
        r.put("id", "msg_scripted").put("type", "message").put("role", "assistant").put("model", model);
        r.putArray("content");
        r.put("stop_reason", "refusal").putNull("stop_sequence");
        r.putObject("usage").put("input_tokens", 10).put("output_tokens", 0);
        return r.toString();
    }
}
