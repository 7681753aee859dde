package io.mmgr.stream.judge.protocol;

import java.util.Locale;

/** The wire protocols a judge speaks. */
public enum JudgeProtocol {
    /** Chat Completions ({@code <base>/chat/completions}): OpenAI and every OpenAI-compatible server. */
    OPENAI("openai"),
    /** Gemini's native {@code <base>/models/<model>:generateContent}. */
    GEMINI("gemini");

    private final String id;

    JudgeProtocol(String id) {
        this.id = id;
    }

    /** The name used in flags, cache keys and logs. */
    public String id() {
        return id;
    }

    public static JudgeProtocol parse(String value) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        for (JudgeProtocol p : values()) {
            if (p.id.equals(v)) {
                return p;
            }
        }
        throw new IllegalArgumentException("judge protocol must be openai or gemini, not '" + value + "'");
    }

    @Override
    public String toString() {
        return id;
    }
}
