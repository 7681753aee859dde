package io.mmgr.stream.bench;

import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How the scripted provider's models treat request parameters, as the real ones do: OpenAI's reasoning
 * models (o-series, gpt-5) reject {@code max_tokens} and any temperature but 1, and spend reasoning
 * tokens (more at a higher {@code reasoning_effort}) out of {@code max_completion_tokens}; Gemini 2.5
 * and 3 think out of {@code maxOutputTokens}, within {@code thinkingConfig.thinkingBudget} when it is
 * sent (possibly a little past it) and as much as they like when it is not; 2.5 Pro cannot be told not
 * to think (budget 0).
 */
final class ModelRules {

    private static final Pattern OPENAI_REASONING = Pattern.compile("o\\d+(-.*)?|gpt-5([.-].*)?");

    private ModelRules() {
    }

    private static String bare(String model) {
        String m = model.toLowerCase(Locale.ROOT);
        return m.substring(m.lastIndexOf('/') + 1);
    }

    static boolean reasons(JudgeProtocol protocol, String model) {
        String m = bare(model);
        return protocol == JudgeProtocol.OPENAI ? OPENAI_REASONING.matcher(m).matches()
                : m.startsWith("gemini-2.5") || m.startsWith("gemini-3");
    }

    /** The 400 a model gives to these parameters, or null when it takes them. */
    static ProviderAnswers.Reply check(JudgeProtocol protocol, String model, Map<String, Object> params) {
        if (!reasons(protocol, model)) {
            return null;
        }
        if (protocol == JudgeProtocol.OPENAI) {
            if (params.containsKey("max_tokens")) {
                return ProviderAnswers.maxTokensUnsupported();
            }
            Object t = params.get("temperature");
            if (t instanceof Number n && n.doubleValue() != 1.0) {
                return ProviderAnswers.temperatureUnsupported(n.toString());
            }
            return null;
        }
        Object budget = params.get("thinkingBudget");
        if (budget instanceof Number n && n.intValue() == 0 && bare(model).startsWith("gemini-2.5-pro")) {
            return ProviderAnswers.thinkingRequired();
        }
        return null;
    }

    /** Tokens the model thinks on this request. */
    static int thinking(JudgeProtocol protocol, String model, Map<String, Object> params, ScriptedVlmServer.Action a) {
        if (!reasons(protocol, model)) {
            return 0;
        }
        int want = a.thinking() >= 0 ? a.thinking() : usual(protocol, model);
        if (protocol == JudgeProtocol.OPENAI) {
            double factor = switch (String.valueOf(params.getOrDefault("reasoning_effort", "medium"))) {
                case "none" -> 0.0;
                case "minimal" -> 0.1;
                case "low" -> 0.5;
                case "high", "xhigh" -> 2.0;
                default -> 1.0;
            };
            return (int) (want * factor);
        }
        Object budget = params.get("thinkingBudget");
        if (budget instanceof Number n && n.intValue() >= 0) {
            return Math.min(want, n.intValue() + a.overflow());
        }
        return want; // no budget: dynamic thinking
    }

    /** What a reasoning model thinks on a judge's rubric when nothing bounds it. */
    private static int usual(JudgeProtocol protocol, String model) {
        if (protocol == JudgeProtocol.OPENAI) {
            return 2_500;
        }
        return bare(model).contains("flash") ? 1_500 : 3_000;
    }

    /** The request's output cap (thinking included), or -1 for none. */
    static int outputCap(JudgeProtocol protocol, Map<String, Object> params) {
        for (String name : protocol == JudgeProtocol.OPENAI ? new String[] {"max_completion_tokens", "max_tokens"}
                : new String[] {"maxOutputTokens"}) {
            if (params.get(name) instanceof Number n) {
                return n.intValue();
            }
        }
        return -1;
    }
}
