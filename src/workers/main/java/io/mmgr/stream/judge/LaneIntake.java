package io.mmgr.stream.judge;

import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.judge.batch.LaneRouter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Where the judge worker runs each try of a request. Outside {@code auto} (and for a panel, which asks in realtime)
 * every try goes to the worker's pool, as before. In {@code auto} the request is bound to its lane
 * ({@link LaneRouter#bind}) as the worker takes it in, on a thread that never waits for the quota: a burst is bound at
 * once, while the pool's threads wait for the quota, so the realtime backlog counts every request bound for
 * realtime (queued in the pool, waiting for the quota or a retry), and the rest go to the batch lane without queueing
 * behind realtime calls. Tries that make no call for the quota (bound to the batch lane, answered by the verdict cache)
 * run on a pool of their own for the same reason; a request the cache answers is not bound at all, so it takes no
 * realtime room and no batch line.
 */
final class LaneIntake implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LaneIntake.class);

    /** Threads for tries that wait for no quota: batch lines are built there (media read, video frames sampled). */
    static final int OFF_QUOTA_THREADS = 2;

    /** A request while the worker holds it: its request key (computed once) and whether it is bound to a lane. */
    static final class Ticket {
        private final BooleanSupplier live;
        /** null until the intake computed it; empty when the request has no prompt (the engine says why) */
        private volatile Optional<String> key;
        /** guarded by the intake */
        private boolean bound;

        /** @param live whether the worker still owns the request (false once its partition is given up) */
        Ticket(BooleanSupplier live) {
            this.live = live;
        }
    }

    private final JudgeEngine engine;
    private final Executor pool;
    private final ExecutorService binding;
    private final ExecutorService offQuota;
    /** bound tickets, and per key how many of them hold it: a key's binding ends with its last request */
    private final Set<Ticket> bound = new HashSet<>();
    private final Map<String, Integer> holders = new HashMap<>();

    /** @param pool the worker's pool, whose tries may wait for the quota */
    LaneIntake(JudgeEngine engine, Executor pool) {
        this.engine = engine;
        this.pool = pool;
        this.binding = Executors.newSingleThreadExecutor(r -> daemon(r, "judge-lane-intake"));
        AtomicInteger n = new AtomicInteger();
        this.offQuota = Executors.newFixedThreadPool(OFF_QUOTA_THREADS, r -> daemon(r, "judge-off-quota-" + n.incrementAndGet()));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Runs {@code judge}, one try of {@code request}, where its lane says. */
    void submit(JudgeRequest request, Ticket ticket, Runnable judge) {
        LaneRouter lane = engine.lane();
        if (!lane.bindsAtIntake() || engine.delegate() != null) {
            pool.execute(judge);
            return;
        }
        binding.execute(() -> {
            Executor where;
            try {
                where = place(request, ticket, lane);
            } catch (RuntimeException e) {
                // the cache unreadable, say: the try itself meets the same failure and says so on the verdict
                LOG.warn("cannot bind judge request {} to a lane ({}); it is tried on the pool", request.getRequestId(), e.toString());
                where = pool;
            }
            where.execute(judge);
        });
    }

    private Executor place(JudgeRequest request, Ticket t, LaneRouter lane) {
        if (t.key == null) {
            t.key = engine.cacheKey(request);
        }
        if (t.key.isEmpty()) {
            return pool; // no prompt: no call either, the engine answers INVALID
        }
        String key = t.key.get();
        if (engine.cache().get(key).isPresent()) {
            return offQuota;
        }
        if (!engine.cache().complete()) {
            return pool; // a miss may be an entry not read yet: the engine waits for the cache, then this asks again
        }
        LaneRouter.Bound b = lane.bind(key);
        if (b == LaneRouter.Bound.UNDECIDED) {
            return pool; // the engine's route says why it waits; bound on its next try
        }
        hold(t, key);
        return b == LaneRouter.Bound.BATCH ? offQuota : pool;
    }

    private synchronized void hold(Ticket t, String key) {
        if (!t.bound) {
            t.bound = true;
            bound.add(t);
            holders.merge(key, 1, Integer::sum);
        }
    }

    /** The worker let go of the request (its final verdict is out, or another worker owns it now). */
    synchronized void release(Ticket t) {
        if (!t.bound) {
            return;
        }
        t.bound = false;
        bound.remove(t);
        String key = t.key.orElseThrow();
        if (holders.merge(key, -1, Integer::sum) <= 0) {
            holders.remove(key);
            engine.lane().release(key);
        }
    }

    /**
     * Releases the requests of partitions given up: a held request whose partition went before its notice was
     * committed is never tried again here, so nothing else would end its binding. Called on every rebalance.
     */
    synchronized void sweep() {
        for (Ticket t : Set.copyOf(bound)) {
            if (!t.live.getAsBoolean()) {
                release(t);
            }
        }
    }

    @Override
    public void close() {
        binding.shutdownNow();
        offQuota.shutdownNow();
    }
}
