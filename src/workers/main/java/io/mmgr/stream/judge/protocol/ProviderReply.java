package io.mmgr.stream.judge.protocol;

import java.util.Set;

/**
 * A provider's answer.
 *
 * @param text            the answer text (the JSON the rubric parses); empty when the model wrote none
 * @param inputTokens     prompt tokens billed
 * @param outputTokens    answer tokens billed, thinking included
 * @param finishReason    the provider's finish reason, as given
 * @param thinkingTokens  of the output tokens, those spent thinking (Gemini {@code thoughtsTokenCount}, OpenAI
 *                        {@code completion_tokens_details.reasoning_tokens}); 0 when not reported
 */
public record ProviderReply(String text, long inputTokens, long outputTokens, String finishReason, long thinkingTokens) {

    private static final Set<String> CUT = Set.of("MAX_TOKENS", "length", "max_tokens");

    public ProviderReply(String text, long inputTokens, long outputTokens, String finishReason) {
        this(text, inputTokens, outputTokens, finishReason, 0);
    }

    /**
     * The output cap was reached before the model wrote any answer text (the room went on thinking): Gemini's
     * {@code MAX_TOKENS}, OpenAI's {@code length}, Anthropic's {@code max_tokens}.
     */
    public boolean cutBeforeAnswer() {
        return (text == null || text.isBlank()) && finishReason != null && CUT.contains(finishReason);
    }
}
