package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * OpenAI-compatible Chat Completions ({@code POST <base>/chat/completions}), which vLLM, SGLang,
 * Ollama, LM Studio, OpenRouter and Gemini's OpenAI-compatible endpoint all serve; the key as a bearer
 * token. The body and answer are {@link ChatCompletionsClient}'s.
 */
public final class OpenAiChatClient extends ChatCompletionsClient {

    public OpenAiChatClient(URI baseUrl, ApiKey key, Duration requestTimeout, StructuredOutput structured) {
        super(baseUrl, key, requestTimeout, structured);
    }

    @Override
    public JudgeProtocol protocol() {
        return JudgeProtocol.OPENAI;
    }

    @Override
    HttpRequest.Builder request(ProviderCall call) {
        return authorize(HttpRequest.newBuilder(URI.create(baseUrl + "/chat/completions")));
    }

    @Override
    public HttpRequest.Builder authorize(HttpRequest.Builder b) {
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
}
