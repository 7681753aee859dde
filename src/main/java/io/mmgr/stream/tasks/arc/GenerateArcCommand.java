package io.mmgr.stream.tasks.arc;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr bench generate arc}: puzzle and answer images plus benchmark-items.jsonl from ARC-AGI tasks. */
@Command(name = "arc", mixinStandardHelpOptions = true,
        description = "Render ARC-AGI (v1) tasks as MMGR ARC items: problem and solution canvases, answer grids, "
                + "ground truth and difficulty (grid size, colours, objects).")
public final class GenerateArcCommand implements Callable<Integer> {

    @Option(names = "--data", defaultValue = "../shared/data/arc-agi",
            description = "ARC-AGI checkout (data/training, data/evaluation), a folder of task files or one task "
                    + "(default ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--split", defaultValue = "evaluation", description = "training, evaluation or all (default ${DEFAULT-VALUE}).")
    String split;

    @Option(names = "--out", required = true, description = "Output directory.")
    Path out;

    @Option(names = "--count", defaultValue = "12", description = "Number of tasks (default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed for the task draw (default ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws Exception {
        ArcBenchmarkGenerator.Result r = ArcBenchmarkGenerator.generate(data, split, out, count, seed);
        System.out.println("wrote " + r.items().size() + " ARC items to " + r.itemsFile());
        return 0;
    }
}
