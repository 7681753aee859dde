package io.mmgr.stream.judge.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/** Profiles chosen from the model name: the defaults the table in docs/judge.md gives. */
@Tag("unit")
class ModelProfileTest {

    static String of(JudgeProtocol p, String model) {
        return ModelProfile.forModel(p, model).describe();
    }

    @Test
    void theDefaultsOfTheReadmeTable() {
        assertThat(of(JudgeProtocol.GEMINI, "gemini-2.5-pro"))
                .isEqualTo("gemini-thinking maxOutputTokens=6144 thinkingBudget=4096 temperature=0");
        assertThat(of(JudgeProtocol.GEMINI, "gemini-2.5-flash"))
                .isEqualTo("gemini-thinking maxOutputTokens=4096 thinkingBudget=2048 temperature=0");
        assertThat(of(JudgeProtocol.OPENAI, "gpt-4o")).isEqualTo("openai-chat max_tokens=2048 temperature=0");
        assertThat(of(JudgeProtocol.OPENAI, "gpt-4.1")).isEqualTo("openai-chat max_tokens=2048 temperature=0");
        assertThat(of(JudgeProtocol.OPENAI, "o4-mini")).isEqualTo("openai-reasoning max_completion_tokens=16384 reasoning_effort=medium");
        assertThat(of(JudgeProtocol.OPENAI, "gpt-5")).isEqualTo("openai-reasoning max_completion_tokens=16384 reasoning_effort=medium");
        // OpenAI-compatible local servers serve their own model names
        assertThat(of(JudgeProtocol.OPENAI, "Qwen/Qwen2.5-VL-7B-Instruct")).isEqualTo("openai-chat max_tokens=2048 temperature=0");
        assertThat(of(JudgeProtocol.OPENAI, "llava:13b")).isEqualTo("openai-chat max_tokens=2048 temperature=0");
        assertThat(of(JudgeProtocol.GEMINI, "gemini-2.0-flash")).isEqualTo("gemini maxOutputTokens=2048 temperature=0");
    }

    @Test
    void aSampleSeedIsPartOfWhatIsSentAndSurvivesEveryChange() {
        ModelProfile p = ModelProfile.forModel(JudgeProtocol.GEMINI, "gemini-2.5-pro");
        assertThat(p.withSeed(0).describe()).isEqualTo(p.describe());
        ModelProfile seeded = p.withSeed(2);
        assertThat(seeded.describe()).isEqualTo(p.describe() + " seed=2");
        // the enlarged retry and every override keep asking as the same sample
        assertThat(seeded.enlarged().seed()).isEqualTo(2);
        assertThat(seeded.withAnswerTokens(512).withThinkingTokens(1024).seed()).isEqualTo(2);
        assertThatThrownBy(() -> p.withSeed(-1)).hasMessageContaining("must not be negative");
    }

    @Test
    void reasoningModelsAreKnownByTheirNamesWhateverThePrefix() {
        for (String m : new String[] {"o1", "o1-mini", "o3", "o3-mini", "o4-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-mini",
                "gpt-5-nano", "gpt-5.1", "openai/o4-mini", "O3"}) {
            assertThat(ModelProfile.forModel(JudgeProtocol.OPENAI, m).kind()).as(m).isEqualTo(ModelProfile.Kind.OPENAI_REASONING);
        }
        for (String m : new String[] {"gpt-4o", "gpt-4o-mini", "gpt-4.1-mini", "omni-moderation", "gpt-50x", "olmo-2"}) {
            assertThat(ModelProfile.forModel(JudgeProtocol.OPENAI, m).kind()).as(m).isEqualTo(ModelProfile.Kind.OPENAI_CHAT);
        }
        assertThat(ModelProfile.forModel(JudgeProtocol.GEMINI, "models/gemini-2.5-pro").kind())
                .isEqualTo(ModelProfile.Kind.GEMINI_THINKING);
        assertThat(ModelProfile.forModel(JudgeProtocol.GEMINI, "gemini-2.5-flash-lite").kind())
                .isEqualTo(ModelProfile.Kind.GEMINI_THINKING);
    }

