package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Base64;

/**
 * The Chat Completions shape that OpenAI and Azure OpenAI share: the body (images as base64 data URLs,
 * videos never sent natively but as frames) and the answer's reading. The request parameters follow the
 * call's {@link ModelProfile}: reasoning models get {@code max_completion_tokens} and
 * {@code reasoning_effort} and no temperature, every other model {@code max_tokens} and temperature 0.
 * The endpoints differ in their URL, key header and rate-limit hints ({@link OpenAiChatClient},
 * {@link AzureOpenAiClient}).
 */
abstract class ChatCompletionsClient extends HttpProviderClient {

    private final StructuredOutput structured;

    ChatCompletionsClient(URI baseUrl, ApiKey key, Duration requestTimeout, StructuredOutput structured) {
        super(baseUrl, key, requestTimeout);
        this.structured = structured;
    }

    @Override
    ObjectNode requestJson(ProviderCall call) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", call.model());
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", call.system());
        ObjectNode user = messages.addObject().put("role", "user");
        ArrayNode content = user.putArray("content");
        textAndImages(call, content, "OpenAI", (block, m) -> block.put("type", "image_url").putObject("image_url")
                .put("url", "data:" + m.mimeType() + ";base64," + Base64.getEncoder().encodeToString(m.bytes())));
        ModelProfile profile = call.profile();
        if (profile.kind() == ModelProfile.Kind.OPENAI_REASONING) {
            // reasoning models reject max_tokens and any temperature but the default (HTTP 400)
            body.put("max_completion_tokens", profile.outputCap());
            body.put("reasoning_effort", profile.reasoningEffort());
        } else {
            body.put("max_tokens", profile.answerTokens());
            body.put("temperature", 0);
        }
        if (profile.seed() != 0) {
            body.put("seed", profile.seed());
        }
        if (call.schema() != null && structured == StructuredOutput.JSON_SCHEMA) {
            ObjectNode format = body.putObject("response_format").put("type", "json_schema");
            format.putObject("json_schema").put("name", "verdict").put("strict", true)
                    .set("schema", JSON.valueToTree(call.schema()));
        } else if (call.schema() != null && structured == StructuredOutput.JSON_OBJECT) {
            body.putObject("response_format").put("type", "json_object");
        }
        return body;
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
            throw new ProviderException(ProviderException.Kind.REFUSED, 200, contentFiltered(choice), null, content);
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

    /** The reason of an answer cut by the content filter ({@code finish_reason: content_filter}). */
    String contentFiltered(JsonNode choice) {
        return "the answer was blocked by the content filter";
    }
}
