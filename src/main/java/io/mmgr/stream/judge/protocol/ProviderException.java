package io.mmgr.stream.judge.protocol;

import java.time.Duration;

/** A failed provider call, classified for retry, circuit breaking and the verdict's reason. */
public final class ProviderException extends Exception {

    public enum Kind {
        /** HTTP 429: over quota; retried after Retry-After. */
        RATE_LIMITED(true),
        /** HTTP 5xx. */
        SERVER(true),
        /** No answer within the time limit. */
        TIMEOUT(true),
        /** Connection failure or a body cut short. */
        TRANSPORT(true),
        /** A body that is not the protocol's JSON. */
        MALFORMED(true),
        /** Refusal, safety block or content filter: the answer will not come, retrying does not help. */
        REFUSED(false),
        /** 401, 403, 404: the endpoint, model or key is wrong; every call would fail the same way. */
        CONFIGURATION(false),
        /** Any other 4xx: this request is unacceptable to the provider. */
        REJECTED(false);

        private final boolean retryable;

        Kind(boolean retryable) {
            this.retryable = retryable;
        }

        public boolean retryable() {
            return retryable;
        }
    }

    private final Kind kind;
    private final int status;
    private final Duration retryAfter;
    private final String body;

    public ProviderException(Kind kind, int status, String message, Duration retryAfter, String body) {
        super(message, null, false, false);
        this.kind = kind;
        this.status = status;
        this.retryAfter = retryAfter;
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

    /** The provider's Retry-After, or null. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** The raw answer text kept on a refusal, or a snippet of an error body. */
    public String body() {
        return body;
    }

    public boolean retryable() {
        return kind.retryable();
    }
}
