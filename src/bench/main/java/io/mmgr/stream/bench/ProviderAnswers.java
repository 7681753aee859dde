package io.mmgr.stream.bench;

import io.mmgr.stream.judge.protocol.JudgeProtocol;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What OpenAI's Chat Completions and Gemini's generateContent send back, shaped as their documentation
 * and real answers show them: the answer envelopes with their usage blocks (reasoning and thought
 * tokens included), the error objects ({@code {"error": {"message", "type", "param", "code"}}} for
 * OpenAI, {@code {"error": {"code", "message", "status", "details"}}} for Gemini), the rate-limit
 * answers with their hints (OpenAI's {@code x-ratelimit-*} headers and "Please try again in ...";
 * Gemini's {@code google.rpc.QuotaFailure}, {@code Help} and {@code RetryInfo} details, whose
 * {@code retryDelay} is whole seconds while the message says "Please retry in 37.57747s."), the 400s
 * reasoning models give to {@code max_tokens} and to a temperature, and Gemini 2.5's {@code MAX_TOKENS}
 * candidate without parts when the cap went on thinking. Anthropic's and Azure OpenAI's own shapes are in
 * {@link AnthropicAnswers} and {@link AzureAnswers}.
 */
final class ProviderAnswers {

    static final ObjectMapper JSON = new ObjectMapper();

    /** A response: status, headers and body. */
    record Reply(int status, Map<String, String> headers, String body) {
        static Reply json(int status, ObjectNode body) {
            return new Reply(status, Map.of(), body.toString());
        }
    }

    private ProviderAnswers() {
    }

    /** An OpenAI error object. */
    static ObjectNode openAiError(String message, String type, String param, String code) {
        ObjectNode r = JSON.createObjectNode();
        ObjectNode e = r.putObject("error").put("message", message).put("type", type);
        if (param == null) {
            e.putNull("param");
        } else {
            e.put("param", param);
        }
        if (code == null) {
            e.putNull("code");
        } else {
            e.put("code", code);
        }
        return r;
    }

    /** A Gemini (google.rpc.Status) error object. */
    static ObjectNode geminiError(int code, String status, String message) {
        ObjectNode r = JSON.createObjectNode();
        r.putObject("error").put("code", code).put("message", message).put("status", status);
        return r;
    }

    /** 429 of a request quota, announcing {@code delay} the way the protocol does. */
    static Reply rateLimited(JudgeProtocol protocol, String model, int limit, Duration delay, boolean retryAfterHeader) {
        if (protocol == JudgeProtocol.ANTHROPIC) {
            return AnthropicAnswers.rateLimited(limit, delay);
        }
        if (protocol == JudgeProtocol.AZURE_OPENAI) {
            return AzureAnswers.rateLimited(delay, io.mmgr.stream.judge.protocol.AzureOpenAiClient.DEFAULT_API_VERSION);
        }
        if (protocol == JudgeProtocol.OPENAI) {
            Map<String, String> h = new LinkedHashMap<>();
            h.put("x-ratelimit-limit-requests", Integer.toString(limit));
            h.put("x-ratelimit-remaining-requests", "0");
            h.put("x-ratelimit-reset-requests", goDuration(delay));
            h.put("x-ratelimit-limit-tokens", "150000");
            h.put("x-ratelimit-remaining-tokens", "149000");
            h.put("x-ratelimit-reset-tokens", "400ms");
            if (retryAfterHeader) {
                h.put("retry-after", Long.toString((delay.toMillis() + 999) / 1000));
            }
            ObjectNode body = openAiError("Rate limit reached for " + model + " in organization org-scripted on requests per min "
                    + "(RPM): Limit " + limit + ", Used " + limit + ", Requested 1. Please try again in " + goDuration(delay)
                    + ". Visit https://platform.openai.com/account/rate-limits to learn more.", "requests", null,
                    "rate_limit_exceeded");
            return new Reply(429, h, body.toString());
        }
        ObjectNode body = geminiError(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and "
                + "billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n"
                + "* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: "
                + limit + ", model: " + model + "\nPlease retry in " + seconds(delay) + "s.");
        ArrayNode details = ((ObjectNode) body.get("error")).putArray("details");
        ObjectNode violation = details.addObject().put("@type", "type.googleapis.com/google.rpc.QuotaFailure")
                .putArray("violations").addObject()
                .put("quotaMetric", "generativelanguage.googleapis.com/generate_content_free_tier_requests")
                .put("quotaId", "GenerateRequestsPerMinutePerProjectPerModel-FreeTier");
        violation.putObject("quotaDimensions").put("location", "global").put("model", model);
        violation.put("quotaValue", Integer.toString(limit));
        details.addObject().put("@type", "type.googleapis.com/google.rpc.Help").putArray("links").addObject()
                .put("description", "Learn more about Gemini API quotas").put("url", "https://ai.google.dev/gemini-api/docs/rate-limits");
        // the detail carries whole seconds only; the message has the precise wait
        details.addObject().put("@type", "type.googleapis.com/google.rpc.RetryInfo").put("retryDelay", delay.toSeconds() + "s");
        Map<String, String> h = retryAfterHeader ? Map.of("Retry-After", Long.toString((delay.toMillis() + 999) / 1000)) : Map.of();
        return new Reply(429, h, body.toString());
    }

