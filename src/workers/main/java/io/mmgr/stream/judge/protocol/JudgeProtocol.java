package io.mmgr.stream.judge.protocol;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The wire protocols a judge speaks. */
public enum JudgeProtocol {
    /** Chat Completions ({@code <base>/chat/completions}): OpenAI and every OpenAI-compatible server. */
    OPENAI("openai"),
    /** Gemini's native {@code <base>/models/<model>:generateContent}. */
    GEMINI("gemini"),
    /** Anthropic Messages ({@code <base>/messages}, with {@code x-api-key} and {@code anthropic-version}). */
    ANTHROPIC("anthropic"),
    /**
     * Azure OpenAI: OpenAI's Chat Completions body at a deployment URL
     * ({@code <endpoint>/openai/deployments/<deployment>/chat/completions?api-version=...}) with an {@code api-key} header.
     */
    AZURE_OPENAI("azure-openai");

    private final String id;

    JudgeProtocol(String id) {
        this.id = id;
    }

    /** The name used in flags, cache keys and logs. */
    public String id() {
        return id;
    }

    /** The protocol whose request body and model profiles this one takes (Azure's chat body is OpenAI's). */
    public JudgeProtocol family() {
        return this == AZURE_OPENAI ? OPENAI : this;
    }

    /** The names of every protocol, for messages: "openai, gemini, anthropic or azure-openai". */
    public static String names() {
        String all = Arrays.stream(values()).map(JudgeProtocol::id).collect(Collectors.joining(", "));
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }

    public static JudgeProtocol parse(String value) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        for (JudgeProtocol p : values()) {
            if (p.id.equals(v)) {
                return p;
            }
        }
        throw new IllegalArgumentException("judge protocol must be " + names() + ", not '" + value + "'");
    }

    @Override
    public String toString() {
        return id;
    }
}
