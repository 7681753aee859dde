package io.mmgr.stream.judge.protocol;

import java.util.Locale;

/**
 * How the answer's JSON is asked for. OpenAI and Azure OpenAI: {@code response_format} json_schema
 * (strict) or json_object; Gemini: {@code responseMimeType: application/json} with ({@code json_schema})
 * or without ({@code json_object}) a {@code responseSchema}; Anthropic: {@code output_config.format}
 * json_schema (it has no schema-less JSON mode, so json_object is refused). {@code none}: the prompt alone
 * asks for it.
 */
public enum StructuredOutput {
    JSON_SCHEMA("json_schema"),
    JSON_OBJECT("json_object"),
    NONE("none");

    static final String NO_JSON_OBJECT = "--judge-structured-output json_object is not for the anthropic protocol (Anthropic has "
            + "no schema-less JSON mode): json_schema or none";

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
                if (s == JSON_OBJECT && protocol == JudgeProtocol.ANTHROPIC) {
                    throw new IllegalArgumentException(NO_JSON_OBJECT);
                }
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
