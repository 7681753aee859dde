package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Azure OpenAI's Chat Completions at a deployment:
 * {@code POST <endpoint>/openai/deployments/<deployment>/chat/completions?api-version=<version>} with the
 * key in an {@code api-key} header. The body and answer are OpenAI's ({@link ChatCompletionsClient}); what
 * differs is Azure's own: its 429s announce their wait in {@code retry-after-ms} and {@code retry-after},
 * and its content filter, which answers a prompt it blocks with a 400 of code {@code content_filter} and an
 * answer it cuts with {@code finish_reason: content_filter}. Both are a final refusal naming the filter's
 * categories, never retried (the same request would be filtered again).
 */
public final class AzureOpenAiClient extends ChatCompletionsClient {

    /** The newest generally available api-version of the deployment (data plane inference) API. */
    public static final String DEFAULT_API_VERSION = "2024-10-21";

    private final String deployment;
    private final String apiVersion;

    public AzureOpenAiClient(URI endpoint, String deployment, String apiVersion, ApiKey key, Duration requestTimeout,
                             StructuredOutput structured) {
        super(endpoint, key, requestTimeout, structured);
        if (deployment == null || deployment.isBlank()) {
            throw new IllegalArgumentException("an Azure OpenAI judge needs its deployment (--judge-azure-deployment)");
        }
        if (apiVersion == null || apiVersion.isBlank()) {
            throw new IllegalArgumentException("an Azure OpenAI judge needs an api-version (--judge-azure-api-version)");
        }
        this.deployment = deployment.strip();
        this.apiVersion = apiVersion.strip();
    }

    @Override
    public JudgeProtocol protocol() {
        return JudgeProtocol.AZURE_OPENAI;
    }

    /** The deployment URL of the chat completions of this endpoint. */
    URI url() {
        return URI.create(baseUrl + "/openai/deployments/" + URLEncoder.encode(deployment, StandardCharsets.UTF_8)
                + "/chat/completions?api-version=" + URLEncoder.encode(apiVersion, StandardCharsets.UTF_8));
    }

    @Override
    HttpRequest.Builder request(ProviderCall call) {
        return authorize(HttpRequest.newBuilder(url()));
    }

    @Override
    public HttpRequest.Builder authorize(HttpRequest.Builder b) {
        if (key.present()) {
            b.header("api-key", key.value());
        }
        return b;
    }

    /** Azure's 400 for a prompt its content filter blocked: a refusal, final (the request would be blocked again). */
    @Override
    ProviderException.Kind classify(int status, JsonNode error) {
        if (status == 400 && isContentFilter(error)) {
            return ProviderException.Kind.REFUSED;
        }
        return super.classify(status, error);
    }

    @Override
    String explain(int status, JsonNode error) {
        if (status == 400 && isContentFilter(error)) {
            return "the prompt was blocked by Azure OpenAI's content filter" + categories(
                    error.path("error").path("innererror").path("content_filter_result"));
        }
        return null;
    }

    private static boolean isContentFilter(JsonNode error) {
        return error != null && "content_filter".equals(text(error.path("error").get("code")));
    }

    @Override
    String contentFiltered(JsonNode choice) {
        return "the answer was blocked by Azure OpenAI's content filter" + categories(choice.path("content_filter_results"));
    }

    /** The categories the filter flagged, e.g. " (hate: high, violence: medium)", or "". */
    private static String categories(JsonNode results) {
        List<String> flagged = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) results::fields) {
            if (e.getValue().path("filtered").asBoolean(false)) {
                String severity = text(e.getValue().get("severity"));
                flagged.add(severity == null ? e.getKey() : e.getKey() + ": " + severity);
            }
        }
        return flagged.isEmpty() ? "" : " (" + String.join(", ", flagged) + ")";
    }

    /**
     * On a 429 or 5xx: {@code retry-after-ms} (Azure's precise wait), {@code retry-after} (whole seconds) and
     * the message's "retry after N seconds", whichever is longest.
     */
    @Override
    RetryHints.Hint hint(HttpHeaders headers, JsonNode error) {
        RetryHints.Hint hint = RetryHints.Hint.longer(super.hint(headers, error),
                RetryHints.Hint.of(RetryHints.millis(headers.firstValue("retry-after-ms").orElse(null)), "retry-after-ms"));
        return RetryHints.Hint.longer(hint, RetryHints.inMessage(error == null ? null : text(error.path("error").get("message"))));
    }
}
