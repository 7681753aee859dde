package io.mmgr.stream.evaluate;

import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bounded pool of one cost class: a fixed number of runner threads, each with its own evaluator
 * instances (engines such as OCR are never shared between threads), taking tasks in order.
 *
 * <p><b>Deadlines.</b> Every task gets the class's deadline when it starts. Past it, the task is told
 * ({@link Task#expired}: the sample fails with the reason) and its runner is interrupted and abandoned:
 * a new runner takes its place at once, so one stuck evaluation never holds up the ones behind it. An
 * evaluation in native code (an FFmpeg decode, Tesseract) may ignore the interrupt; its thread then
 * finishes in its own time, its late result is dropped, and it exits. At most {@code maxStuck} such
 * threads are replaced at a time: beyond that the class runs with fewer runners (and its queue, full,
 * pauses its partitions) rather than piling up threads, while the other classes are untouched.
 */
final class EvaluationPool implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EvaluationPool.class);

    /** One evaluation, as the pool runs it. */
    interface Task {
        /** False: nobody wants the result any more (partition given up, worker stopping); it is skipped. */
        boolean live();

        /** Does the work on a runner thread and completes the job. */
        void run(Runner runner);

        /** The task ran past its deadline: fail it with the reason. Called once, on the watchdog's thread. */
        void expired(Duration deadline);
    }

    /** What a task may use of the thread that runs it. */
    interface Runner {
        /** This thread's instance of the evaluator; empty when it is not installed. */
        Optional<DeterministicEvaluator> evaluator(String id);
    }

    private final CostClass costClass;
    private final int threads;
    private final Duration deadline;
    private final int maxStuck;
    private final int niceness;
    private final EvaluatorRegistry registry;
    private final ScheduledExecutorService watchdog;
    private final LinkedBlockingQueue<Task> queue = new LinkedBlockingQueue<>();
    private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger stuck = new AtomicInteger();
    private final AtomicLong expiredCount = new AtomicLong();
    private final AtomicInteger names = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param maxStuck  abandoned threads replaced at most at a time
     * @param niceness  added to each runner's nice value ({@link ThreadNiceness}): heavier classes yield the CPU
     */
    EvaluationPool(CostClass costClass, int threads, Duration deadline, int maxStuck, int niceness,
                   EvaluatorRegistry registry, ScheduledExecutorService watchdog) {
        if (threads < 1) {
            throw new IllegalArgumentException(costClass.label() + " evaluations need at least one thread");
        }
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException(costClass.label() + " deadline must be positive");
        }
        this.costClass = costClass;
        this.threads = threads;
        this.deadline = deadline;
        this.maxStuck = maxStuck;
        this.niceness = niceness;
        this.registry = registry;
        this.watchdog = watchdog;
        for (int i = 0; i < threads; i++) {
            spawn();
        }
    }

    void submit(Task task) {
        queue.add(task);
    }

    /** Submits the task again after {@code delay} (a dependency is down: the registry, say). */
    void submitLater(Task task, Duration delay) {
        if (!closed) {
            running.incrementAndGet(); // counted as taken in while it waits, so the queue does not fill behind it
            watchdog.schedule(() -> {
                running.decrementAndGet();
                submit(task);
            }, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Tasks waiting and running: what flow control compares with the class's bound. */
    int backlog() {
        return queue.size() + running.get();
    }

    /** Abandoned threads still inside an evaluation. */
    int stuckThreads() {
        return stuck.get();
    }

    long expired() {
        return expiredCount.get();
    }

    Duration deadline() {
        return deadline;
    }

    int threads() {
        return threads;
    }

    private void spawn() {
        Worker w = new Worker();
        Thread t = new Thread(w, "evaluate-" + costClass.label() + "-" + names.incrementAndGet());
        t.setDaemon(true);
        w.thread = t;
        workers.add(w);
        active.incrementAndGet();
        t.start();
    }

    private void expire(Worker w, Task task) {
        synchronized (w) {
            if (w.current != task || w.abandoned) {
                return; // it finished in time
            }
            w.abandoned = true;
        }
        expiredCount.incrementAndGet();
        running.decrementAndGet();
        active.decrementAndGet();
        int nowStuck = stuck.incrementAndGet();
        try {
            task.expired(deadline);
        } finally {
            w.thread.interrupt();
            if (closed) {
                return;
            }
            if (nowStuck <= maxStuck) {
                spawn();
                LOG.warn("a {} evaluation ran past its deadline of {}; its thread {} is abandoned and replaced "
                        + "({} abandoned threads still busy)", costClass.label(), deadline, w.thread.getName(), nowStuck);
            } else {
                LOG.error("a {} evaluation ran past its deadline of {}; {} abandoned threads are still busy (more "
                        + "than {}), so {} is not replaced: {} evaluations run on {} threads until they return",
                        costClass.label(), deadline, nowStuck, maxStuck, w.thread.getName(), costClass.label(), active.get());
            }
        }
    }

    private final class Worker implements Runnable, Runner {
        private final Map<String, DeterministicEvaluator> instances = new HashMap<>();
        private volatile Task current;
        private volatile boolean abandoned;
        private Thread thread;

        @Override
        public Optional<DeterministicEvaluator> evaluator(String id) {
            DeterministicEvaluator e = instances.get(id);
            if (e == null) {
                Optional<DeterministicEvaluator> created = registry.newInstance(id);
                created.ifPresent(x -> instances.put(id, x));
                return created;
            }
            return Optional.of(e);
        }

        @Override
        public void run() {
            if (niceness > 0) {
                ThreadNiceness.lower(niceness);
            }
            try {
                while (!closed && !abandoned) {
                    Task task;
                    try {
                        task = queue.poll(200, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        continue; // closing, or a late deadline interrupt: the loop condition decides
                    }
                    if (task == null || !task.live()) {
                        continue;
                    }
                    runOne(task);
                }
            } finally {
                closeInstances();
                workers.remove(this);
                if (abandoned) {
                    int left = stuck.decrementAndGet();
                    LOG.info("an abandoned {} evaluation thread returned ({} still busy)", costClass.label(), left);
                    if (!closed && active.get() < threads) {
                        spawn(); // it was not replaced when too many were stuck: capacity comes back now
                    }
                } else {
                    active.decrementAndGet();
                }
            }
        }

        private void runOne(Task task) {
            running.incrementAndGet();
            current = task;
            ScheduledFuture<?> timer = watchdog.schedule(() -> expire(this, task), deadline.toMillis(), TimeUnit.MILLISECONDS);
            try {
                task.run(this);
            } catch (RuntimeException | Error e) {
                LOG.error("a {} evaluation task failed unexpectedly", costClass.label(), e);
            } finally {
                timer.cancel(false);
                boolean expired;
                synchronized (this) {
                    current = null;
                    expired = abandoned;
                }
                if (!expired) {
                    running.decrementAndGet();
                }
                Thread.interrupted(); // a deadline that fired just as the task finished
            }
        }

        private void closeInstances() {
            for (DeterministicEvaluator e : instances.values()) {
                if (e instanceof AutoCloseable c) {
                    try {
                        c.close();
                    } catch (Exception ex) {
                        LOG.debug("closing evaluator {}", e.id(), ex);
                    }
                }
            }
            instances.clear();
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Worker w : workers) {
            w.thread.interrupt();
        }
        for (Worker w : workers) {
            try {
                w.thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
