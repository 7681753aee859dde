package io.mmgr.stream.judge.batch;

import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ProviderCall;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One provider's batch API, provider-neutral (see the package's design notes). Every call is asynchronous and
 * never blocks its caller; a future fails with a {@link io.mmgr.stream.judge.protocol.ProviderException}
 * classified as the realtime lane classifies it (a 429 on create is RATE_LIMITED with the provider's retry hint).
 */
public interface BatchProtocol {

    JudgeProtocol protocol();

    /** The most requests one batch may hold at this provider; the lane never creates a larger batch. */
    int maxRequests();

    /**
     * One request of a batch: the body the realtime client would send for {@code call} (built by its
     * {@link io.mmgr.stream.judge.protocol.ProviderCodec}, never copied), wrapped in the provider's line shape
     * under {@code customId} (a {@link CustomIds#of} value).
     */
    BatchLine line(String customId, ProviderCall call) throws IOException;

    /**
     * Creates a batch of {@code lines}, tagged with our {@code localId} where the provider keeps a tag (so that
     * {@link #find} sees it after a crash). Completes with the provider's batch id. Not idempotent at any
     * provider: the lane records the batch as SUBMITTING before it calls this.
     */
    CompletableFuture<String> create(String localId, List<BatchLine> lines);

    /** The batch's state and counts now. */
    CompletableFuture<BatchStatus> poll(String providerId);

    /**
     * Reads the results of a batch that has {@linkplain BatchStatus.State#terminal() ended} (any terminal state:
     * a cancelled or expired batch may hold partial results), handing each to {@code sink} in the provider's
     * order, which need not be the input's; completes when every result is read. Results are streamed: a
     * results file may be far larger than one response body the realtime lane accepts. A request of the batch
     * that gets no result at all is the lane's to put back (as {@link BatchOutcome.Unanswered}); the protocol
     * reports only what the provider says.
     */
    CompletableFuture<Void> results(BatchStatus ended, Consumer<BatchOutcome> sink);

    /**
     * The batch we created as {@code local}, if the provider has it: after a crash between {@link #create} and
     * recording its provider id. Empty when the provider has none (then the lane creates it again). Where the
     * provider keeps no tag (Anthropic), the protocol matches on what it does keep (creation time, request count)
     * and says so in its documentation.
     */
    CompletableFuture<Optional<BatchStatus>> find(LocalBatch local);

    /** Asks the provider to cancel the batch; results already made are still read after it ends. */
    CompletableFuture<Void> cancel(String providerId);
}
