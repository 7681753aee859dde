package io.mmgr.stream.tasks;

import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The deterministic evaluators of the installed task families, by id. Evaluators may hold per-thread engines
 * (OCR, decoders); {@link #newInstance(String)} gives each stream thread its own.
 */
public final class EvaluatorRegistry {

    private final Map<String, Supplier<DeterministicEvaluator>> factories;
    /** One instance per evaluator for {@link DeterministicEvaluator#costClass}, which keeps no state. */
    private final Map<String, DeterministicEvaluator> probes = new ConcurrentHashMap<>();

    public EvaluatorRegistry(Map<String, Supplier<DeterministicEvaluator>> factories) {
        this.factories = new TreeMap<>(factories);
    }

    public static EvaluatorRegistry load() {
        Map<String, Supplier<DeterministicEvaluator>> found = new TreeMap<>();
        for (TaskFamily family : TaskFamily.installed()) {
            for (Supplier<DeterministicEvaluator> factory : family.evaluators()) {
                DeterministicEvaluator probe = factory.get();
                if (found.put(probe.id(), factory) != null) {
                    throw new IllegalStateException("evaluator '" + probe.id() + "' is defined twice");
                }
            }
        }
        return new EvaluatorRegistry(found);
    }

    public boolean contains(String id) {
        return factories.containsKey(id);
    }

    public Optional<DeterministicEvaluator> newInstance(String id) {
        return Optional.ofNullable(factories.get(id)).map(Supplier::get);
    }

    /**
     * One instance of each evaluator, made on first use and kept, for one thread at a time (evaluators
     * may hold engines): empty for an evaluator not in this build.
     */
    public Function<String, Optional<DeterministicEvaluator>> instances() {
        Map<String, DeterministicEvaluator> made = new java.util.HashMap<>();
        return id -> factories.containsKey(id)
                ? Optional.of(made.computeIfAbsent(id, k -> factories.get(k).get()))
                : Optional.empty();
    }

    /** The cost class the evaluator declares for this event; LIGHT for an evaluator not in this build (nothing runs). */
    public CostClass costClass(String id, GenerationEvent event, BenchmarkItem item) {
        if (!factories.containsKey(id)) {
            return CostClass.LIGHT;
        }
        return probes.computeIfAbsent(id, k -> factories.get(k).get()).costClass(event, item);
    }

    public Collection<String> ids() {
        return factories.keySet();
    }
}
