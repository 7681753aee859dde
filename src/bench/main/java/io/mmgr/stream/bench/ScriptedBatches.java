package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The provider-neutral side of the scripted batch APIs (Gemini's in {@link GeminiBatchApi}, Anthropic's in
 * {@link AnthropicBatchApi}): the batches created, how they end, and what each entry gets. An entry is answered by
 * the same script as the realtime call ({@link ScriptedVlmServer#answerLine}), so a batch entry gets the answer
 * the realtime call would. A batch ends at its {@link #pollsToEnd}-th status read (and no sooner than {@link #runFor}
 * after its creation, nor while a {@link #hold} keeps it in progress); its results come in an order other
 * than the input's. Faults a test can ask for: 429s on creation, a batch the provider cancels, fails or lets expire,
 * entries that expire or error. Every submission and every billed answer is counted per entry key, so a test can
 * assert that nothing was submitted or billed twice.
 */
public final class ScriptedBatches implements ScriptedBatchApi {

    /** What becomes of one entry when its batch is processed. */
    public enum Fate {
        /** Answered as the realtime call would be (an answer, a refusal, or an error). */
        ANSWER,
        /** Not processed within the batch's window (Anthropic's {@code expired} result). */
        EXPIRED,
        /** Failed at the provider (an errored result with a server error). */
        ERRORED
    }

    /** How a whole batch ends. */
    public enum End { SUCCEEDED, CANCELLED, FAILED, EXPIRED }

    /**
     * One request in a batch.
     *
     * @param key     the entry's key as sent (Anthropic's {@code custom_id}, Gemini's {@code metadata.key})
     * @param request the request body the realtime call would send
     */
    public record Entry(JudgeProtocol protocol, String key, String model, JsonNode request) {
    }

    /** What an entry got: an answer or an error (the reply), or nothing because it expired or was cancelled. */
    public record Outcome(Entry entry, Fate fate, boolean canceled, ProviderAnswers.Reply reply) {
        boolean answered() {
            return reply != null && reply.status() == 200;
        }
    }

    /** A batch as the provider holds it. */
    public static final class Batch {
        public final String id;
        public final JudgeProtocol protocol;
        public final String model;
        public final String displayName;
        public final String authorization;
        public final List<Entry> entries;
        public final Instant created = Instant.now();
        volatile End end;
        volatile Instant ended;
        volatile boolean cancelRequested;
        volatile Instant cancelRequestedAt;
        volatile List<Outcome> outcomes = List.of();
        final End scriptedEnd;
        final boolean asFile;
        int reads;

        Batch(String id, JudgeProtocol protocol, String model, String displayName, String authorization, List<Entry> entries,
              End scriptedEnd, boolean asFile) {
            this.id = id;
            this.protocol = protocol;
            this.model = model;
            this.displayName = displayName;
            this.authorization = authorization;
            this.entries = List.copyOf(entries);
            this.scriptedEnd = scriptedEnd;
            this.asFile = asFile;
        }

        /** How it ended, or null while in progress. */
        public End end() {
            return end;
        }

        public List<Outcome> outcomes() {
            return outcomes;
        }

        /** Whether the results were (or will be) given as a file rather than inline (Gemini, file input). */
        public boolean asFile() {
            return asFile;
        }
    }

    private final ScriptedVlmServer server;
    private final Map<String, Batch> batches = Collections.synchronizedMap(new java.util.LinkedHashMap<>());
    private final Map<String, AtomicInteger> submitted = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> billed = new ConcurrentHashMap<>();
    private final AtomicInteger creations = new AtomicInteger();
    private final AtomicInteger sequence = new AtomicInteger();
    private volatile Function<Entry, Fate> fate = e -> Fate.ANSWER;
    private volatile int pollsToEnd = 2;
    private volatile Duration runFor = Duration.ZERO;
    private volatile boolean held;
    private final AtomicInteger rejections = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile Duration rejectionWait = Duration.ofSeconds(1);
    private final java.util.Deque<End> nextEnds = new java.util.concurrent.ConcurrentLinkedDeque<>();

    ScriptedBatches(ScriptedVlmServer server) {
        this.server = server;
    }

    /** What becomes of each entry (default: answered as the realtime call would be). */
    public ScriptedBatches fate(Function<Entry, Fate> f) {
        this.fate = f;
        return this;
    }

    /** A batch ends at its {@code n}-th status read (1: the first poll sees it ended); default 2. */
    public ScriptedBatches pollsToEnd(int n) {
        this.pollsToEnd = n;
        return this;
    }

    /** A batch ends no sooner than {@code d} after its creation (and at its {@link #pollsToEnd}-th read at the earliest). */
    public ScriptedBatches runFor(Duration d) {
        this.runFor = d;
        return this;
    }

    /** The next {@code n} batch creations are refused with the protocol's 429, announcing {@code wait}. */
    public ScriptedBatches rejectCreations(int n, Duration wait) {
        this.rejectionWait = wait;
        rejections.set(n);
        return this;
    }

    /**
     * The next batch created ends this way at its end: CANCELLED (by the provider, after half its entries were
     * processed), FAILED or EXPIRED (no entry processed); SUCCEEDED is the usual end.
     */
    public ScriptedBatches endNext(End end) {
        nextEnds.add(end);
        return this;
    }

    /** How often the entry with this key was submitted in a batch the provider accepted. */
    public int submitted(String key) {
        AtomicInteger n = submitted.get(key);
        return n == null ? 0 : n.get();
    }

    /** How often the entry with this key was answered, and so billed. */
    public int billed(String key) {
        AtomicInteger n = billed.get(key);
        return n == null ? 0 : n.get();
    }

    @Override
    public Map<String, Integer> submitted() {
        return counts(submitted);
    }

    @Override
    public Map<String, Integer> billed() {
        return counts(billed);
    }

    private static Map<String, Integer> counts(Map<String, AtomicInteger> m) {
        Map<String, Integer> out = new java.util.TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    @Override
    public int batchesCreated() {
        return batches.size();
    }

    @Override
    public List<String> batchIds() {
        synchronized (batches) {
            return List.copyOf(batches.keySet());
        }
    }

    @Override
    public void refuseCreations(int n) {
        rejectCreations(n, Duration.ofSeconds(1));
    }

    @Override
    public int refusedCreations() {
        return refused.get();
    }

    @Override
    public void hold(boolean held) {
        this.held = held;
    }

    /** Batch creations that arrived, accepted or refused. */
    public int creationAttempts() {
        return creations.get();
    }

    public List<Batch> batches() {
        synchronized (batches) {
            return List.copyOf(batches.values());
        }
    }

    Batch batch(String id) {
        return batches.get(id);
    }

    /** Counts a creation; the 429 to answer when one is scripted, else null. */
    ProviderAnswers.Reply admitCreation(JudgeProtocol protocol, String model) {
        creations.incrementAndGet();
        if (rejections.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            refused.incrementAndGet();
            return ProviderAnswers.rateLimited(protocol, model, 60, rejectionWait, true);
        }
        return null;
    }

    /** An id of the provider's form: {@code prefix} and a number no other batch of this server has. */
    String nextId(String prefix) {
        return prefix + String.format("%06d", sequence.incrementAndGet());
    }

    Batch create(String id, JudgeProtocol protocol, String model, String displayName, String authorization, List<Entry> entries,
                 boolean asFile) {
        End end = nextEnds.poll();
        Batch b = new Batch(id, protocol, model, displayName, authorization, entries, end == null ? End.SUCCEEDED : end, asFile);
        for (Entry e : entries) {
            submitted.computeIfAbsent(e.key(), k -> new AtomicInteger()).incrementAndGet();
        }
        batches.put(id, b);
        return b;
    }

    /** A status read: the batch ends (its entries processed) at the scripted read, unless held; a cancel ends it even then. */
    void read(Batch b) {
        synchronized (b) {
            b.reads++;
            boolean due = !held && b.reads >= pollsToEnd && !Instant.now().isBefore(b.created.plus(runFor));
            if (b.end == null && (due || b.cancelRequested)) {
                finish(b, b.cancelRequested ? End.CANCELLED : b.scriptedEnd);
            }
        }
    }

    /** The client asks to cancel: entries not processed yet are cancelled at the next read. */
    void cancel(Batch b) {
        synchronized (b) {
            if (b.end == null && !b.cancelRequested) {
                b.cancelRequested = true;
                b.cancelRequestedAt = Instant.now();
            }
        }
    }

    private ProviderAnswers.Reply answer(Entry e) {
        try {
            return server.answerLine(e.protocol(), e.model(), e.request());
        } catch (java.io.IOException x) {
            throw new java.io.UncheckedIOException(x);
        }
    }

    private void finish(Batch b, End end) {
        int processed = switch (end) {
            case SUCCEEDED -> b.entries.size();
            // Anthropic: a cancel stops a batch midway, what was done is kept (and billed) and the rest is canceled;
            // Gemini gives a cancelled batch no output, so nothing of it is billed here
            case CANCELLED -> b.protocol == JudgeProtocol.ANTHROPIC ? b.entries.size() / 2 : 0;
            case FAILED, EXPIRED -> 0;
        };
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < b.entries.size(); i++) {
            Entry e = b.entries.get(i);
            if (i >= processed) {
                out.add(switch (end) {
                    case EXPIRED -> new Outcome(e, Fate.EXPIRED, false, null);
                    case FAILED -> new Outcome(e, Fate.ERRORED, false, ProviderAnswers.serverError(e.protocol()));
                    default -> new Outcome(e, Fate.ANSWER, true, null);
                });
                continue;
            }
            Fate f = fate.apply(e);
            ProviderAnswers.Reply reply = switch (f) {
                case ANSWER -> answer(e);
                case ERRORED -> ProviderAnswers.serverError(e.protocol());
                case EXPIRED -> null;
            };
            Outcome o = new Outcome(e, f, false, reply);
            if (o.answered()) {
                billed.computeIfAbsent(e.key(), k -> new AtomicInteger()).incrementAndGet();
            }
            out.add(o);
        }
        // providers write results as they finish them, not in the input's order
        Collections.shuffle(out, new Random(b.id.hashCode()));
        b.outcomes = List.copyOf(out);
        if (end == End.CANCELLED && b.cancelRequestedAt == null) {
            b.cancelRequestedAt = Instant.now(); // cancelled on the provider's side (its console, another key)
        }
        b.end = end;
        b.ended = Instant.now();
    }
}
