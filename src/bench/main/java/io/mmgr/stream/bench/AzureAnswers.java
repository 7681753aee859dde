package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Azure OpenAI's deployment chat completions send back, where they differ from OpenAI's: the
 * answer carries {@code prompt_filter_results} and per-choice {@code content_filter_results}; a 429's
 * body is {@code {"error": {"code": "429", "message": "... Please retry after N seconds. ..."}}} with
 * {@code retry-after} (whole seconds) and {@code retry-after-ms}; a prompt the content filter blocks is a
 * 400 of code {@code content_filter} with the flagged categories under {@code innererror}, an answer it
 * cuts a 200 with {@code finish_reason: content_filter}; a wrong key is a 401 that does not echo it; a
 * request without {@code api-version} is a 404.
 */
final class AzureAnswers {

    private AzureAnswers() {
    }

    static ObjectNode error(String code, String message) {
        ObjectNode r = ProviderAnswers.JSON.createObjectNode();
        r.putObject("error").put("code", code).put("message", message);
        return r;
    }

    static ProviderAnswers.Reply rateLimited(Duration delay, String apiVersion) {
        long seconds = (delay.toMillis() + 999) / 1000;
        Map<String, String> h = new LinkedHashMap<>();
        h.put("retry-after", Long.toString(seconds));
        h.put("retry-after-ms", Long.toString(Math.max(1, delay.toMillis())));
        h.put("x-ratelimit-remaining-requests", "0");
        h.put("x-ratelimit-remaining-tokens", "149000");
        return new ProviderAnswers.Reply(429, h, error("429", "Requests to the ChatCompletions_Create Operation under Azure OpenAI "
                + "API version " + apiVersion + " have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry "
                + "after " + seconds + (seconds == 1 ? " second" : " seconds") + ". Please go here: https://aka.ms/oai/quotaincrease "
                + "if you would like to further increase the default rate limit.").toString());
    }

    static ProviderAnswers.Reply unauthorized() {
        return ProviderAnswers.Reply.json(401, error("401", "Access denied due to invalid subscription key or wrong API endpoint. "
                + "Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your "
                + "resource."));
    }

    static ProviderAnswers.Reply notFound() {
        return ProviderAnswers.Reply.json(404, error("404", "Resource not found"));
    }

    /** The 400 of a prompt the content filter blocked (violence flagged at medium). */
    static ProviderAnswers.Reply promptFiltered() {
        ObjectNode r = ProviderAnswers.JSON.createObjectNode();
        ObjectNode e = r.putObject("error").put("message", "The response was filtered due to the prompt triggering Azure OpenAI's "
                + "content management policy. Please modify your prompt and retry. To learn more about our content filtering "
                + "policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766").putNull("type")
                .put("param", "prompt").put("code", "content_filter").put("status", 400);
        ObjectNode inner = e.putObject("innererror").put("code", "ResponsibleAIPolicyViolation");
        filterResults(inner.putObject("content_filter_result"), "violence", "medium");
        return new ProviderAnswers.Reply(400, Map.of(), r.toString());
    }

    /** OpenAI's answer with Azure's filter results added: none filtered. */
    static String answer(String openAiAnswer) {
        try {
            ObjectNode r = (ObjectNode) ProviderAnswers.JSON.readTree(openAiAnswer);
            filterResults(r.putArray("prompt_filter_results").addObject().put("prompt_index", 0).putObject("content_filter_results"),
                    null, null);
            filterResults(((ObjectNode) r.path("choices").path(0)).putObject("content_filter_results"), null, null);
            return r.toString();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A 200 whose answer the output filter cut: {@code finish_reason: content_filter}, hate flagged high. */
    static String answerFiltered() {
        ObjectNode r = ProviderAnswers.JSON.createObjectNode();
        r.put("id", "chatcmpl-scripted").put("object", "chat.completion");
        ObjectNode choice = r.putArray("choices").addObject().put("index", 0).put("finish_reason", "content_filter");
        choice.putObject("message").put("role", "assistant").putNull("content");
        filterResults(choice.putObject("content_filter_results"), "hate", "high");
        r.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 3).put("total_tokens", 13);
        return r.toString();
    }

    private static void filterResults(ObjectNode into, String flagged, String severity) {
        for (String category : new String[] {"hate", "self_harm", "sexual", "violence"}) {
            boolean hit = category.equals(flagged);
            into.putObject(category).put("filtered", hit).put("severity", hit ? severity : "safe");
        }
    }
}