    static Reply serverError(JudgeProtocol protocol) {
        if (protocol == JudgeProtocol.ANTHROPIC) {
            return AnthropicAnswers.serverError();
        }
        return protocol.family() == JudgeProtocol.OPENAI
                ? Reply.json(500, openAiError("The server had an error while processing your request. Sorry about that!",
                        "server_error", null, null))
                : Reply.json(500, geminiError(500, "INTERNAL", "An internal error has occurred. Please retry or report in "
                        + "https://developers.generativeai.google/guide/troubleshooting"));
    }

    static Reply overloaded(JudgeProtocol protocol) {
        if (protocol == JudgeProtocol.ANTHROPIC) {
            return AnthropicAnswers.overloaded();
        }
        return protocol.family() == JudgeProtocol.OPENAI
                ? Reply.json(503, openAiError("The server is overloaded or not ready yet.", "server_error", null, null))
                : Reply.json(503, geminiError(503, "UNAVAILABLE", "The model is overloaded. Please try again later."));
    }

    /**
     * A refused key. OpenAI: 401 {@code invalid_api_key}, echoing the key it got (here in full, so that
     * redaction is tested at its hardest). Gemini: 400 INVALID_ARGUMENT with reason {@code API_KEY_INVALID}.
     */
    static Reply unauthorized(JudgeProtocol protocol, String authorization) {
        if (protocol == JudgeProtocol.ANTHROPIC) {
            return AnthropicAnswers.unauthorized();
        }
        if (protocol == JudgeProtocol.AZURE_OPENAI) {
            return AzureAnswers.unauthorized();
        }
        if (protocol == JudgeProtocol.OPENAI) {
            return Reply.json(401, openAiError("Incorrect API key provided: " + String.valueOf(authorization).replace("Bearer ", "")
                    + ". You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error",
                    null, "invalid_api_key"));
        }
        ObjectNode body = geminiError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.");
        ArrayNode details = ((ObjectNode) body.get("error")).putArray("details");
        details.addObject().put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", "API_KEY_INVALID")
                .put("domain", "googleapis.com").putObject("metadata").put("service", "generativelanguage.googleapis.com");
        details.addObject().put("@type", "type.googleapis.com/google.rpc.LocalizedMessage").put("locale", "en-US")
                .put("message", "API key not valid. Please pass a valid API key.");
        return Reply.json(400, body);
    }

