package io.mmgr.stream.cli;

import io.mmgr.stream.app.JsonlPublisher;
import io.mmgr.stream.tasks.maze.MazeBand;
import io.mmgr.stream.tasks.maze.MazeBenchmarkGenerator;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mmgr bench generate maze}: problem/solution images, lattice JSON and benchmark-items.jsonl. */
@Command(name = "maze", mixinStandardHelpOptions = true,
        description = "Generate MMGR maze problems (DFS and Wilson, 3x3 to 13x13) with known solutions.")
public final class GenerateMazeCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, description = "Output directory.")
    Path out;

    @Option(names = "--count", defaultValue = "12", description = "Number of mazes (default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--band", defaultValue = "all", description = "easy (3-5), medium (6-9), hard (10-13) or all.")
    String band;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--publish", description = "Also publish the items to the running scorer's benchmark topic.")
    boolean publish;

    @Mixin
    ConnectionOptions connection;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<MazeBand> bands = band.equalsIgnoreCase("all")
                ? Arrays.asList(MazeBand.values())
                : List.of(MazeBand.valueOf(band.toUpperCase(Locale.ROOT)));
        MazeBenchmarkGenerator.Result r = MazeBenchmarkGenerator.generate(out, count, bands, seed);
        spec.commandLine().getOut().println("wrote " + r.items().size() + " maze items to " + r.itemsFile());
        spec.commandLine().getOut().flush();
        return publish ? PublishCommand.publish(spec.commandLine(), connection, JsonlPublisher.Kind.benchmark, r.itemsFile()) : 0;
    }
}
