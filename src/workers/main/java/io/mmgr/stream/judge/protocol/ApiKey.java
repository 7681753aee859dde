package io.mmgr.stream.judge.protocol;

import java.util.Map;

/**
 * An API key read from an environment variable. Only the HTTP clients see its value; its
 * {@code toString} and every text derived from a provider's answer are redacted, so the key can reach
 * neither a log nor a topic.
 */
public final class ApiKey {

    private static final ApiKey NONE = new ApiKey(null, null);

    private final String variable;
    private final String value;

    private ApiKey(String variable, String value) {
        this.variable = variable;
        this.value = value;
    }

    /** The key in {@code variable}; a named variable that is unset or empty is an error (say which, never its value). */
    public static ApiKey fromEnvironment(String variable, Map<String, String> env) {
        if (variable == null || variable.isBlank()) {
            return NONE;
        }
        String v = env.get(variable);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("environment variable " + variable + " (the judge's API key) is not set");
        }
        return new ApiKey(variable, v.strip());
    }

    public static ApiKey none() {
        return NONE;
    }

    public boolean present() {
        return value != null;
    }

    String value() {
        return value;
    }

    /** The text with every occurrence of the key replaced (providers sometimes echo a wrong key). */
    public String redact(String text) {
        if (text == null || value == null || value.length() < 4) {
            return text;
        }
        return text.replace(value, "***");
    }

    @Override
    public String toString() {
        return variable == null ? "(no key)" : "$" + variable + " (redacted)";
    }
}
