package io.mmgr.stream.judge.batch;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One request of a batch as the provider takes it: a single JSON object (no line break) carrying the custom id,
 * e.g. OpenAI's {@code {"custom_id", "method", "url", "body"}}, Anthropic's {@code {"custom_id", "params"}},
 * Gemini's {@code {"key", "request"}}.
 */
public record BatchLine(String customId, String json) {

    public BatchLine {
        if (!CustomIds.valid(customId)) {
            throw new IllegalArgumentException("not a valid custom id: '" + customId + "'");
        }
        Objects.requireNonNull(json);
        if (json.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a batch line must be one line of JSON");
        }
    }

    /** The line's size in UTF-8 bytes, without its line break (providers cap a batch's bytes). */
    public int bytes() {
        return json.getBytes(StandardCharsets.UTF_8).length;
    }
}
