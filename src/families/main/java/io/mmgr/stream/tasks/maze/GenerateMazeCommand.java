package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.tasks.cli.CliInputException;
import io.mmgr.stream.tasks.cli.ItemsPublisher;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr bench generate maze}: problem/solution images, lattice JSON and benchmark-items.jsonl. */
@Command(name = "maze", mixinStandardHelpOptions = true,
        description = "Generate MMGR maze problems (DFS and Wilson, 3x3 to 13x13) with known solutions.")
public final class GenerateMazeCommand implements Callable<Integer>, ItemsPublisher.Publishing {

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

    @Option(names = "--answers", description = "Instead of benchmark items, write this many still answers with known "
            + "verdicts over every render style and fault, their reference images and cases.jsonl for eval maze --batch.")
    Integer answers;

    @Option(names = "--video-answers", defaultValue = "0", description = "With --answers: this many video answers (MP4) too.")
    int videoAnswers;

    @Option(names = "--look", defaultValue = "mmgr", description = "With --answers: mmgr (every render style of"
            + " MMGR's own look, references as images) or maze-dataset (videos as MiniVeo3-Reasoner draws maze-dataset's"
            + " MazePlot, references as structure; green/blue/red markers, a black star, a black flag in turn).")
    String look;

    /** Given by the app with its connection options; a family cannot reach the scorer's topics itself. */
    private ItemsPublisher publisher;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void publishWith(ItemsPublisher publisher) {
        this.publisher = publisher;
    }

    @Override
    public Integer call() throws Exception {
        boolean mazeDataset = look.equalsIgnoreCase("maze-dataset");
        if (!mazeDataset && !look.equalsIgnoreCase("mmgr")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--look must be mmgr or maze-dataset, not '" + look + "'");
        }
        if (mazeDataset && (answers == null || videoAnswers != 0)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--look maze-dataset writes video answers only: give their number with --answers, without --video-answers");
        }
        if (answers != null) {
            java.nio.file.Path cases = mazeDataset
                    ? MazePlotCorpus.write(out, answers, seed)
                    : MazeAnswerCorpus.write(out, answers, videoAnswers, seed);
            spec.commandLine().getOut().println("wrote " + (answers + videoAnswers) + " maze answers to " + cases);
            spec.commandLine().getOut().flush();
            return 0;
        }
        List<MazeBand> bands = band.equalsIgnoreCase("all")
                ? Arrays.asList(MazeBand.values())
                : List.of(MazeBand.valueOf(band.toUpperCase(Locale.ROOT)));
        MazeBenchmarkGenerator.Result r = MazeBenchmarkGenerator.generate(out, count, bands, seed);
        spec.commandLine().getOut().println("wrote " + r.items().size() + " maze items to " + r.itemsFile());
        spec.commandLine().getOut().flush();
        if (!publish) {
            return 0;
        }
        if (publisher == null) {
            throw new CliInputException("--publish: this command was built without a scorer connection");
        }
        return publisher.publish(spec.commandLine(), r.itemsFile());
    }
}
