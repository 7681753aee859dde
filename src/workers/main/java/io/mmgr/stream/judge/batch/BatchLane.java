package io.mmgr.stream.judge.batch;

import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batch lane of one judge worker (see the package's design notes). Requests routed here queue until
 * {@code maxRequests} wait, their entries fill a record of the batches log ({@link RecordBudget}), or the oldest has
 * waited {@code maxWait}; then a batch (cut at whichever of these comes first) is recorded SUBMITTING, created,
 * recorded SUBMITTED, and polled every {@code pollInterval}. Once it ends its results are read into answers that
 * each request takes on its next try; when every request of the batch has taken its answer (or
 * {@link #RESULTS_KEPT} has passed, for requests already judged elsewhere), it is recorded ENDED. All of this runs on
 * the lane's scheduler; {@link #route} only looks at memory.
 *
 * <p>In {@code auto}, the worker binds each request as it takes it in ({@link #bind}): it goes realtime while
 * {@link LaneChooser} says the quota share serves the realtime backlog, this request included, within the latency
 * target; the rest are bound to the batch lane at once. The backlog is every key bound realtime and not yet answered,
 * whether its request waits in the worker's pool, for the quota or for a retry. A key bound to the batch lane stays
 * there (a batch that gave it no answer queues it again); one bound realtime stays realtime across its retries. An
 * engine used without a worker (no {@link #bind}) is decided the same way on its first {@link #route}.
 */
public final class BatchLane implements LaneRouter, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BatchLane.class);
    /** How long the answers of an ended batch wait for requests to take them before the batch is recorded ENDED. */
    static final Duration RESULTS_KEPT = Duration.ofMinutes(30);
    static final String STARTING = "the batch lane is reading its batches";

    private final BatchSettings settings;
    private final BatchProtocol protocol;
    private final BatchLog log;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    private final String workerId;
    private final List<Runnable> onAnswersReady = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final IntSupplier quotaShare;
    private final Duration quotaWindow;

    private final Map<String, Queued> queue = new LinkedHashMap<>();
    /** The queue's {@link BatchRecord#requestBytes}, summed. */
    private long queuedBytes;
    /** Set on the lane's scheduler before {@link #started}: reading the log's limit may ask the broker. */
    private RecordBudget budget;
    private final Map<String, Open> inBatch = new HashMap<>();
    private final Map<String, Open> open = new LinkedHashMap<>();
    private final Map<String, Route> ready = new HashMap<>();
    /**
     * Requests auto sent realtime whose call has not ended for good: those waiting for the quota or a retry count too,
     * or the backlog would be only the calls in flight (a handful) and auto would send everything realtime.
     */
    private final java.util.Set<String> realtime = new java.util.HashSet<>();
    /** Requests auto bound to the batch lane that are not queued yet (bound at intake, or given no answer by a batch). */
    private final Set<String> batchBound = new HashSet<>();
    private boolean started;
    private boolean closed;
    private ScheduledFuture<?> ticking;

    /** @param bytes what the request adds to its batch's record ({@link BatchRecord#requestBytes}) */
    private record Queued(ProviderCall call, Instant since, String customId, int bytes) {
    }

    /** A batch not recorded ENDED yet. */
    private static final class Open {
        BatchRecord record;
        boolean busy;
        Instant resultsRead;
        final Set<String> untaken = new HashSet<>();

        Open(BatchRecord record) {
            this.record = record;
        }

        String shown() {
            return record.providerId() != null ? record.providerId() : record.localId() + " (being created)";
        }
    }

    /**
     * @param timer      where everything but {@link #route} runs: submitting, polling, the log
     * @param quotaShare requests per {@code quotaWindow} this worker's realtime share may send (auto)
     */
    public BatchLane(BatchSettings settings, BatchProtocol protocol, BatchLog log, ScheduledExecutorService timer, Clock clock,
                     String workerId, IntSupplier quotaShare, Duration quotaWindow) {
        this.settings = settings;
        this.protocol = protocol;
        this.log = log;
        this.timer = timer;
        this.clock = clock;
        this.workerId = workerId;
        this.quotaShare = quotaShare;
        this.quotaWindow = quotaWindow;
    }

    /** Reads the batches topic to its end, then ticks every poll interval. */
    public void start() {
        timer.execute(() -> {
            try {
                recover();
            } catch (RuntimeException e) {
                LOG.error("the batch lane cannot read its batches; retrying", e);
                timer.schedule(this::start, settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
                return;
            }
            long every = settings.pollInterval().toMillis();
            synchronized (this) {
                ticking = timer.scheduleWithFixedDelay(this::tick, 0, every, TimeUnit.MILLISECONDS);
            }
        });
    }

    private void recover() {
        RecordBudget b = new RecordBudget(log.maxRecordBytes(), workerId, protocol.protocol().id());
        synchronized (this) {
            budget = b;
        }
        int batches = 0;
        for (BatchRecord r : log.load()) {
            if (r.state() == BatchRecord.State.ENDED || !protocol.protocol().id().equals(r.protocol())) {
                continue;
            }
            Open o = new Open(r);
            synchronized (this) {
                open.put(r.localId(), o);
                r.requests().values().forEach(key -> inBatch.put(key, o));
            }
            batches++;
        }
        synchronized (this) {
            started = true;
        }
        LOG.info("batch lane: {} open batch(es) taken over from the batches topic", batches);
    }

    @Override
    public synchronized Route route(String requestKey, ProviderCall call) {
        if (!started || closed) {
            return new Waiting(closed ? "the batch lane is stopping" : STARTING, settings.pollInterval());
        }
        Route answer = ready.remove(requestKey);
        if (answer != null) {
            Open o = inBatch.remove(requestKey);
            if (o != null) {
                o.untaken.remove(requestKey);
                if (o.untaken.isEmpty()) {
                    timer.execute(() -> end(o, "every answer taken"));
                }
            }
            if (settings.lane() == LaneMode.AUTO && triedAgain(answer)) {
                batchBound.add(requestKey); // a batched request stays batched when its batch gave it no answer
            }
            return answer;
        }
        Open o = inBatch.get(requestKey);
        if (o != null) {
            return new Waiting("in batch " + o.shown(), settings.pollInterval());
        }
        if (realtime.contains(requestKey)) {
            return Route.REALTIME;
        }
        if (!queue.containsKey(requestKey)) {
            boolean bound = batchBound.remove(requestKey);
            if (!bound && settings.lane() == LaneMode.AUTO && roomForRealtime()) {
                realtime.add(requestKey);
                return Route.REALTIME;
            }
            String customId = CustomIds.of(requestKey);
            int bytes = BatchRecord.requestBytes(customId, requestKey);
            if (bytes > budget.forRequests()) {
                // no batch can hold it: failing now beats a retry on every tick, forever
                return new Failure(new ProviderException(ProviderException.Kind.REJECTED, budget.tooLarge(bytes)));
            }
            queue.put(requestKey, new Queued(call, clock.instant(), customId, bytes));
            queuedBytes += bytes;
            if (queue.size() >= settings.maxRequests() || queuedBytes >= budget.forRequests()) {
                timer.execute(this::submitDue);
            }
        }
        return new Waiting("waiting for a batch (one goes at " + settings.maxRequests() + " requests or after "
                + settings.maxWait() + ")", settings.maxWait().plus(settings.pollInterval()));
    }

    @Override
    public synchronized void realtimeDone(String requestKey) {
        realtime.remove(requestKey);
    }

    private boolean roomForRealtime() {
        return LaneChooser.realtime(realtime.size(), quotaShare.getAsInt(), quotaWindow, settings.latencyTarget());
    }

    /** A batch's answer after which the request is tried again (no answer, or an error that is not final). */
    private static boolean triedAgain(Route answer) {
        return answer instanceof Again || answer instanceof Failure f && !f.error().kind().answered();
    }

    @Override
    public boolean bindsAtIntake() {
        return settings.lane() == LaneMode.AUTO;
    }

    /**
     * Auto's decision at intake. Undecided while the lane reads its batches: a key in an open batch must stay there,
     * never be called realtime too. In {@code realtime} and {@code batch} every key has its mode's lane.
     */
    @Override
    public synchronized Bound bind(String requestKey) {
        if (!started || closed) {
            return Bound.UNDECIDED;
        }
        if (inBatch.containsKey(requestKey) || ready.containsKey(requestKey) || queue.containsKey(requestKey)
                || batchBound.contains(requestKey)) {
            return Bound.BATCH;
        }
        if (realtime.contains(requestKey)) {
            return Bound.REALTIME;
        }
        if (settings.lane() != LaneMode.AUTO) {
            return settings.lane() == LaneMode.BATCH ? Bound.BATCH : Bound.REALTIME;
        }
        if (roomForRealtime()) {
            realtime.add(requestKey);
            return Bound.REALTIME;
        }
        batchBound.add(requestKey);
        return Bound.BATCH;
    }

    @Override
    public synchronized void release(String requestKey) {
        realtime.remove(requestKey);
        batchBound.remove(requestKey);
    }

    /** Keys auto counts as realtime backlog now (for tests and metrics). */
    public synchronized int realtimeBacklog() {
        return realtime.size();
    }

    /** Requests waiting to be batched (for tests and metrics). */
    public synchronized int queued() {
        return queue.size();
    }

    /** Batches not recorded ENDED yet. */
    public synchronized int openBatches() {
        return open.size();
    }

    private void tick() {
        try {
            submitDue();
            List<Open> batches;
            synchronized (this) {
                batches = new ArrayList<>(open.values());
            }
            for (Open o : batches) {
                advance(o);
            }
        } catch (RuntimeException e) {
            LOG.warn("batch lane tick failed; next tick in {}", settings.pollInterval(), e);
        }
    }

    /** Submits batches of the queue's oldest requests while one is due (see {@link #submitOne}). */
    private void submitDue() {
        while (submitOne()) {
            // a burst (or a lowered record limit) may leave several batches due at once
        }
    }

    /**
     * Submits the queue's oldest requests as a batch when enough wait (by count or by their record's bytes) or the
     * oldest has waited long enough.
     *
     * @return whether a batch went and another may be due
     */
    private boolean submitOne() {
        Open o;
        List<BatchLine> lines = new ArrayList<>();
        boolean failed = false;
        synchronized (this) {
            if (queue.isEmpty()) {
                return false;
            }
            Instant oldest = queue.values().iterator().next().since();
            long room = budget.forRequests();
            if (queue.size() < settings.maxRequests() && queuedBytes < room
                    && clock.instant().isBefore(oldest.plus(settings.maxWait()))) {
                return false;
            }
            int n = Math.min(settings.maxRequests(), protocol.maxRequests());
            Map<String, String> requests = new LinkedHashMap<>();
            long used = 0;
            for (Iterator<Map.Entry<String, Queued>> it = queue.entrySet().iterator(); it.hasNext() && lines.size() < n; ) {
                Map.Entry<String, Queued> e = it.next();
                Queued q = e.getValue();
                if (used + q.bytes() > room && !lines.isEmpty()) {
                    break; // the record is full: the rest go in the next batch
                }
                it.remove();
                queuedBytes -= q.bytes();
                if (q.bytes() > room) {
                    // queued before the budget was cut: it fits in no batch now
                    ready.put(e.getKey(), new Failure(new ProviderException(ProviderException.Kind.REJECTED, budget.tooLarge(q.bytes()))));
                    failed = true;
                    continue;
                }
                try {
                    lines.add(protocol.line(q.customId(), q.call()));
                    requests.put(q.customId(), e.getKey());
                    used += q.bytes();
                } catch (IOException | RuntimeException bad) {
                    ready.put(e.getKey(), new Failure(new ProviderException(ProviderException.Kind.REJECTED,
                            "cannot encode the batch line: " + bad.getMessage())));
                    failed = true;
                }
            }
            if (lines.isEmpty()) {
                o = null;
            } else {
                o = new Open(new BatchRecord(workerId + "-" + UUID.randomUUID(), BatchRecord.State.SUBMITTING, null,
                        protocol.protocol().id(), clock.instant(), requests, ""));
                o.busy = true;
                open.put(o.record.localId(), o);
                Open batch = o;
                requests.values().forEach(key -> inBatch.put(key, batch));
            }
        }
        if (failed) {
            onAnswersReady.forEach(Runnable::run);
        }
        if (o == null) {
            return false;
        }
        try {
            log.append(o.record); // durable before the create call: a crash after it finds the batch instead of creating another
        } catch (BatchLog.TooLarge e) {
            long limit = budget.refused(e.bytes());
            LOG.error("batch {} was refused by the batches log as too large ({} bytes; its limit was lowered since it was read):"
                    + " batch records are cut to {} bytes from now on, and its {} requests go back to the queue",
                    o.record.localId(), e.bytes(), limit, o.record.requests().size());
            giveBack(o, "the batch record (" + e.bytes() + " bytes) was too large for the batches topic", false);
            return false;
        } catch (RuntimeException e) {
            LOG.error("cannot record batch {} before creating it; its requests go back to the queue", o.record.localId(), e);
            giveBack(o, "the batch could not be recorded (" + e.getMessage() + ")", true);
            return false;
        }
        protocol.create(o.record.localId(), lines).whenCompleteAsync((id, error) -> {
            if (error == null) {
                recordSubmitted(o, id);
                return;
            }
            ProviderException e = error.getCause() instanceof ProviderException p ? p : null;
            boolean unknown = e == null || e.kind() == ProviderException.Kind.TIMEOUT || e.kind() == ProviderException.Kind.TRANSPORT
                    || e.kind() == ProviderException.Kind.MALFORMED;
            if (unknown) {
                // the provider may have created it: the next tick looks it up by its local id before anything else
                LOG.warn("creating batch {} had no clear answer ({}); looking it up", o.record.localId(), String.valueOf(error));
                synchronized (this) {
                    o.busy = false;
                }
                return;
            }
            // a clear refusal (429, 5xx, 4xx): nothing was created; the requests go back, counted as a retry
            giveBack(o, "creating the batch failed (" + e.getMessage() + ")", true);
        }, timer);
        return true;
    }

    private void recordSubmitted(Open o, String providerId) {
        BatchRecord r = o.record.submitted(providerId);
        try {
            log.append(r);
        } catch (RuntimeException e) {
            LOG.error("batch {} was created as {} but cannot be recorded; it is polled meanwhile", o.record.localId(), providerId, e);
        }
        synchronized (this) {
            o.record = r;
            o.busy = false;
        }
        LOG.info("batch {} submitted as {} with {} requests", r.localId(), providerId, r.requests().size());
    }

    /** Polls a batch (or finds one whose create call had no answer), and reads its results once it has ended. */
    private void advance(Open o) {
        synchronized (this) {
            if (o.busy) {
                return;
            }
            if (o.resultsRead != null) {
                if (clock.instant().isAfter(o.resultsRead.plus(RESULTS_KEPT))) {
                    timer.execute(() -> end(o, "answers kept " + RESULTS_KEPT + "; the rest were judged elsewhere"));
                }
                return;
            }
            o.busy = true;
        }
        if (o.record.providerId() == null) {
            protocol.find(o.record.local()).whenCompleteAsync((found, error) -> {
                if (error != null) {
                    release(o);
                    LOG.warn("cannot look up batch {} yet: {}", o.record.localId(), error.toString());
                } else if (found.isPresent()) {
                    recordSubmitted(o, found.get().providerId());
                } else {
                    // never created: its requests are submitted again when they are next asked for
                    end(o, "not found at the provider; never created");
                }
            }, timer);
            return;
        }
        protocol.poll(o.record.providerId()).thenCompose(status -> {
            if (!status.state().terminal()) {
                return java.util.concurrent.CompletableFuture.completedFuture(false);
            }
            Map<String, Route> answers = new HashMap<>();
            return protocol.results(status, outcome -> {
                String key = o.record.requests().get(outcome.customId());
                if (key != null) {
                    answers.put(key, route(outcome));
                }
            }).thenApply(v -> {
                publish(o, status, answers);
                return true;
            });
        }).whenCompleteAsync((ended, error) -> {
            if (error != null) {
                LOG.warn("polling batch {} failed: {}", o.record.providerId(), error.toString());
            }
            release(o);
        }, timer);
    }

    private static Route route(BatchOutcome outcome) {
        if (outcome instanceof BatchOutcome.Answered a) {
            return new Answer(a.reply());
        }
        if (outcome instanceof BatchOutcome.Failed f) {
            return new Failure(f.error());
        }
        BatchOutcome.Unanswered u = (BatchOutcome.Unanswered) outcome;
        return new Again("the batch gave no answer (" + u.why().name().toLowerCase(java.util.Locale.ROOT)
                + (u.detail().isEmpty() ? "" : ": " + u.detail()) + ")");
    }

    /** The results of an ended batch become answers; a request the results do not mention goes back to the queue. */
    private void publish(Open o, BatchStatus status, Map<String, Route> answers) {
        synchronized (this) {
            for (String key : o.record.requests().values()) {
                Route r = answers.getOrDefault(key, new Again("the batch " + o.record.providerId() + " ended " + status.detail()
                        + " without an answer for it"));
                ready.put(key, r);
                o.untaken.add(key);
            }
            o.resultsRead = clock.instant();
        }
        LOG.info("batch {} ended {}: {} answers read", o.record.providerId(), status.detail(), answers.size());
        onAnswersReady.forEach(Runnable::run);
    }

    @Override
    public void onAnswersReady(Runnable wake) {
        onAnswersReady.add(wake);
    }

    private synchronized void release(Open o) {
        o.busy = false;
    }

    /**
     * The requests of a batch that was not created go back, each counted as a retry on its next try.
     *
     * @param recorded whether its SUBMITTING record may be in the log (then it is recorded ENDED)
     */
    private void giveBack(Open o, String why, boolean recorded) {
        if (recorded) {
            LOG.warn("batch {}: {}; its {} requests go back to the queue", o.record.localId(), why, o.record.requests().size());
        }
        synchronized (this) {
            for (String key : o.record.requests().values()) {
                ready.put(key, new Again(why));
            }
            o.busy = false;
        }
        if (recorded) {
            end(o, why);
        } else {
            forget(o);
        }
        onAnswersReady.forEach(Runnable::run);
    }

    private void end(Open o, String why) {
        if (!forget(o)) {
            return;
        }
        try {
            log.append(o.record.ended(why));
        } catch (RuntimeException e) {
            LOG.warn("cannot record batch {} as ended ({}); it is read again after a restart", o.record.localId(), e.toString());
        }
    }

    /** Drops a batch from memory (its untaken answers with it); false if it was gone already. */
    private boolean forget(Open o) {
        synchronized (this) {
            if (open.remove(o.record.localId()) == null) {
                return false;
            }
            for (String key : o.record.requests().values()) {
                if (inBatch.get(key) == o) {
                    inBatch.remove(key);
                }
                if (o.untaken.contains(key)) {
                    ready.remove(key);
                }
            }
        }
        return true;
    }

    /** Stops submitting and polling (its scheduler is its owner's); what is open stays in the log for the next worker. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (ticking != null) {
                ticking.cancel(false);
            }
        }
        log.close();
    }
}
