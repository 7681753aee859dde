package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.tasks.cli.CliInputException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr bench generate sudoku}: problem/solution images and benchmark-items.jsonl. */
@Command(name = "sudoku", mixinStandardHelpOptions = true,
        description = "Generate MMGR Sudoku puzzles (4x4 and 9x9, unique solutions) with problem and solution images.")
public final class GenerateSudokuCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, description = "Output directory.")
    Path out;

    @Option(names = "--count", defaultValue = "12", description = "Number of puzzles (default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--size", defaultValue = "all", description = "4, 9 or all (alternating).")
    String size;

    @Option(names = "--band", defaultValue = "all",
            description = "easy, medium, hard or all. Givens: 4x4 easy 10-11, medium 7-9, hard 4-6; "
                    + "9x9 easy 38-45, medium 30-37, hard 24-29.")
    String band;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws Exception {
        List<Integer> sizes = switch (size.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "all" -> List.of(4, 9);
            case "4" -> List.of(4);
            case "9" -> List.of(9);
            default -> throw new CliInputException("--size must be 4, 9 or all, got '" + size + "'");
        };
        List<SudokuBand> bands;
        try {
            bands = band.equalsIgnoreCase("all") ? Arrays.asList(SudokuBand.values()) : List.of(SudokuBand.parse(band));
        } catch (IllegalArgumentException e) {
            throw new CliInputException(e.getMessage());
        }
        SudokuBenchmarkGenerator.Result r = SudokuBenchmarkGenerator.generate(out, count, sizes, bands, seed);
        System.out.println("wrote " + r.items().size() + " sudoku items to " + r.itemsFile());
        return 0;
    }
}
