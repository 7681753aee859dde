package io.mmgr.stream.judge.batch;

import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderReply;
import java.util.Objects;

/** One request's result in an ended batch, by its custom id. */
public sealed interface BatchOutcome {

    String customId();

    /** The model answered (the body parsed by the realtime client's parser): final, as in the realtime lane. */
    record Answered(String customId, ProviderReply reply) implements BatchOutcome {
        public Answered {
            Objects.requireNonNull(customId);
            Objects.requireNonNull(reply);
        }
    }

    /**
     * The provider answered this request with an error (a line's non-200 status, a refusal, a malformed body),
     * classified as the realtime lane does: final when {@link ProviderException.Kind#answered()}, else retried.
     */
    record Failed(String customId, ProviderException error) implements BatchOutcome {
        public Failed {
            Objects.requireNonNull(customId);
            Objects.requireNonNull(error);
        }
    }

    /** No answer for this request (errored, expired, cancelled, or missing from the results): always transient. */
    record Unanswered(String customId, Why why, String detail) implements BatchOutcome {
        public Unanswered {
            Objects.requireNonNull(customId);
            Objects.requireNonNull(why);
            detail = detail == null ? "" : detail;
        }
    }

    enum Why {
        /** The provider's per-request error that is about the batch run, not the request (server error, batch-level error code). */
        ERRORED,
        /** The batch's window passed before this request ran. */
        EXPIRED,
        /** The batch was cancelled before this request ran. */
        CANCELLED,
        /** The results hold nothing for this request (the lane's finding, not the provider's). */
        MISSING
    }
}
