package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.ParkedEvent;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Topic;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.ValueTimestampHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each valid event its benchmark item, from the global store of items. An event whose item is
 * not there yet waits for it, parked in a changelogged store, instead of being dead-lettered at once:
 * items reach that store through their own checks ({@link ItemIntakeProcessor}), a few hundred
 * milliseconds after they are published, and a scorer starting on a backlog reads events and items side
 * by side, so an event published right after its item routinely arrives first.
 *
 * <ul>
 *   <li>A punctuator (wall clock, every {@link #CHECK_EVERY}) releases the events whose item has appeared
 *       and dead-letters those that waited longer than {@link ItemWait#timeout()}. The wait counts only the time
 *       this task was running: a gap between two checks beyond {@link #STALL} (the thread blocked on a commit
 *       while a broker fails over, a long pause) and the time before a restart or a move of the task (the events
 *       restored from the store start their wait again) are not waiting time. The item's own path (its checks,
 *       the topic the global table reads) stalled with it, so after a stall the punctuator would otherwise
 *       dead-letter events whose items are only a poll away. (A three-broker run with a broker killed at load 35
 *       dead-lettered 70 valid samples whose items were held up over 60 s: a stall is one way that happens; the
 *       items' path lagging on another instance is another, which this does not cover.) An item that stays
 *       missing is looked up less often, every {@link #CHECK_EVERY} doubling up to {@link #CHECK_AT_LEAST}
 *       (and always before its events expire): many items that never come then cost an eighth of the
 *       lookups, and a late item still releases its events within {@link #CHECK_AT_LEAST}.</li>
 *   <li>Events of one item leave in arrival order (the store is keyed by the event's offset), and an event
 *       whose item is present first releases the events still waiting for the same item, so an older
 *       generation of a sample never overtakes a newer one.</li>
 *   <li>An event whose item is present and that no earlier event of the same item waits before goes on at
 *       once: one lookup of the item, and one of an in-memory index while anything waits.</li>
 *   <li>Parking, release and expiry write the store and forward in the task's transaction, so after a crash
 *       the store holds exactly the events still waiting at the last commit, and each is released once.</li>
 *   <li>At most {@link ItemWait#maxEvents()} events and {@link ItemWait#maxBytes()} bytes wait per task; a
 *       further event without its item is dead-lettered at once, saying so.</li>
 * </ul>
 *
 * <p>A waiting event is kept as the record that arrived and read again (limits, fields) on release, so
 * the result is what intake would have made of it with its item there.
 */
final class ItemWaitProcessor implements Processor<byte[], IntakeResult, byte[], IntakeResult> {

    /** How often waiting events are checked against the items. */
    static final Duration CHECK_EVERY = Duration.ofMillis(250);
    /** The longest an item that stays missing goes without a lookup. */
    static final Duration CHECK_AT_LEAST = Duration.ofSeconds(2);
    /** The most of one gap between two checks that counts as waiting; the rest is a stall of this task. */
    static final Duration STALL = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(ItemWaitProcessor.class);

    private final Store<String, BenchmarkItem> itemStore;
    private final Store<Long, ParkedEvent> parkedStore;
    private final EventReader reader;
    private final ItemWait limits;
    private final String benchmarkTopic;
    private final String deadLetterTopic;

    private ProcessorContext<byte[], IntakeResult> context;
    private KeyValueStore<String, Object> items;
    private KeyValueStore<Long, ParkedEvent> parked;
    /** The parked store by item key, in arrival order: rebuilt from the store in init, so it never outlives it. */
    private final Map<String, Queue> waiting = new HashMap<>();
    private int count;
    private long bytes;
    /** Wall clock of the last warning that the store is full: at most one a minute. */
    private long warnedFullAt = Long.MIN_VALUE;
    /** Wall clock of the last check, and the stalls since init that do not count as waiting (ms). */
    private long lastCheck = Long.MIN_VALUE;
    private long stalled;

    /**
     * What the index keeps of a parked event: its store key, when it began to wait on the {@link #waitClock}, what it
     * counts for.
     */
    private record Waiting(long offset, long parkedAt, long bytes) {
    }

    /** The events waiting for one item, oldest first, and when to look the item up next. */
    private static final class Queue {
        final ArrayDeque<Waiting> events = new ArrayDeque<>();
        long nextCheck;
        long interval;

        /** Look again at the next tick (a new event for the item: its item may be on its way). */
        void soon() {
            nextCheck = Long.MIN_VALUE;
            interval = CHECK_EVERY.toMillis();
        }

        /** Missing at {@code now}: the next look is twice as far off, up to {@link #CHECK_AT_LEAST}. */
        void missing(long now) {
            nextCheck = now + interval - CHECK_EVERY.toMillis() / 2;
            interval = Math.min(interval * 2, CHECK_AT_LEAST.toMillis());
        }
    }

    /** {@code benchmark} and {@code deadLetter}: named in the reason of an event whose item never came. */
    ItemWaitProcessor(Store<String, BenchmarkItem> itemStore, Store<Long, ParkedEvent> parkedStore, EventReader reader,
                      ItemWait limits, Topic<?, ?> benchmark, Topic<?, ?> deadLetter) {
        this.itemStore = itemStore;
        this.parkedStore = parkedStore;
        this.reader = reader;
        this.limits = limits;
        this.benchmarkTopic = benchmark.name();
        this.deadLetterTopic = deadLetter.name();
    }

    @Override
    public void init(ProcessorContext<byte[], IntakeResult> context) {
        this.context = context;
        // untyped: see item()
        this.items = context.getStateStore(itemStore.name());
        this.parked = parkedStore.in(context);
        waiting.clear();
        count = 0;
        bytes = 0;
        lastCheck = Long.MIN_VALUE;
        stalled = 0;
        // init runs once the store is restored (after a crash too): the index starts from what was committed
        try (KeyValueIterator<Long, ParkedEvent> all = parked.all()) {
            while (all.hasNext()) {
                KeyValue<Long, ParkedEvent> e = all.next();
                index(e.key, e.value, waitClock(context.currentSystemTimeMs()));
            }
        }
        if (count > 0) {
            LOG.info("{} events ({} bytes) wait for their benchmark items in task {}, each its whole wait again", count, bytes,
                    context.taskId());
        }
        context.schedule(CHECK_EVERY, PunctuationType.WALL_CLOCK_TIME, this::check);
    }

    @Override
    public void process(Record<byte[], IntakeResult> record) {
        if (!(record.value() instanceof IntakeResult.Accepted a)) {
            context.forward(record);
            return;
        }
        GenerationEvent e = a.event();
        String itemKey = SampleKeys.itemKey(e.getTask(), e.getSampleId());
        BenchmarkItem item = item(itemKey);
        if (item != null) {
            if (!waiting.isEmpty()) {
                release(itemKey, item);
            }
            context.forward(record.withValue(a.withItem(item)));
        } else {
            park(record, a);
        }
    }

    private void park(Record<byte[], IntakeResult> record, IntakeResult.Accepted a) {
        RawRecord raw = a.raw();
        byte[] keptKey = DeadLetters.recordKey(raw.key());
        long size = raw.value().length + (keptKey == null ? 0 : keptKey.length);
        if (count >= limits.maxEvents() || bytes + size > limits.maxBytes()) {
            long now = context.currentSystemTimeMs();
            if (now - warnedFullAt >= 60_000 || warnedFullAt == Long.MIN_VALUE) {
                warnedFullAt = now;
                LOG.warn("{} events ({} bytes) already wait for their benchmark items in task {}: further events without "
                        + "their item are dead-lettered ({}, {})", count, bytes, context.taskId(), ItemWait.MAX_EVENTS, ItemWait.MAX_BYTES);
            }
            context.forward(record.withValue(EventReader.reject(raw, noItem(a.event().getTask(), a.event().getSampleId(),
                    "yet, and " + count + " events (" + bytes + " bytes) already wait for theirs in this partition, the most "
                            + ItemWait.MAX_EVENTS + " (" + limits.maxEvents() + ") and " + ItemWait.MAX_BYTES + " ("
                            + limits.maxBytes() + ") allow"), null, EventReader.refOf(a.event()))));
            return;
        }
        RecordMetadata source = raw.source().orElseThrow(() -> new IllegalStateException("an event without its source offset"));
        ParkedEvent p = ParkedEvent.newBuilder()
                .setTask(a.event().getTask())
                .setSampleId(a.event().getSampleId())
                .setSampleRef(EventReader.refOf(a.event()))
                .setParkedAt(Instant.ofEpochMilli(context.currentSystemTimeMs()))
                .setTimestamp(record.timestamp())
                .setSourceTopic(source.topic())
                .setSourcePartition(source.partition())
                .setSourceOffset(source.offset())
                .setKey(keptKey == null ? null : ByteBuffer.wrap(keptKey))
                .setKeyBytes(raw.key() == null ? -1 : raw.key().length)
                .setKeySha256(raw.key() != null && keptKey.length < raw.key().length ? DeadLetters.sha256(raw.key()) : null)
                .setValue(ByteBuffer.wrap(raw.value()))
                .build();
        // keyed by offset: a record read again after a crash lands on its own entry
        if (parked.putIfAbsent(source.offset(), p) == null) {
            index(source.offset(), p, waitClock(context.currentSystemTimeMs()));
        }
    }

    /** Releases or expires what waits: the item's events once it is there, each after its wait otherwise. */
    private void check(long now) {
        if (lastCheck != Long.MIN_VALUE) {
            stalled += Math.max(0, now - lastCheck - STALL.toMillis());
        }
        lastCheck = now;
        if (waiting.isEmpty()) {
            return;
        }
        long waitMs = limits.timeout().toMillis();
        long clock = waitClock(now);
        for (String itemKey : new ArrayList<>(waiting.keySet())) {
            Queue queue = waiting.get(itemKey);
            boolean expiring = clock - queue.events.peekFirst().parkedAt() >= waitMs;
            if (now < queue.nextCheck && !expiring) {
                continue;
            }
            BenchmarkItem item = item(itemKey);
            if (item != null) {
                release(itemKey, item);
            } else {
                queue.missing(now);
                expire(itemKey, queue, clock);
            }
        }
    }

    /** Every event waiting for {@code itemKey}, in arrival order, read again and given its item. */
    private void release(String itemKey, BenchmarkItem item) {
        Queue queue = waiting.remove(itemKey);
        if (queue == null) {
            return;
        }
        for (Waiting w : queue.events) {
            ParkedEvent p = take(w);
            RawRecord raw = raw(p);
            IntakeResult result = reader.read(raw);
            if (result instanceof IntakeResult.Accepted a) {
                result = a.withItem(item);
            }
            context.forward(new Record<>(raw.key(), result, p.getTimestamp()));
        }
    }

    /** The wall clock less the stalls: what an event's wait is measured on. */
    private long waitClock(long now) {
        return now - stalled;
    }

    /** Dead-letters the events of {@code itemKey} that waited their time ({@code clock}: {@link #waitClock}), oldest first. */
    private void expire(String itemKey, Queue queue, long clock) {
        long waitMs = limits.timeout().toMillis();
        while (!queue.events.isEmpty() && clock - queue.events.peekFirst().parkedAt() >= waitMs) {
            ParkedEvent p = take(queue.events.pollFirst());
            RawRecord raw = raw(p);
            String waited = waitMs >= 1000 && waitMs % 1000 == 0 ? waitMs / 1000 + " s" : waitMs + " ms";
            context.forward(new Record<>(raw.key(), EventReader.reject(raw, noItem(p.getTask(), p.getSampleId(),
                    "after waiting " + waited + " for it (" + ItemWait.WAIT_MS + ")"), null, p.getSampleRef()), p.getTimestamp()));
        }
        if (queue.events.isEmpty()) {
            waiting.remove(itemKey);
        }
    }

    private String noItem(String task, String sampleId, String when) {
        return "no benchmark item for task '" + task + "', sample '" + sampleId + "' " + when + ": publish it to "
                + benchmarkTopic + " first; an item refused by intake's checks has its own dead letter in " + deadLetterTopic
                + " (stage " + ItemIntakeProcessor.STAGE + ")";
    }

    private void index(long offset, ParkedEvent p, long since) {
        long size = p.getValue().remaining() + (p.getKey() == null ? 0 : p.getKey().remaining());
        Queue queue = waiting.computeIfAbsent(SampleKeys.itemKey(p.getTask(), p.getSampleId()), k -> new Queue());
        queue.events.addLast(new Waiting(offset, since, size));
        queue.soon();
        count++;
        bytes += size;
    }

    /** Removes a parked event from the store and the counts; returns it. */
    private ParkedEvent take(Waiting w) {
        ParkedEvent p = parked.delete(w.offset());
        if (p == null) {
            throw new IllegalStateException("the index of " + parkedStore.name() + " names offset " + w.offset() + ", which it lacks");
        }
        count--;
        bytes -= w.bytes();
        return p;
    }

    private static RawRecord raw(ParkedEvent p) {
        byte[] key = p.getKey() == null ? null : bytes(p.getKey());
        RawRecord.KeyPrint cut = p.getKeySha256() == null ? null : new RawRecord.KeyPrint(p.getKeyBytes(), p.getKeySha256());
        return new RawRecord(key, bytes(p.getValue()),
                Optional.of(new RawRecord.Source(p.getSourceTopic(), p.getSourcePartition(), p.getSourceOffset())), cut);
    }

    private static byte[] bytes(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }

    /** The item in the global store (kept with its timestamp, and headers where the store format has them). */
    private BenchmarkItem item(String key) {
        Object v = items.get(key);
        if (v instanceof ValueAndTimestamp<?> t) {
            return (BenchmarkItem) t.value();
        }
        if (v instanceof ValueTimestampHeaders<?> h) {
            return (BenchmarkItem) h.value();
        }
        return (BenchmarkItem) v;
    }
}
