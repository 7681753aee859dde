package io.mmgr.stream.judge.protocol;

import java.time.Duration;

/**
 * A failed provider call, classified for retry, circuit breaking and the verdict's reason.
 *
 * <p>Two families. An <em>answer</em> the provider gave ({@link Kind#answered()}: a refusal, a 4xx
 * rejection of this request, a body no answer can be) is final: it becomes an INVALID verdict, cached
 * under the exact request configuration that produced it. A <em>failure to get an answer</em> (429,
 * 5xx, timeout, connection, a body that is not the protocol's JSON, the endpoint refusing the key) is
 * never final: the request waits and is tried again.
 */
public final class ProviderException extends Exception {

    public enum Kind {
        /** HTTP 429: over quota; retried after the announced wait. */
        RATE_LIMITED(true, false),
        /** HTTP 5xx. */
        SERVER(true, false),
        /** No answer within the time limit. */
        TIMEOUT(true, false),
        /** Connection failure or a body cut short. */
        TRANSPORT(true, false),
        /** A 200 body that is not the protocol's JSON (a proxy's error page, a broken envelope). */
        MALFORMED(true, false),
        /** A 200 body over the size limit or the JSON read limits: no answer a rubric needs is like it. */
        OVERSIZED(false, true),
        /** Refusal, safety block or content filter: the answer will not come, retrying does not help. */
        REFUSED(false, true),
        /** 401, 403, 404 (and Gemini's invalid-key 400): the endpoint, model or key is wrong; waits until fixed. */
        CONFIGURATION(false, false),
        /** Any other 4xx: this request, as configured, is unacceptable to the provider. */
        REJECTED(false, true);

        private final boolean retryable;
        private final boolean answered;

        Kind(boolean retryable, boolean answered) {
            this.retryable = retryable;
            this.answered = answered;
        }

        /** Retried within a call (transient). */
        public boolean retryable() {
            return retryable;
        }

        /** The provider answered, and the answer is final for this request configuration. */
        public boolean answered() {
            return answered;
        }
    }

    private final Kind kind;
    private final int status;
    private final RetryHints.Hint hint;
    private final String body;

    public ProviderException(Kind kind, int status, String message, RetryHints.Hint hint, String body) {
        super(message, null, false, false);
        this.kind = kind;
        this.status = status;
        this.hint = hint;
        this.body = body;
    }

    public ProviderException(Kind kind, String message) {
        this(kind, 0, message, null, null);
    }

    public Kind kind() {
        return kind;
    }

    public int status() {
        return status;
    }

    /** The wait the provider announced (Retry-After, RetryInfo, x-ratelimit-reset-*), or null. */
    public Duration retryAfter() {
        return hint == null ? null : hint.delay();
    }

    /** The announced wait and where it came from, or null. */
    public RetryHints.Hint hint() {
        return hint;
    }

    /** The raw answer text kept on a refusal, or a snippet of an error body. */
    public String body() {
        return body;
    }

    public boolean retryable() {
        return kind.retryable();
    }
}
