package io.mmgr.stream.judge.protocol;

import java.util.Locale;

/**
 * How the answer's JSON is asked for. OpenAI: {@code response_format} json_schema (strict) or
 * json_object; Gemini: {@code responseMimeType: application/json} with ({@code json_schema}) or
 * without ({@code json_object}) a {@code responseSchema}. {@code none}: the prompt alone asks for it.
 */
public enum StructuredOutput {
    JSON_SCHEMA("json_schema"),
    JSON_OBJECT("json_object"),
    NONE("none");

    private final String id;

    StructuredOutput(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The mode named by {@code value}; anything else is an error naming the choices and the protocol. */
    public static StructuredOutput parse(String value, JudgeProtocol protocol) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        for (StructuredOutput s : values()) {
            if (s.id.equals(v)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--judge-structured-output must be json_schema, json_object or none for the "
                + protocol.id() + " protocol, not '" + value + "'");
    }

    @Override
    public String toString() {
        return id;
    }
}
