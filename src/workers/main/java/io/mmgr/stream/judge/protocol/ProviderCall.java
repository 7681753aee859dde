package io.mmgr.stream.judge.protocol;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One request to a VLM, protocol-neutral.
 *
 * @param model           provider model id
 * @param system          system instructions
 * @param parts           the user turn: text and inline media, in order
 * @param schema          JSON schema of the answer, or null for free text
 * @param profile         the request parameters (output cap, temperature, reasoning room)
 */
public record ProviderCall(String model, String system, List<Part> parts, Map<String, Object> schema, ModelProfile profile) {

    public ProviderCall {
        Objects.requireNonNull(model);
        Objects.requireNonNull(system);
        Objects.requireNonNull(profile);
        parts = List.copyOf(parts);
    }

    /** The same call with other request parameters (more room after an answer cut before any text). */
    public ProviderCall withProfile(ModelProfile other) {
        return new ProviderCall(model, system, parts, schema, other);
    }

    public sealed interface Part {
    }

    public record Text(String text) implements Part {
    }

    /** Inline bytes: an image (any protocol) or a video (Gemini only). */
    public record Media(String mimeType, byte[] bytes) implements Part {
        public boolean video() {
            return mimeType.startsWith("video/");
        }
    }

    /** The same call with more user text after the original parts (the repair turn). */
    public ProviderCall followedBy(String assistantAnswer, String userText) {
        List<Part> more = new java.util.ArrayList<>(parts);
        more.add(new Text("Your previous answer was:\n" + assistantAnswer + "\n\n" + userText));
        return new ProviderCall(model, system, more, schema, profile);
    }
}
