package io.mmgr.stream.judge.batch;

import java.util.List;
import java.util.Objects;

/**
 * A batch as the provider reports it.
 *
 * @param providerId the provider's batch id (OpenAI {@code batch_...}, Gemini {@code batches/...}, Anthropic {@code msgbatch_...})
 * @param localId    our local id, where the provider keeps it (OpenAI {@code metadata}, Gemini {@code displayName}); else null
 * @param state      the provider's state, mapped
 * @param counts     requests in all, succeeded and errored so far, as reported (zeros when the provider gives none)
 * @param resultRefs where the results are, as the protocol needs them to read them (OpenAI: output and error file ids;
 *                   Anthropic: {@code results_url}; Gemini: the responses file, or none for inline responses); opaque
 * @param detail     the provider's state name and any error it gives, for logs and the PENDING reason; never null
 */
public record BatchStatus(String providerId, String localId, State state, Counts counts, List<String> resultRefs, String detail) {

    public BatchStatus {
        Objects.requireNonNull(providerId);
        Objects.requireNonNull(state);
        Objects.requireNonNull(counts);
        resultRefs = List.copyOf(resultRefs);
        detail = detail == null ? "" : detail;
    }

    public enum State {
        /** Accepted and not ended: validating, in progress, finalizing, cancelling, pending, running. */
        IN_PROGRESS,
        /** Ended as the provider meant: every request has a result (succeeded or errored). */
        ENDED,
        /** The batch as a whole failed (e.g. OpenAI's validation): no results; every request goes back. */
        FAILED,
        /** The completion window passed: the results made so far are read, the rest go back. */
        EXPIRED,
        /** Cancelled (by us or on the provider's side): the results made so far are read, the rest go back. */
        CANCELLED;

        public boolean terminal() {
            return this != IN_PROGRESS;
        }
    }

    public record Counts(long total, long succeeded, long errored) {
        public static final Counts NONE = new Counts(0, 0, 0);
    }
}
