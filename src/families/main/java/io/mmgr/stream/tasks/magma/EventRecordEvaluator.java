package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A Magma evaluator: it scores what the event and the item carry (actions, clicks, text, trial counts) and
 * reads no artifact, so every one is {@link CostClass#LIGHT} and runs at intake.
 */
abstract class EventRecordEvaluator implements DeterministicEvaluator {

    private final String id;
    private final String version;

    EventRecordEvaluator(String id, String version) {
        this.id = id;
        this.version = version;
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String version() {
        return version;
    }

    @Override
    public final CostClass costClass(GenerationEvent event, BenchmarkItem item) {
        return CostClass.LIGHT;
    }

    /** The indices of the steps that fail {@code ok}, comma-separated, for an episode's diagnostics. */
    static <T> String failedIndices(List<T> steps, Predicate<T> ok) {
        return IntStream.range(0, steps.size()).filter(i -> !ok.test(steps.get(i)))
                .mapToObj(Integer::toString).collect(Collectors.joining(","));
    }
}
