package io.mmgr.stream.tasks.arc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The real ARC-AGI tasks under src/families/test/resources/arc-agi, sorted by id. */
final class ArcFixtures {

    private static List<ArcTask> tasks;

    private ArcFixtures() {
    }

    static Path root() {
        try {
            return Path.of(ArcFixtures.class.getResource("/arc-agi").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static synchronized List<ArcTask> tasks() {
        if (tasks == null) {
            List<ArcTask> out = new ArrayList<>();
            for (String split : List.of("training", "evaluation")) {
                try (Stream<Path> files = Files.list(root().resolve(split))) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                        out.add(ArcTask.read(f));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            tasks = List.copyOf(out);
        }
        return tasks;
    }

    /** Every test pair of every task, as (task, index). */
    static List<Object[]> testPairs() {
        List<Object[]> out = new ArrayList<>();
        for (ArcTask t : tasks()) {
            for (int i = 0; i < t.test().size(); i++) {
                out.add(new Object[] {t, i});
            }
        }
        return out;
    }
}
