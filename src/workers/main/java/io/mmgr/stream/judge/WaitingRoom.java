package io.mmgr.stream.judge;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.util.EnumMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Requests that wait, and what wakes each: its retry time, or the event it waits for (the circuit
 * letting calls through, the circuit closing, the cache being complete), whichever comes first. A
 * request parked on an event that holds already goes at once, so none misses the event it waits for.
 */
final class WaitingRoom {

    private final ScheduledExecutorService timer;
    private final Map<JudgeEngine.Resume, Queue<Runnable>> parked = new EnumMap<>(JudgeEngine.Resume.class);
    private final Map<JudgeEngine.Resume, BooleanSupplier> happened = new EnumMap<>(JudgeEngine.Resume.class);

    /** @param happened per event, whether it holds now (the circuit is not open; the cache is complete) */
    WaitingRoom(ScheduledExecutorService timer, Map<JudgeEngine.Resume, BooleanSupplier> happened) {
        this.timer = timer;
        this.happened.putAll(happened);
        for (JudgeEngine.Resume r : JudgeEngine.Resume.values()) {
            parked.put(r, new ConcurrentLinkedQueue<>());
        }
    }

    /** A room whose events are the engine's circuit and the follower's cache. */
    static WaitingRoom of(ScheduledExecutorService timer, JudgeEngine engine, CacheFollower follower) {
        WaitingRoom room = new WaitingRoom(timer, Map.of(
                // closed, not merely half-open: half-open lets only its probes through, the rest would spin
                JudgeEngine.Resume.CIRCUIT, () -> engine.resilience().circuit() == CircuitBreaker.State.CLOSED,
                JudgeEngine.Resume.CACHE, () -> engine.cache().complete()));
        engine.resilience().onCallsPermitted(state -> {
            room.release(JudgeEngine.Resume.CIRCUIT);
            if (state == CircuitBreaker.State.CLOSED) {
                room.release(JudgeEngine.Resume.BACKOFF); // the provider answers again: no need to sit out a backoff
            }
        });
        follower.onComplete(() -> room.release(JudgeEngine.Resume.CACHE));
        return room;
    }

    /** Runs {@code retry} once: after {@code wait.retryIn()}, or when its event happens if that is sooner. */
    void park(JudgeEngine.Outcome.Wait wait, Runnable retry) {
        AtomicBoolean once = new AtomicBoolean();
        ScheduledFuture<?>[] fallback = new ScheduledFuture<?>[1];
        Runnable go = () -> {
            if (once.compareAndSet(false, true)) {
                if (fallback[0] != null) {
                    fallback[0].cancel(false);
                }
                retry.run();
            }
        };
        fallback[0] = timer.schedule(go, Math.max(0, wait.retryIn().toMillis()), TimeUnit.MILLISECONDS);
        if (wait.resume() != JudgeEngine.Resume.LATER) {
            parked.get(wait.resume()).add(go);
            BooleanSupplier now = happened.get(wait.resume());
            if (now != null && now.getAsBoolean()) {
                release(wait.resume()); // it happened while this request was on its way here
            }
        }
    }

    /** Wakes every request waiting for the event. */
    void release(JudgeEngine.Resume event) {
        Queue<Runnable> q = parked.get(event);
        for (Runnable r; (r = q.poll()) != null; ) {
            timer.execute(r);
        }
    }
}