    @Test
    void enlargingDoublesTheReasoningRoomUpToTheModelsCeiling() {
        ModelProfile pro = ModelProfile.forModel(JudgeProtocol.GEMINI, "gemini-2.5-pro");
        assertThat(pro.enlarged().describe()).isEqualTo("gemini-thinking maxOutputTokens=10240 thinkingBudget=8192 temperature=0");
        ModelProfile top = pro.withThinkingTokens(32_768);
        assertThat(top.canEnlarge()).as("2.5 Pro takes at most 32,768").isFalse();
        assertThat(ModelProfile.forModel(JudgeProtocol.OPENAI, "o4-mini").enlarged().outputCap()).isEqualTo(2_048 + 28_672);
        assertThat(ModelProfile.forModel(JudgeProtocol.OPENAI, "gpt-4o").enlarged().describe())
                .isEqualTo("openai-chat max_tokens=4096 temperature=0");
    }

    @Test
    void overridesAndTheirLimits() {
        ModelProfile o = ModelProfile.forModel(JudgeProtocol.OPENAI, "o3").withReasoningEffort("low").withThinkingTokens(4_000);
        assertThat(o.describe()).isEqualTo("openai-reasoning max_completion_tokens=6048 reasoning_effort=low");
        assertThatThrownBy(() -> o.withReasoningEffort("meduim")).hasMessageContaining("--judge-reasoning-effort")
                .hasMessageContaining("meduim");
        assertThatThrownBy(() -> o.withAnswerTokens(0)).hasMessageContaining("at least 1 token");
        assertThat(ModelProfile.forModel(JudgeProtocol.OPENAI, "gpt-4o").withReasoningEffort("high").reasoningEffort())
                .as("no effort for a chat model").isNull();
        assertThatThrownBy(() -> ModelProfile.Kind.parse("gemini-pro")).hasMessageContaining("--judge-profile must be auto");
    }

    @Test
    void claudeIsAskedWithoutThinkingUnlessTheThinkingProfileIsChosen() {
        assertThat(of(JudgeProtocol.ANTHROPIC, "claude-sonnet-4-5")).isEqualTo("anthropic max_tokens=2048 temperature=0");
        assertThat(of(JudgeProtocol.ANTHROPIC, "claude-opus-4-1-20250805")).isEqualTo("anthropic max_tokens=2048 temperature=0");
        ModelProfile thinking = ModelProfile.defaults(ModelProfile.Kind.ANTHROPIC_THINKING, "claude-sonnet-4-5");
        assertThat(thinking.describe()).as("no temperature: Anthropic takes none but 1 with thinking")
                .isEqualTo("anthropic-thinking max_tokens=6144 budget_tokens=4096");
        assertThat(thinking.enlarged().describe()).isEqualTo("anthropic-thinking max_tokens=10240 budget_tokens=8192");
        assertThat(thinking.withThinkingTokens(29_952).canEnlarge()).as("max_tokens stays within 32,000").isFalse();
        assertThatThrownBy(() -> thinking.withThinkingTokens(1_000)).hasMessage(
                "Anthropic's thinking budget must be at least 1024 tokens, not 1000");
        assertThat(ModelProfile.Kind.ANTHROPIC_THINKING.fits(JudgeProtocol.ANTHROPIC)).isTrue();
        assertThat(ModelProfile.Kind.ANTHROPIC.fits(JudgeProtocol.OPENAI)).isFalse();
    }

    @Test
    void azureDeploymentsTakeOpenAisProfilesByTheModelsName() {
        assertThat(of(JudgeProtocol.AZURE_OPENAI, "gpt-4o")).isEqualTo("openai-chat max_tokens=2048 temperature=0");
        assertThat(of(JudgeProtocol.AZURE_OPENAI, "o4-mini"))
                .isEqualTo("openai-reasoning max_completion_tokens=16384 reasoning_effort=medium");
        assertThat(ModelProfile.Kind.OPENAI_REASONING.fits(JudgeProtocol.AZURE_OPENAI)).isTrue();
        assertThat(ModelProfile.Kind.GEMINI.fits(JudgeProtocol.AZURE_OPENAI)).isFalse();
        assertThatThrownBy(() -> ModelProfile.Kind.parse("claude")).hasMessage("--judge-profile must be auto, openai-chat, "
                + "openai-reasoning, gemini, gemini-thinking, anthropic, anthropic-thinking, not 'claude'");
    }
}
