package io.mmgr.stream.tasks;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The deterministic evaluators on the class path, by id. Evaluators may hold per-thread engines
 * (OCR, decoders); {@link #newInstance(String)} gives each stream thread its own.
 */
public final class EvaluatorRegistry {

    private final Map<String, Supplier<DeterministicEvaluator>> factories;

    public EvaluatorRegistry(Map<String, Supplier<DeterministicEvaluator>> factories) {
        this.factories = new TreeMap<>(factories);
    }

    public static EvaluatorRegistry load() {
        Map<String, Supplier<DeterministicEvaluator>> found = new TreeMap<>();
        for (ServiceLoader.Provider<DeterministicEvaluator> provider
                : ServiceLoader.load(DeterministicEvaluator.class).stream().toList()) {
            DeterministicEvaluator probe = provider.get();
            if (found.put(probe.id(), provider::get) != null) {
                throw new IllegalStateException("evaluator '" + probe.id() + "' is defined twice");
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

    public Collection<String> ids() {
        return factories.keySet();
    }
}
