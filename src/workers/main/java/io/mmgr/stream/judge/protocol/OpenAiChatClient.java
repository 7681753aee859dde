package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Base64;

/**
 * OpenAI-compatible Chat Completions ({@code POST <base>/chat/completions}), which vLLM, SGLang,
 * Ollama, LM Studio, OpenRouter and Gemini's OpenAI-compatible endpoint all serve. Images travel as
 * base64 data URLs; videos are never sent natively (frames instead). The request parameters follow the
 * call's {@link ModelProfile}: reasoning models get {@code max_completion_tokens} and
 * {@code reasoning_effort} and no temperature, every other model {@code max_tokens} and temperature 0.
 */
public final class OpenAiChatClient extends HttpProviderClient {

    private final StructuredOutput structured;

    public OpenAiChatClient(URI baseUrl, ApiKey key, Duration requestTimeout, StructuredOutput structured) {
        super(baseUrl, key, requestTimeout);
        this.structured = structured;
    }

    @Override
    public JudgeProtocol protocol() {
        return JudgeProtocol.OPENAI;
    }

    @Override
    public boolean acceptsVideo() {
        return false;
    }

    @Override
    byte[] body(ProviderCall call) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", call.model());
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", call.system());
        ObjectNode user = messages.addObject().put("role", "user");
        ArrayNode content = user.putArray("content");
        for (ProviderCall.Part p : call.parts()) {
            if (p instanceof ProviderCall.Text t) {
                content.addObject().put("type", "text").put("text", t.text());
            } else if (p instanceof ProviderCall.Media m) {
                if (m.video()) {
                    throw new IOException("the OpenAI protocol takes no video parts; send frames");
                }
                content.addObject().put("type", "image_url").putObject("image_url")
                        .put("url", "data:" + m.mimeType() + ";base64," + Base64.getEncoder().encodeToString(m.bytes()));
            }
        }
        ModelProfile profile = call.profile();
        if (profile.kind() == ModelProfile.Kind.OPENAI_REASONING) {
            // reasoning models reject max_tokens and any temperature but the default (HTTP 400)
            body.put("max_completion_tokens", profile.outputCap());
            body.put("reasoning_effort", profile.reasoningEffort());
        } else {
            body.put("max_tokens", profile.answerTokens());
            body.put("temperature", 0);
        }
        if (call.schema() != null && structured == StructuredOutput.JSON_SCHEMA) {
            ObjectNode format = body.putObject("response_format").put("type", "json_schema");
            format.putObject("json_schema").put("name", "verdict").put("strict", true)
                    .set("schema", JSON.valueToTree(call.schema()));
        } else if (call.schema() != null && structured == StructuredOutput.JSON_OBJECT) {
            body.putObject("response_format").put("type", "json_object");
        }
        return JSON.writeValueAsBytes(body);
    }

    @Override
    HttpRequest.Builder request(ProviderCall call) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + "/chat/completions"))
                .header("Content-Type", "application/json");
        if (key.present()) {
            b.header("Authorization", "Bearer " + key.value());
        }
        return b;
    }

    /**
     * On a 429: the reset of the limit that ran out ({@code x-ratelimit-reset-requests} when the error's
     * {@code type} is {@code requests} or no request is left, {@code -tokens} likewise; both when it
     * cannot be told), {@code Retry-After} and the message's "try again in", whichever is longest.
     * The resets say when the limit is back to its initial state, so waiting for them never comes early.
     */
    @Override
    RetryHints.Hint hint(HttpHeaders headers, JsonNode error) {
        RetryHints.Hint hint = super.hint(headers, error);
        String type = error == null ? null : text(error.path("error").get("type"));
        boolean requests = "requests".equals(type) || "0".equals(headers.firstValue("x-ratelimit-remaining-requests").orElse(null));
        boolean tokens = "tokens".equals(type) || "0".equals(headers.firstValue("x-ratelimit-remaining-tokens").orElse(null));
        if (!requests && !tokens) {
            requests = tokens = true;
        }
        if (requests) {
            hint = RetryHints.Hint.longer(hint, RetryHints.Hint.of(
                    RetryHints.goDuration(headers.firstValue("x-ratelimit-reset-requests").orElse(null)), "x-ratelimit-reset-requests"));
        }
        if (tokens) {
            hint = RetryHints.Hint.longer(hint, RetryHints.Hint.of(
                    RetryHints.goDuration(headers.firstValue("x-ratelimit-reset-tokens").orElse(null)), "x-ratelimit-reset-tokens"));
        }
        return RetryHints.Hint.longer(hint, RetryHints.inMessage(error == null ? null : text(error.path("error").get("message"))));
    }

    @Override
    ProviderReply reply(JsonNode body) throws ProviderException {
        JsonNode choice = body.path("choices").path(0);
        if (choice.isMissingNode()) {
            throw new ProviderException(ProviderException.Kind.MALFORMED, 200, "the answer has no choices", null,
                    snippet(body.toString()));
        }
        JsonNode message = choice.path("message");
        String finish = text(choice.get("finish_reason"));
        String refusal = text(message.get("refusal"));
        String content = text(message.get("content"));
        if (refusal != null && !refusal.isBlank()) {
            throw new ProviderException(ProviderException.Kind.REFUSED, 200, "the judge refused: " + snippet(refusal), null, refusal);
        }
        if ("content_filter".equals(finish)) {
            throw new ProviderException(ProviderException.Kind.REFUSED, 200, "the answer was blocked by the content filter",
                    null, content);
        }
        if (content == null && !"length".equals(finish)) {
            throw new ProviderException(ProviderException.Kind.MALFORMED, 200, "the answer has no message content", null,
                    snippet(body.toString()));
        }
        JsonNode usage = body.path("usage");
        return new ProviderReply(content == null ? "" : content, usage.path("prompt_tokens").asLong(0),
                usage.path("completion_tokens").asLong(0), finish,
                usage.path("completion_tokens_details").path("reasoning_tokens").asLong(0));
    }
}
