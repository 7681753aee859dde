package io.mmgr.stream.topology.frechet;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.frechet.FrechetReference;
import io.mmgr.stream.frechet.ReferenceStatistics;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.contract.DeadLetters;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the FID processors of one scorer share: the prepared references (immutable, so every stream thread
 * can read one; decomposed once per scorer, not once per partition) and one heap budget for the running
 * statistics, which each processor keeps by dropping its own least recently used rows.
 */
final class FrechetMemory {

    /** A reference that failed to load is not read again for this long. */
    static final long FAILURE_RETRY_MILLIS = 60_000;

    private final ArtifactResolver artifacts;
    private final FrechetSettings settings;
    private final Map<String, FrechetReference> references = new LinkedHashMap<>(8, 0.75f, true);
    private final Map<String, Failure> failures = new LinkedHashMap<>();
    private final AtomicLong statisticsBytes = new AtomicLong();

    private record Failure(String reason, long at) {
    }

    FrechetMemory(ArtifactResolver artifacts, FrechetSettings settings) {
        this.artifacts = artifacts;
        this.settings = settings;
    }

    FrechetSettings settings() {
        return settings;
    }

    static String referenceId(ArtifactRef ref) {
        return ref.getSha256() != null ? ref.getSha256().toLowerCase(Locale.ROOT) : ref.getUri();
    }

    /** The prepared reference, read (digest checked) and decomposed on first use. */
    synchronized FrechetReference reference(ArtifactRef ref) throws EvaluationException {
        String id = referenceId(ref);
        FrechetReference cached = references.get(id);
        if (cached != null) {
            return cached;
        }
        long now = System.currentTimeMillis();
        Failure failed = failures.get(id);
        if (failed != null && now - failed.at() < FAILURE_RETRY_MILLIS) {
            throw new EvaluationException(failed.reason());
        }
        try {
            FrechetReference prepared = ReferenceStatistics.read(artifacts.read(ref), settings.maxDims()).prepare();
            failures.remove(id);
            references.put(id, prepared);
            if (references.size() > settings.maxReferences()) {
                Iterator<String> eldest = references.keySet().iterator();
                eldest.next();
                eldest.remove();
            }
            return prepared;
        } catch (EvaluationException | IllegalArgumentException e) {
            String reason = "the reference statistics " + ref.getUri() + " cannot be used: " + DeadLetters.describe(e);
            failures.put(id, new Failure(reason, now));
            if (failures.size() > 64) {
                failures.remove(failures.keySet().iterator().next());
            }
            throw new EvaluationException(reason, e);
        }
    }

    void reserve(long bytes) {
        statisticsBytes.addAndGet(bytes);
    }

    void release(long bytes) {
        statisticsBytes.addAndGet(-bytes);
    }

    boolean overBudget() {
        return statisticsBytes.get() > settings.cacheBytes();
    }
}
