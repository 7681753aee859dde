package io.mmgr.stream.judge.batch;

import java.time.Instant;
import java.util.Objects;

/**
 * What we know of a batch we were creating when the worker stopped: enough for {@link BatchProtocol#find} to tell
 * it among the provider's batches.
 *
 * @param localId  our id, which OpenAI keeps in {@code metadata} and Gemini in {@code displayName}
 * @param since    when we recorded it as SUBMITTING: the provider created it at or after this instant
 * @param requests how many requests it holds
 */
public record LocalBatch(String localId, Instant since, int requests) {

    public LocalBatch {
        Objects.requireNonNull(localId);
        Objects.requireNonNull(since);
    }
}
