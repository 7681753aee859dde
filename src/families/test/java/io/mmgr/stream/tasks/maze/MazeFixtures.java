package io.mmgr.stream.tasks.maze;

import java.util.Optional;
import java.util.Random;

/** Deterministic problems and scenarios for the tests: one maze per band/fault that can host the fault. */
final class MazeFixtures {

    private MazeFixtures() {
    }

    /** A problem of the band (sizes, algorithms and placements vary with the seed) able to host the fault. */
    static Scenario scenario(MazeBand band, Fault fault, long seed) {
        return scenario(band, fault, seed, sc -> true);
    }

    static Scenario scenario(MazeBand band, Fault fault, long seed, java.util.function.Predicate<Scenario> accept) {
        Random random = new Random(seed * 31 + fault.ordinal() * 1009L + band.ordinal() * 7919L);
        for (int attempt = 0; attempt < 500; attempt++) {
            int rows = band.minSize() + random.nextInt(band.maxSize() - band.minSize() + 1);
            int cols = band.minSize() + random.nextInt(band.maxSize() - band.minSize() + 1);
            MazeAlgorithm algo = MazeAlgorithm.values()[random.nextInt(2)];
            Placement placement = Placement.values()[random.nextInt(Placement.values().length)];
            MazeProblem p = MazeProblem.generate(rows, cols, algo, placement, random);
            if (p.solution().size() < 4) {
                continue;
            }
            Optional<Scenario> sc = Scenario.of(fault, p, random);
            if (sc.isPresent() && accept.test(sc.get())) {
                return sc.get();
            }
        }
        throw new IllegalStateException("no " + band + " maze could host " + fault);
    }
}
