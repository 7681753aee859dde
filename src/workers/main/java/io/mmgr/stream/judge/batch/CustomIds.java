package io.mmgr.stream.judge.batch;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The custom id of a request in a batch, the same for every protocol: Anthropic's {@code ^[a-zA-Z0-9_-]{1,64}$} is
 * the strictest rule (OpenAI and Gemini take any string), and a request key (sample key, rubric, configuration) is
 * longer and holds other characters. So the id is {@code r} and the URL-safe base64 of the key's SHA-256 (44
 * characters): deterministic (a request resubmitted after a crash gets the same id), unique within a batch, and
 * mapped back through the batch record, which keeps every custom id beside its request key.
 */
public final class CustomIds {

    /** Anthropic's rule for {@code custom_id}; the other providers accept anything this matches. */
    public static final Pattern VALID = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    private CustomIds() {
    }

    public static String of(String requestKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(requestKey.getBytes(StandardCharsets.UTF_8));
            return "r" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    public static boolean valid(String customId) {
        return customId != null && VALID.matcher(customId).matches();
    }
}
