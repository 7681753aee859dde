package io.mmgr.stream.judge;

import io.mmgr.stream.avro.JudgeVerdict;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Final verdicts by cache key (judge model, rubric version, the prompt's text and the digests of its
 * artifacts), so a replayed or duplicated request never calls the judge again. In memory, bounded
 * (least recently used out); the worker fills it from the compacted cache topic at start and keeps
 * following that topic, which is how several instances and restarts share it. Requests for the same
 * key that arrive while a call is under way wait for that call instead of making their own.
 */
public final class VerdictCache {

    private final Map<String, JudgeVerdict> entries;
    private final ConcurrentHashMap<String, CompletableFuture<JudgeEngine.Outcome>> inFlight = new ConcurrentHashMap<>();

    public VerdictCache(int maxEntries) {
        this.entries = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, JudgeVerdict> eldest) {
                return size() > maxEntries;
            }
        };
    }

    public synchronized Optional<JudgeVerdict> get(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    public synchronized void put(String key, JudgeVerdict verdict) {
        entries.put(key, verdict);
    }

    public synchronized int size() {
        return entries.size();
    }

    /** Claims the key: empty when this caller should make the call, else the call already under way. */
    CompletableFuture<JudgeEngine.Outcome> claim(String key, CompletableFuture<JudgeEngine.Outcome> mine) {
        return inFlight.putIfAbsent(key, mine);
    }

    void release(String key, CompletableFuture<JudgeEngine.Outcome> mine, JudgeEngine.Outcome outcome) {
        inFlight.remove(key, mine);
        mine.complete(outcome);
    }
}
