package io.mmgr.stream.bench;

import io.mmgr.stream.judge.protocol.JudgeProtocol;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How the scripted provider's models treat request parameters, as the real ones do: OpenAI's reasoning
 * models (o-series, gpt-5) reject {@code max_tokens} and any temperature but 1, and spend reasoning
 * tokens (more at a higher {@code reasoning_effort}) out of {@code max_completion_tokens}; Gemini 2.5
 * and 3 think out of {@code maxOutputTokens}, within {@code thinkingConfig.thinkingBudget} when it is
 * sent (possibly a little past it) and as much as they like when it is not; 2.5 Pro cannot be told not
 * to think (budget 0). Claude thinks only when asked ({@code thinking.budget_tokens}, at least 1,024 and
 * below {@code max_tokens}, with no temperature but 1), out of {@code max_tokens}. Azure deployments
 * take OpenAI's rules by the deployment's name.
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
        return switch (protocol.family()) {
            case OPENAI -> OPENAI_REASONING.matcher(m).matches();
            case GEMINI -> m.startsWith("gemini-2.5") || m.startsWith("gemini-3");
            default -> false; // Claude thinks only when asked
        };
    }

    private static final String THINKING_DOCS = " Please consult our documentation at "
            + "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";

    /** Bounds Anthropic's structured output refuses in a schema. */
    private static final List<String> UNSUPPORTED = List.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
            "minLength", "maxLength", "maxItems");

    /** The first bound of {@code schema} Anthropic refuses, as its 400 words it, or null. */
    static String unsupportedBound(JsonNode schema) {
        for (String k : UNSUPPORTED) {
            if (schema.has(k)) {
                return "output_config.format.schema: For '" + schema.path("type").asText() + "' type, property '" + k
                        + "' is not supported";
            }
        }
        for (JsonNode sub : schema.path("properties")) {
            String found = unsupportedBound(sub);
            if (found != null) {
                return found;
            }
        }
        return schema.has("items") ? unsupportedBound(schema.get("items")) : null;
    }

    /**
     * Anthropic's 400s: no max_tokens, a thinking budget under 1,024 or not below max_tokens, a temperature with
     * thinking, a structured-output schema with bounds.
     */
    static ProviderAnswers.Reply checkAnthropic(Map<String, Object> params, JsonNode body) {
        if (!(params.get("max_tokens") instanceof Number max)) {
            return AnthropicAnswers.badRequest("max_tokens: Field required");
        }
        String bound = unsupportedBound(body.path("output_config").path("format").path("schema"));
        if (bound != null) {
            return AnthropicAnswers.badRequest(bound);
        }
        if (params.get("budget_tokens") instanceof Number budget) {
            if (budget.intValue() < 1024) {
                return AnthropicAnswers.badRequest("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
            }
            if (max.intValue() <= budget.intValue()) {
                return AnthropicAnswers.badRequest("`max_tokens` must be greater than `thinking.budget_tokens`." + THINKING_DOCS);
            }
            if (params.get("temperature") instanceof Number t && t.doubleValue() != 1.0) {
                return AnthropicAnswers.badRequest("`temperature` may only be set to 1 when thinking is enabled." + THINKING_DOCS);
            }
        }
        return null;
    }

    /** The 400 a model gives to these parameters, or null when it takes them. */
    static ProviderAnswers.Reply check(JudgeProtocol protocol, String model, Map<String, Object> params) {
        if (!reasons(protocol, model)) {
            return null;
        }
        if (protocol.family() == JudgeProtocol.OPENAI) {
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
        if (protocol == JudgeProtocol.ANTHROPIC) {
            // thinking within the budget asked for (a little past it when scripted so), none when not asked
            return params.get("budget_tokens") instanceof Number b
                    ? Math.min(a.thinking() >= 0 ? a.thinking() : 2_000, b.intValue() + a.overflow()) : 0;
        }
        if (!reasons(protocol, model)) {
            return 0;
        }
        int want = a.thinking() >= 0 ? a.thinking() : usual(protocol, model);
        if (protocol.family() == JudgeProtocol.OPENAI) {
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
        if (protocol.family() == JudgeProtocol.OPENAI) {
            return 2_500;
        }
        return bare(model).contains("flash") ? 1_500 : 3_000;
    }

    /** The request's output cap (thinking included), or -1 for none. */
    static int outputCap(JudgeProtocol protocol, Map<String, Object> params) {
        String[] names = switch (protocol.family()) {
            case OPENAI -> new String[] {"max_completion_tokens", "max_tokens"};
            case ANTHROPIC -> new String[] {"max_tokens"};
            default -> new String[] {"maxOutputTokens"};
        };
        for (String name : names) {
            if (params.get(name) instanceof Number n) {
                return n.intValue();
            }
        }
        return -1;
    }
}
