package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The waits providers announce, in the formats they document:
 * <ul>
 *   <li>{@code Retry-After}: delta-seconds or an HTTP-date (RFC 9110, section 10.2.3);</li>
 *   <li>Gemini: {@code error.details[]} entry of {@code @type type.googleapis.com/google.rpc.RetryInfo}
 *       with {@code retryDelay} in protobuf's JSON Duration form ({@code "37s"}, {@code "0.5s"}), next
 *       to a message ending "Please retry in 37.57747s." (the detail is often the whole seconds only, so the
 *       longer of the two is the wait);</li>
 *   <li>OpenAI: {@code x-ratelimit-reset-requests} / {@code x-ratelimit-reset-tokens} as Go durations
 *       ({@code "1s"}, {@code "6m0s"}, {@code "20ms"}, {@code "23h18m29.144s"}), and a message "Please try
 *       again in 1.146s."</li>
 *   <li>Azure OpenAI: {@code retry-after-ms} (milliseconds) beside {@code retry-after}, and a message "Please
 *       retry after 6 seconds."</li>
 *   <li>Anthropic: {@code retry-after}, and {@code anthropic-ratelimit-*-reset} as RFC 3339 times (when the
 *       limit is back to its initial state).</li>
 * </ul>
 */
public final class RetryHints {

    private static final Pattern GO_PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(h|ms|m|s|us|µs|μs|ns)");
    private static final Pattern PROTO = Pattern.compile("(\\d+)(?:\\.(\\d{1,9}))?s");
    private static final Pattern IN_MESSAGE = Pattern.compile("(?:retry|try again) in ([0-9.]+(?:h|ms|m|s|us|µs|ns)[0-9hmsuµn.]*)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern AFTER_SECONDS = Pattern.compile("retry after (\\d+(?:\\.\\d+)?) seconds?", Pattern.CASE_INSENSITIVE);

    /** A wait a provider announced and where it said so (for the reason a request shows while it waits). */
    public record Hint(Duration delay, String source) {
        /** The longer of two hints; either may be null. */
        public static Hint longer(Hint a, Hint b) {
            if (a == null) {
                return b;
            }
            if (b == null) {
                return a;
            }
            return b.delay.compareTo(a.delay) > 0 ? b : a;
        }

        static Hint of(Duration delay, String source) {
            return delay == null ? null : new Hint(delay, source);
        }
    }

    private RetryHints() {
    }

    /** {@code Retry-After} in seconds or as an HTTP date; null when absent or unreadable. */
    public static Duration retryAfter(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip();
        try {
            double seconds = Double.parseDouble(v);
            return seconds < 0 ? null : Duration.ofMillis((long) Math.ceil(seconds * 1000));
        } catch (NumberFormatException e) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration d = Duration.between(ZonedDateTime.now(at.getZone()), at);
                return d.isNegative() ? Duration.ZERO : d;
            } catch (RuntimeException e2) {
                return null;
            }
        }
    }

    /** A Go duration ({@code time.Duration.String()}: {@code 1m30.5s}, {@code 20ms}, {@code 6m0s}); null when unreadable. */
    public static Duration goDuration(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip();
        if (v.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = GO_PART.matcher(v);
        double nanos = 0;
        int at = 0;
        while (at < v.length()) {
            if (!m.find(at) || m.start() != at) {
                return null;
            }
            double n = Double.parseDouble(m.group(1));
            nanos += n * switch (m.group(2)) {
                case "h" -> 3.6e12;
                case "m" -> 6e10;
                case "s" -> 1e9;
                case "ms" -> 1e6;
                case "ns" -> 1;
                default -> 1e3; // us, µs
            };
            at = m.end();
        }
        return Duration.ofNanos((long) Math.ceil(nanos));
    }

    /** A protobuf Duration in its JSON form ({@code "37s"}, {@code "0.5s"}, {@code "1.203608125s"}); null when unreadable. */
    public static Duration protobufDuration(String value) {
        if (value == null) {
            return null;
        }
        Matcher m = PROTO.matcher(value.strip());
        if (!m.matches()) {
            return null;
        }
        long seconds = Long.parseLong(m.group(1));
        long nanos = m.group(2) == null ? 0 : Long.parseLong((m.group(2) + "000000000").substring(0, 9));
        return Duration.ofSeconds(seconds, nanos);
    }

    /** Gemini's {@code google.rpc.RetryInfo} {@code retryDelay} in an error body ({@code {"error": {"details": [...]}}}). */
    public static Duration geminiRetryInfo(JsonNode errorBody) {
        if (errorBody == null) {
            return null;
        }
        for (JsonNode detail : errorBody.path("error").path("details")) {
            if (detail.path("@type").asText("").endsWith("google.rpc.RetryInfo")) {
                Duration d = protobufDuration(detail.path("retryDelay").asText(null));
                if (d != null) {
                    return d;
                }
            }
        }
        return null;
    }

    /**
     * The wait a message names ("Please retry in 37.57747s.", "Please try again in 20ms.", Azure's "Please retry
     * after 6 seconds."); null when it names none.
     */
    public static Duration waitInMessage(String message) {
        if (message == null) {
            return null;
        }
        Matcher after = AFTER_SECONDS.matcher(message);
        if (after.find()) {
            return Duration.ofMillis((long) Math.ceil(Double.parseDouble(after.group(1)) * 1000));
        }
        Matcher m = IN_MESSAGE.matcher(message);
        if (!m.find()) {
            return null;
        }
        String d = m.group(1);
        while (d.endsWith(".")) {
            d = d.substring(0, d.length() - 1);
        }
        return goDuration(d);
    }

    /** A count of milliseconds (Azure's {@code retry-after-ms}); null when absent or unreadable. */
    public static Duration millis(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            double ms = Double.parseDouble(value.strip());
            return ms < 0 ? null : Duration.ofNanos((long) Math.ceil(ms * 1e6));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The wait until an RFC 3339 time (Anthropic's {@code anthropic-ratelimit-*-reset}), zero when past; null when unreadable. */
    public static Duration until(String rfc3339, java.time.Instant now) {
        if (rfc3339 == null || rfc3339.isBlank()) {
            return null;
        }
        try {
            Duration d = Duration.between(now, java.time.OffsetDateTime.parse(rfc3339.strip()).toInstant());
            return d.isNegative() ? Duration.ZERO : d;
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** The longest wait a header of a 429 or 5xx announces: {@code Retry-After}. */
    static Hint retryAfterHeader(String value) {
        return Hint.of(retryAfter(value), "Retry-After");
    }

    static Hint inMessage(String message) {
        return Hint.of(waitInMessage(message), "the error message");
    }
}