    /** OpenAI reasoning models (o-series, gpt-5) and {@code max_tokens}. */
    static Reply maxTokensUnsupported() {
        return Reply.json(400, openAiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                + "'max_completion_tokens' instead.", "invalid_request_error", "max_tokens", "unsupported_parameter"));
    }

    /** OpenAI reasoning models and a temperature other than 1. */
    static Reply temperatureUnsupported(String value) {
        return Reply.json(400, openAiError("Unsupported value: 'temperature' does not support " + value + " with this model. "
                + "Only the default (1) value is supported.", "invalid_request_error", "temperature", "unsupported_value"));
    }

    /** Gemini 2.5 Pro and a thinking budget of 0 (it only works in thinking mode). */
    static Reply thinkingRequired() {
        return Reply.json(400, geminiError(400, "INVALID_ARGUMENT", "Budget 0 is invalid. This model only works in thinking mode."));
    }

    /**
     * An answer cut to the output cap: the text that fits after the thinking, and the token counts.
     *
     * @param cut whether the cap was reached
     */
    record Cut(String text, int in, int thought, int out, boolean cut) {
        static Cut of(String content, int requestBytes, int thinking, int cap) {
            int in = Math.max(1, requestBytes / 100);
            int answerTokens = Math.max(1, content.length() / 4);
            boolean cut = cap >= 0 && thinking + answerTokens > cap;
            int thought = cap >= 0 ? Math.min(thinking, cap) : thinking;
            String text = !cut ? content : content.substring(0, Math.max(0, Math.min(content.length(), (cap - thought) * 4)));
            int out = text.isEmpty() ? 0 : Math.max(1, text.length() / 4);
            return new Cut(text, in, thought, out, cut);
        }
    }

    /**
     * A 200 with the answer {@code content}. {@code thinking}: tokens the model thought (0: none);
     * {@code cap}: the request's output cap (thinking included) or -1. Past the cap the answer is cut:
     * nothing left for text gives OpenAI's {@code finish_reason: length} with empty content, Gemini's
     * {@code MAX_TOKENS} candidate without parts and Anthropic's {@code stop_reason: max_tokens} without a
     * text block.
     */
    static String answer(JudgeProtocol protocol, String model, String content, int requestBytes, int thinking, int cap) {
        Cut c = Cut.of(content, requestBytes, thinking, cap);
        if (protocol == JudgeProtocol.ANTHROPIC) {
            return AnthropicAnswers.answer(model, c);
        }
        String text = c.text();
        int in = c.in();
        int thought = c.thought();
        int out = c.out();
        boolean cut = c.cut();
        ObjectNode r = JSON.createObjectNode();
        if (protocol.family() == JudgeProtocol.OPENAI) {
            r.put("id", "chatcmpl-scripted").put("object", "chat.completion");
            ObjectNode choice = r.putArray("choices").addObject();
            choice.put("index", 0).put("finish_reason", cut ? "length" : "stop");
            choice.putObject("message").put("role", "assistant").put("content", text).putNull("refusal");
            ObjectNode usage = r.putObject("usage").put("prompt_tokens", in).put("completion_tokens", thought + out)
                    .put("total_tokens", in + thought + out);
            usage.putObject("completion_tokens_details").put("reasoning_tokens", thought);
            return protocol == JudgeProtocol.AZURE_OPENAI ? AzureAnswers.answer(r.toString()) : r.toString();
        }
        ObjectNode cand = r.putArray("candidates").addObject();
        ObjectNode gc = cand.putObject("content").put("role", "model");
        if (!text.isEmpty()) {
            gc.putArray("parts").addObject().put("text", text);
        }
        cand.put("finishReason", cut ? "MAX_TOKENS" : "STOP").put("index", 0);
        ObjectNode usage = r.putObject("usageMetadata").put("promptTokenCount", in);
        if (!text.isEmpty()) {
            usage.put("candidatesTokenCount", out);
        }
        if (thought > 0) {
            usage.put("thoughtsTokenCount", thought);
        }
        usage.put("totalTokenCount", in + thought + out);
        return r.toString();
    }

    /** The finish reason of a 200 answer as the protocol words it. */
    static String finish(JudgeProtocol protocol, com.fasterxml.jackson.databind.JsonNode answer) {
        return switch (protocol) {
            case OPENAI, AZURE_OPENAI -> answer.path("choices").path(0).path("finish_reason").asText();
            case GEMINI -> answer.path("candidates").path(0).path("finishReason").asText();
            case ANTHROPIC -> answer.path("stop_reason").asText();
        };
    }

    /** A prompt the provider's content filter blocks: Azure's 400 {@code content_filter}; elsewhere the protocol's refusal. */
    static Reply contentFilter(JudgeProtocol protocol, String model) {
        return protocol == JudgeProtocol.AZURE_OPENAI ? AzureAnswers.promptFiltered() : new Reply(200, Map.of(), refusal(protocol, model));
    }

    /** A refusal in a 200: OpenAI's {@code refusal}, Gemini's blocked prompt, Anthropic's {@code stop_reason: refusal}, Azure's filtered answer. */
    static String refusal(JudgeProtocol protocol, String model) {
        if (protocol == JudgeProtocol.ANTHROPIC) {
            return AnthropicAnswers.refusal(model);
        }
        if (protocol == JudgeProtocol.AZURE_OPENAI) {
            return AzureAnswers.answerFiltered();
        }
        ObjectNode r = JSON.createObjectNode();
        if (protocol == JudgeProtocol.OPENAI) {
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

    /** A duration as Go prints it ({@code time.Duration.String()}): {@code 20ms}, {@code 1.5s}, {@code 1m30.5s}. */
    static String goDuration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        long minutes = ms / 60_000;
        String s = seconds(Duration.ofMillis(ms % 60_000)) + "s";
        return minutes > 0 ? minutes + "m" + s : s;
    }

    /** Seconds with up to six decimals, as Gemini's messages give them. */
    static String seconds(Duration d) {
        String s = String.format(Locale.ROOT, "%.6f", d.toNanos() / 1e9);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
