package io.mmgr.stream.judge.batch;

import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderReply;
import java.time.Duration;

/**
 * Where the judge engine's call for a request goes: realtime, or the batch lane, which answers the request once
 * its batch has ended. Asked once per try of a request, on the worker's pool; never blocks.
 */
public interface LaneRouter {

    /** Every call realtime: {@code --judge-lane realtime}. */
    LaneRouter REALTIME = new LaneRouter() {
        @Override
        public Route route(String requestKey, ProviderCall call) {
            return Route.REALTIME;
        }

        @Override
        public void realtimeDone() {
        }
    };

    /** @param requestKey the judge's cache key of the request (identical prompts share one batch line) */
    Route route(String requestKey, ProviderCall call);

    /** A call routed {@link Route#REALTIME} finished, answered or not (auto counts realtime requests outstanding). */
    void realtimeDone();

    /** Runs {@code wake} whenever a batch's answers are ready, so the requests waiting for them are asked at once. */
    default void onAnswersReady(Runnable wake) {
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
