package io.mmgr.stream.judge.batch;

import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderReply;
import java.time.Duration;

/**
 * Where the judge engine's call for a request goes: realtime, or the batch lane, which answers the request once
 * its batch has ended. Asked once per try of a request, on the worker's threads; never blocks. In {@code auto} the
 * worker binds each request to its lane as it takes the request in ({@link #bind}), before any pool thread gets to
 * it, so that the realtime backlog counts every request bound for realtime, queued ones included.
 */
public interface LaneRouter {

    /** Every call realtime: {@code --judge-lane realtime}. */
    LaneRouter REALTIME = new LaneRouter() {
        @Override
        public Route route(String requestKey, ProviderCall call) {
            return Route.REALTIME;
        }

        @Override
        public void realtimeDone(String requestKey) {
        }
    };

    /** @param requestKey the judge's cache key of the request (identical prompts share one batch line) */
    Route route(String requestKey, ProviderCall call);

    /**
     * The realtime call of {@code requestKey} ended for good: answered, or failed in a way no retry changes. Until then
     * the request counts as realtime backlog, waiting for the quota or a retry included (auto's count), and stays in
     * the realtime lane.
     */
    void realtimeDone(String requestKey);

    /** Whether the worker binds each request it takes in with {@link #bind} ({@code auto}); else every try just routes. */
    default boolean bindsAtIntake() {
        return false;
    }

    /**
     * Binds a request the worker has just taken in (or takes up again) to a lane, once per request key: a key bound
     * stays in its lane until it is answered or {@link #release}d. A request the verdict cache answers is never bound.
     */
    default Bound bind(String requestKey) {
        return Bound.UNDECIDED;
    }

    /** The worker no longer holds a request of {@code requestKey} (judged, or left to another worker): its binding ends. */
    default void release(String requestKey) {
    }

    /** Runs {@code wake} whenever a batch's answers are ready, so the requests waiting for them are asked at once. */
    default void onAnswersReady(Runnable wake) {
    }

    /** The lane a request is bound to at intake. */
    enum Bound {
        /** its first call goes realtime: it counts toward the realtime backlog until it is answered */
        REALTIME,
        /** it goes to (or stays in) the batch lane */
        BATCH,
        /** not decided now (the lane is still reading its batches): asked again on the request's next try */
        UNDECIDED
    }

    sealed interface Route {
        Route REALTIME = new Realtime();
    }

    /** Call the provider now. */
    record Realtime() implements Route {
    }

    /** The batch answered: final exactly as a realtime answer, billed at the batch price. */
    record Answer(ProviderReply reply) implements Route {
    }

    /** The batch answered with an error, classified as the realtime lane classifies it. */
    record Failure(ProviderException error) implements Route {
    }

    /** Waiting in or for a batch: PENDING with this reason, asked again at {@code recheck} or when a batch ends. */
    record Waiting(String reason, Duration recheck) implements Route {
    }

    /** The batch gave no answer (expired, cancelled, errored, failed): transient, the request goes back to the queue. */
    record Again(String reason) implements Route {
    }
}
