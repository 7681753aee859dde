package io.mmgr.stream.judge.protocol;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a judge model is asked: which output-cap parameter, whether a temperature is sent, and how much
 * room reasoning gets. Chosen from the model name ({@link #forModel}), every part overridable.
 *
 * <ul>
 *   <li>{@code openai-chat} (gpt-4o, gpt-4.1, OpenAI-compatible servers such as vLLM and Ollama):
 *       {@code max_tokens} = the answer cap and {@code temperature: 0}.</li>
 *   <li>{@code openai-reasoning} (o1, o3, o4-mini, gpt-5...): these models answer HTTP 400 to
 *       {@code max_tokens} and to any temperature but the default, and count their hidden reasoning
 *       against {@code max_completion_tokens}; so no temperature, {@code max_completion_tokens} = answer cap +
 *       reasoning room, and a {@code reasoning_effort}.</li>
 *   <li>{@code gemini} (1.5, 2.0): {@code maxOutputTokens} = the answer cap, {@code temperature: 0}.</li>
 *   <li>{@code gemini-thinking} (2.5 Pro, 2.5 Flash): thoughts count against {@code maxOutputTokens}, so
 *       {@code thinkingConfig.thinkingBudget} bounds them and {@code maxOutputTokens} = answer cap + budget.</li>
 *   <li>{@code anthropic} (every Claude model by default: none thinks unless asked): {@code max_tokens} = the answer
 *       cap and {@code temperature: 0}.</li>
 *   <li>{@code anthropic-thinking} (extended thinking, on request): {@code thinking.budget_tokens} (at least 1,024, as
 *       Anthropic requires) counts against {@code max_tokens} = answer cap + budget; no temperature (Anthropic takes
 *       none but 1 with thinking).</li>
 * </ul>
 *
 * <p>Azure OpenAI takes the OpenAI kinds ({@link JudgeProtocol#family()}).
 *
 * <p>An answer cut at the cap before any text (Gemini's {@code MAX_TOKENS}, OpenAI's {@code length},
 * Anthropic's {@code max_tokens}, the room spent on thinking) is asked once more with {@link #enlarged()} room.
 *
 * @param kind            the parameter family
 * @param answerTokens    room for the answer itself (the rubric's JSON needs a few hundred tokens)
 * @param thinkingTokens  room for reasoning on top of the answer (thinking budget; 0 for non-reasoning kinds)
 * @param reasoningEffort {@code reasoning_effort} of {@code openai-reasoning}, else null
 * @param thinkingCeiling the most reasoning room the model takes (caps {@link #enlarged()})
 */
public record ModelProfile(Kind kind, int answerTokens, int thinkingTokens, String reasoningEffort, int thinkingCeiling,
                           int seed) {

    /** The default room for the answer: a rubric's JSON with a sentence or two per metric fits many times over. */
    public static final int ANSWER_TOKENS = 2048;
    /** Anthropic refuses a {@code thinking.budget_tokens} below this (HTTP 400). */
    public static final int ANTHROPIC_MIN_BUDGET = 1_024;
    static final Set<String> EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "xhigh");
    private static final Pattern OPENAI_REASONING = Pattern.compile("o\\d+(-.*)?|gpt-5([.-].*)?");

    /** The parameter families. */
    public enum Kind {
        OPENAI_CHAT("openai-chat", JudgeProtocol.OPENAI),
        OPENAI_REASONING("openai-reasoning", JudgeProtocol.OPENAI),
        GEMINI("gemini", JudgeProtocol.GEMINI),
        GEMINI_THINKING("gemini-thinking", JudgeProtocol.GEMINI),
        ANTHROPIC("anthropic", JudgeProtocol.ANTHROPIC),
        ANTHROPIC_THINKING("anthropic-thinking", JudgeProtocol.ANTHROPIC);

        private final String id;
        private final JudgeProtocol protocol;

        Kind(String id, JudgeProtocol protocol) {
            this.id = id;
            this.protocol = protocol;
        }

        public String id() {
            return id;
        }

        /** The protocol family whose requests take these parameters ({@link JudgeProtocol#family()}). */
        public JudgeProtocol protocol() {
            return protocol;
        }

        /** Whether requests of {@code p} take these parameters. */
        public boolean fits(JudgeProtocol p) {
            return protocol == p.family();
        }

        public boolean reasons() {
            return this == OPENAI_REASONING || this == GEMINI_THINKING || this == ANTHROPIC_THINKING;
        }

        public static Kind parse(String value) {
            String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
            for (Kind k : values()) {
                if (k.id.equals(v)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("--judge-profile must be auto, " + java.util.Arrays.stream(values()).map(Kind::id)
                    .collect(java.util.stream.Collectors.joining(", ")) + ", not '" + value + "'");
        }
    }

    /** A profile without a sample seed (what every judge sends unless {@code --judge-samples} is above 1). */
    public ModelProfile(Kind kind, int answerTokens, int thinkingTokens, String reasoningEffort, int thinkingCeiling) {
        this(kind, answerTokens, thinkingTokens, reasoningEffort, thinkingCeiling, 0);
    }

    public ModelProfile {
        Objects.requireNonNull(kind);
        if (seed < 0) {
            throw new IllegalArgumentException("a judge sample's seed must not be negative, not " + seed);
        }
        if (answerTokens < 1) {
            throw new IllegalArgumentException("the judge's answer cap must be at least 1 token, not " + answerTokens);
        }
        if (thinkingTokens < 0) {
            throw new IllegalArgumentException("the judge's thinking budget must not be negative, not " + thinkingTokens);
        }
        if (!kind.reasons()) {
            thinkingTokens = 0;
        }
        if (kind != Kind.OPENAI_REASONING) {
            reasoningEffort = null;
        } else {
            reasoningEffort = reasoningEffort == null ? "medium" : reasoningEffort.strip().toLowerCase(Locale.ROOT);
            if (!EFFORTS.contains(reasoningEffort)) {
                throw new IllegalArgumentException("--judge-reasoning-effort must be one of none, minimal, low, medium, high "
                        + "or xhigh, not '" + reasoningEffort + "'");
            }
        }
        if (kind == Kind.ANTHROPIC_THINKING && thinkingTokens < ANTHROPIC_MIN_BUDGET) {
            throw new IllegalArgumentException("Anthropic's thinking budget must be at least " + ANTHROPIC_MIN_BUDGET
                    + " tokens, not " + thinkingTokens);
        }
        thinkingCeiling = Math.max(thinkingCeiling, thinkingTokens);
    }

    /** The profile of a model on a protocol, from its name ({@code models/} or {@code vendor/} prefixes ignored). */
    public static ModelProfile forModel(JudgeProtocol protocol, String model) {
        String name = bareName(model);
        Kind kind = switch (protocol.family()) {
            case ANTHROPIC -> Kind.ANTHROPIC;
            case OPENAI -> OPENAI_REASONING.matcher(name).matches() ? Kind.OPENAI_REASONING : Kind.OPENAI_CHAT;
            case GEMINI -> name.startsWith("gemini-2.5") || name.startsWith("gemini-3") ? Kind.GEMINI_THINKING : Kind.GEMINI;
            case AZURE_OPENAI -> throw new IllegalStateException("Azure's family is OpenAI's");
        };
        return defaults(kind, model);
    }

    /** The defaults of a kind for a model (the table in docs/judge.md). */
    public static ModelProfile defaults(Kind kind, String model) {
        String name = bareName(model);
        return switch (kind) {
            case OPENAI_CHAT, GEMINI, ANTHROPIC -> new ModelProfile(kind, ANSWER_TOKENS, 0, null, 0);
            // Gemini 2.5 Pro's room; the ceiling keeps max_tokens within 32,000, the smallest output limit of Claude's
            // thinking models (Opus 4 and 4.1)
            case ANTHROPIC_THINKING -> new ModelProfile(kind, ANSWER_TOKENS, 4_096, null, 32_000 - ANSWER_TOKENS);
            // OpenAI's default effort; room for reasoning well past what grading needs at that effort
            case OPENAI_REASONING -> new ModelProfile(kind, ANSWER_TOKENS, 14_336, "medium", 65_536);
            // budgets Gemini takes: 2.5 Pro 128-32768 (thinking cannot be off), 2.5 Flash and Flash-Lite up to 24576
            case GEMINI_THINKING -> name.contains("flash")
                    ? new ModelProfile(kind, ANSWER_TOKENS, 2_048, null, 24_576)
                    : new ModelProfile(kind, ANSWER_TOKENS, 4_096, null, 32_768);
        };
    }

    private static String bareName(String model) {
        String m = model == null ? "" : model.strip().toLowerCase(Locale.ROOT);
        return m.substring(m.lastIndexOf('/') + 1);
    }

    /** The output cap sent: the answer's room plus the reasoning room where reasoning counts against it. */
    public int outputCap() {
        return answerTokens + thinkingTokens;
    }

    /** Whether {@link #enlarged()} gives more room. */
    public boolean canEnlarge() {
        return enlarged().outputCap() > outputCap();
    }

    /** The profile for the second try after an answer cut before any text: twice the reasoning room (or answer room). */
    public ModelProfile enlarged() {
        if (kind.reasons()) {
            return new ModelProfile(kind, answerTokens, Math.min(thinkingCeiling, Math.max(1_024, thinkingTokens * 2)),
                    reasoningEffort, thinkingCeiling, seed);
        }
        return new ModelProfile(kind, answerTokens * 2, 0, null, thinkingCeiling, seed);
    }

    public ModelProfile withAnswerTokens(int tokens) {
        return new ModelProfile(kind, tokens, thinkingTokens, reasoningEffort, thinkingCeiling, seed);
    }

    public ModelProfile withThinkingTokens(int tokens) {
        return new ModelProfile(kind, answerTokens, tokens, reasoningEffort, thinkingCeiling, seed);
    }

    public ModelProfile withReasoningEffort(String effort) {
        return new ModelProfile(kind, answerTokens, thinkingTokens, effort, thinkingCeiling, seed);
    }

    /**
     * The profile of one of a rubric's repeated samples ({@code --judge-samples}): {@code seed} 1..n goes out as OpenAI's
     * {@code seed}, Gemini's {@code generationConfig.seed} and, Anthropic having no seed, in its {@code metadata.user_id},
     * so no two of the n requests are identical; 0 sends none.
     */
    public ModelProfile withSeed(int seed) {
        return new ModelProfile(kind, answerTokens, thinkingTokens, reasoningEffort, thinkingCeiling, seed);
    }

    /** The request parameters as sent, e.g. {@code gemini-thinking maxOutputTokens=6144 thinkingBudget=4096 temperature=0}. */
    public String describe() {
        // the seed is part of what is sent, so of the cache key: sample i of n never shares a verdict with sample j
        return seed == 0 ? parameters() : parameters() + " seed=" + seed;
    }

    private String parameters() {
        return switch (kind) {
            case OPENAI_CHAT -> kind.id + " max_tokens=" + answerTokens + " temperature=0";
            case OPENAI_REASONING -> kind.id + " max_completion_tokens=" + outputCap() + " reasoning_effort=" + reasoningEffort;
            case GEMINI -> kind.id + " maxOutputTokens=" + answerTokens + " temperature=0";
            case GEMINI_THINKING -> kind.id + " maxOutputTokens=" + outputCap() + " thinkingBudget=" + thinkingTokens
                    + " temperature=0";
            case ANTHROPIC -> kind.id + " max_tokens=" + answerTokens + " temperature=0";
            case ANTHROPIC_THINKING -> kind.id + " max_tokens=" + outputCap() + " budget_tokens=" + thinkingTokens;
        };
    }

    @Override
    public String toString() {
        return describe();
    }
}
