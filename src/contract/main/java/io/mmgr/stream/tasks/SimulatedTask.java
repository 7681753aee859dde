package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationInputs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * A simulated model for one task family, for the demo and for tests: generates a small benchmark
 * with known ground truth, and answers its items the way a model at a given skill would, with real
 * outputs (images, videos, trajectories) carrying real faults. Its {@link TaskFamily} lists it
 * ({@link TaskFamily#simulations()}).
 */
public interface SimulatedTask {

    /** Family name, e.g. {@code maze}, {@code magma}; the demo's {@code --tasks} selects by it. */
    String family();

    /**
     * Writes the benchmark's files under {@code dir} and returns its items (of one or more tasks).
     *
     * @param items items per task
     */
    List<BenchmarkItem> benchmark(int items, long seed, Path dir) throws IOException;

    /**
     * One output for an item. {@code skill} in [0, 1] rises with the training step: the chance that
     * an answer is right (or, for graded answers, how good it is). Files go under {@code dir}.
     */
    Answer answer(BenchmarkItem item, int seed, double skill, Random random, Path dir) throws IOException;

    /**
     * A simulated output.
     *
     * @param modality  the generation event's modality
     * @param artifacts output files (claim-check references with digests)
     * @param inputs    inline inputs (UI actions, trials), or null
     * @param fault     what was wrong on purpose ({@code none} for a correct answer), for people reading the demo
     */
    record Answer(String modality, List<ArtifactRef> artifacts, GenerationInputs inputs, String fault) {
    }
}
