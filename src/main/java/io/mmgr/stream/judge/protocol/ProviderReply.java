package io.mmgr.stream.judge.protocol;

/**
 * A provider's answer.
 *
 * @param text         the answer text (the JSON the rubric parses)
 * @param inputTokens  prompt tokens billed
 * @param outputTokens answer tokens billed
 * @param finishReason the provider's finish reason, as given
 */
public record ProviderReply(String text, long inputTokens, long outputTokens, String finishReason) {
}
