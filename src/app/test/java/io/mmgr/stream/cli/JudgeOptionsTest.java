package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.StructuredOutput;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.junit.jupiter.api.Tag;

/** The judge's flags: what they configure, and the combinations refused with a clear error. */
@Tag("unit")
class JudgeOptionsTest {

    @CommandLine.Command(name = "probe")
    static final class Probe implements Runnable {
        @CommandLine.Mixin
        JudgeOptions judge;

        @Override
        public void run() {
        }
    }

    static JudgeSettings settings(String... args) {
        Probe p = new Probe();
        new CommandLine(p).parseArgs(args);
        return p.judge.settings();
    }

    static String[] judge(String protocol, String model, String... more) {
        String[] base = {"--judge-protocol", protocol, "--judge-base-url", "http://127.0.0.1:9/v1", "--judge-model", model};
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void theFlagsConfigureEveryConcern() {
        JudgeSettings s = settings(judge("gemini", "gemini-2.5-pro", "--judge-rpm", "150", "--judge-tpm", "2000000",
                "--judge-thinking-budget", "8192", "--judge-max-output-tokens", "1024", "--judge-retry-deadline", "PT6H",
                "--judge-max-attempts", "5", "--judge-circuit-open-for", "PT10S", "--judge-price-output", "10",
                "--judge-budget-usd", "50", "--judge-structured-output", "json_object", "--judge-frames", "8"));
        assertThat(s.protocol()).isEqualTo(JudgeProtocol.GEMINI);
        assertThat(s.profile().describe()).isEqualTo("gemini-thinking maxOutputTokens=9216 thinkingBudget=8192 temperature=0");
        assertThat(s.quota().requests()).isEqualTo(150);
        assertThat(s.quota().window()).isEqualTo(Duration.ofMinutes(1));
        assertThat(s.quota().tokensPerMinute()).isEqualTo(2_000_000);
        assertThat(s.retry().deadline()).isEqualTo(Duration.ofHours(6));
        assertThat(s.retry().maxAttempts()).isEqualTo(5);
        assertThat(s.circuit().openFor()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.pricing().budgetUsdPerRun()).isEqualTo(50.0);
        assertThat(s.structuredOutput()).isEqualTo(StructuredOutput.JSON_OBJECT);
        assertThat(s.media().frames()).isEqualTo(8);

        JudgeSettings o = settings(judge("openai", "o4-mini", "--judge-rps", "5", "--judge-reasoning-effort", "low"));
        assertThat(o.profile().describe()).isEqualTo("openai-reasoning max_completion_tokens=16384 reasoning_effort=low");
        assertThat(o.quota().window()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings(judge("openai", "o4-mini", "--judge-profile", "openai-chat")).profile().kind())
                .as("overridden").isEqualTo(ModelProfile.Kind.OPENAI_CHAT);
        assertThat(settings(judge("openai", "my-vllm-model")).retry().deadline()).isEqualTo(Duration.ofHours(24));
    }

    static io.mmgr.stream.judge.panel.PanelSettings panel(String... args) {
        Probe p = new Probe();
        new CommandLine(p).parseArgs(args);
        return p.judge.panel();
    }

    @Test
    void thePanelFlagsNameOtherJudgesSamplesAndTheRule() {
        var none = panel(judge("openai", "gpt-4o"));
        assertThat(none.active()).isFalse();
        assertThat(none.judges()).isEqualTo(1);
        assertThat(none.samples()).isEqualTo(1);

        var p = panel(judge("gemini", "gemini-2.5-pro", "--judge-rps", "5", "--judge-price-output", "10", "--judge-samples", "3",
                "--judge-panel", "anthropic,claude-sonnet-4-5,https://api.anthropic.com/v1,ANTHROPIC_API_KEY",
                "--judge-panel", "openai,gpt-4.1,https://api.openai.com/v1", "--judge-panel-rule", "unanimous"));
        assertThat(p.judges()).isEqualTo(3);
        assertThat(p.samples()).isEqualTo(3);
        assertThat(p.rule()).isEqualTo(io.mmgr.stream.judge.panel.PanelRule.UNANIMOUS);
        JudgeSettings claude = p.others().get(0);
        assertThat(claude.protocol()).isEqualTo(JudgeProtocol.ANTHROPIC);
        assertThat(claude.model()).isEqualTo("claude-sonnet-4-5");
        assertThat(claude.apiKeyEnv()).isEqualTo("ANTHROPIC_API_KEY");
        // the worker judge's limits and prices, the model's own profile
        assertThat(claude.quota().requests()).isEqualTo(5);
        assertThat(claude.pricing().outputUsdPerMTok()).isEqualTo(10.0);
        assertThat(claude.profile().kind()).isEqualTo(ModelProfile.Kind.ANTHROPIC);
        assertThat(p.others().get(1).apiKeyEnv()).isNull();

        assertThatThrownBy(() -> panel(judge("openai", "gpt-4o", "--judge-panel", "openai,gpt-4o")))
                .hasMessageContaining("PROTOCOL,MODEL,BASE_URL[,KEY_ENV]").hasMessageContaining("'openai,gpt-4o'");
        assertThatThrownBy(() -> panel(judge("openai", "gpt-4o", "--judge-panel", "openai,gpt-4o,http://127.0.0.1:9/v1")))
                .hasMessageContaining("names openai/gpt-4o twice").hasMessageContaining("--judge-samples");
        assertThatThrownBy(() -> panel(judge("openai", "gpt-4o", "--judge-samples", "0")))
                .hasMessageContaining("--judge-samples must be between 1 and 25, not 0");
        assertThatThrownBy(() -> panel(judge("openai", "gpt-4o", "--judge-panel-rule", "mean")))
                .hasMessageContaining("majority or unanimous");
        assertThatThrownBy(() -> panel(judge("openai", "gpt-4o", "--judge-structured-output", "json_object",
                "--judge-panel", "anthropic,claude-sonnet-4-5,https://api.anthropic.com/v1")))
                .hasMessageContaining("json_object is not for the anthropic protocol");
    }

    @Test
    void conflictingOrInvalidFlagsAreRefusedSayingWhich() {
        assertThatThrownBy(() -> settings(judge("openai", "gpt-4o", "--judge-rps", "10", "--judge-rpm", "600")))
                .hasMessageContaining("--judge-rps 10 and --judge-rpm 600 are both set");
        assertThatThrownBy(() -> settings(judge("gemini", "gemini-2.5-pro", "--judge-structured-output", "strict")))
                .hasMessage("--judge-structured-output must be json_schema, json_object or none for the gemini protocol, not 'strict'");
        assertThatThrownBy(() -> settings(judge("openai", "gpt-4o", "--judge-structured-output", "yaml")))
                .hasMessageContaining("for the openai protocol, not 'yaml'");
        assertThatThrownBy(() -> settings(judge("openai", "gpt-4o", "--judge-thinking-budget", "1000")))
                .hasMessageContaining("--judge-thinking-budget needs a reasoning profile").hasMessageContaining("openai-chat");
        assertThatThrownBy(() -> settings(judge("gemini", "gemini-2.5-pro", "--judge-reasoning-effort", "high")))
                .hasMessageContaining("--judge-reasoning-effort is for OpenAI reasoning models");
        assertThatThrownBy(() -> settings(judge("openai", "o4-mini", "--judge-profile", "gemini-thinking")))
                .hasMessageContaining("--judge-profile gemini-thinking is for the gemini protocol, not openai");
        assertThatThrownBy(() -> settings(judge("bedrock", "claude")))
                .hasMessageContaining("judge protocol must be openai, gemini, anthropic or azure-openai, not 'bedrock'");
        assertThatThrownBy(() -> settings(judge("anthropic", "claude-sonnet-4-5", "--judge-structured-output", "json_object")))
                .hasMessageContaining("json_object is not for the anthropic protocol");
        assertThatThrownBy(() -> settings(judge("anthropic", "claude-sonnet-4-5", "--judge-reasoning-effort", "low")))
                .hasMessageContaining("--judge-reasoning-effort is for OpenAI reasoning models, not the anthropic protocol");
        assertThatThrownBy(() -> settings(judge("anthropic", "claude-sonnet-4-5", "--judge-profile", "anthropic-thinking",
                "--judge-thinking-budget", "512"))).hasMessageContaining("at least 1024 tokens, not 512");
        assertThatThrownBy(() -> settings(judge("azure-openai", "gpt-4o", "--judge-profile", "anthropic")))
                .hasMessageContaining("--judge-profile anthropic is for the anthropic protocol, not azure-openai");
        assertThatThrownBy(() -> settings(judge("openai", "gpt-4o", "--judge-azure-deployment", "d")))
                .hasMessage("--judge-azure-deployment is for the azure-openai protocol, not openai");
    }

    @Test
    void anthropicAndAzureFlags() {
        JudgeSettings a = settings(judge("anthropic", "claude-sonnet-4-5"));
        assertThat(a.protocol()).isEqualTo(JudgeProtocol.ANTHROPIC);
        assertThat(a.profile().describe()).isEqualTo("anthropic max_tokens=2048 temperature=0");
        assertThat(a.structuredOutput()).isEqualTo(StructuredOutput.JSON_SCHEMA);
        assertThat(settings(judge("anthropic", "claude-sonnet-4-5", "--judge-profile", "anthropic-thinking",
                "--judge-thinking-budget", "8000")).profile().describe()).isEqualTo("anthropic-thinking max_tokens=10048 budget_tokens=8000");

        JudgeSettings z = settings(judge("azure-openai", "o4-mini", "--judge-azure-deployment", "judge-o4", "--judge-reasoning-effort",
                "low"));
        assertThat(z.protocol()).isEqualTo(JudgeProtocol.AZURE_OPENAI);
        assertThat(z.profile().describe()).isEqualTo("openai-reasoning max_completion_tokens=16384 reasoning_effort=low");
        assertThat(z.azure().deploymentFor(z.model())).isEqualTo("judge-o4");
        assertThat(z.azure().apiVersion()).as("the default").isEqualTo("2024-10-21");
        assertThat(z.requestConfiguration()).as("the deployment decides the model that answers").contains(" deployment=judge-o4 ");
        JudgeSettings plain = settings(judge("azure-openai", "gpt-4o", "--judge-azure-api-version", "2025-04-01-preview"));
        assertThat(plain.azure().deploymentFor(plain.model())).as("named after the model by default").isEqualTo("gpt-4o");
        assertThat(plain.azure().apiVersion()).isEqualTo("2025-04-01-preview");
        assertThat(settings(judge("openai", "gpt-4o")).requestConfiguration()).as("other protocols' cache keys unchanged")
                .isEqualTo("format=2 protocol=openai model=gpt-4o params=openai-chat max_tokens=2048 temperature=0 structured=json_schema");
    }

    @Test
    void theWorkerRefusesConflictingQuotaFlagsBeforeItConnectsAnywhere() {
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(append(new String[] {"judge-worker"},
                judge("openai", "gpt-4o", "--judge-rps", "10", "--judge-rpm", "600", "--bootstrap-servers", "127.0.0.1:9",
                        "--schema-registry-url", "http://127.0.0.1:9")));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("error: give the judge's quota once: --judge-rps 10 and --judge-rpm 600 are both set");
    }

    static String[] append(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
