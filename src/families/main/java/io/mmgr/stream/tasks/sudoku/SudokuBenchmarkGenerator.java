package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.artifacts.ArtifactRefs;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.json.JsonAvro;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * {@code mmgr bench generate sudoku}: puzzles of the requested sizes and bands (sizes alternate, then
 * bands), each with a unique solution, written as a problem PNG and a solution PNG, plus
 * {@code benchmark-items.jsonl} with one BenchmarkItem per line (givens and solution as row-major
 * strings, '.' for blanks). Deterministic for a seed.
 */
public final class SudokuBenchmarkGenerator {

    public static final int CANVAS = 512;

    /** What was written. */
    public record Result(Path itemsFile, List<BenchmarkItem> items) {
    }

    private SudokuBenchmarkGenerator() {
    }

    public static String prompt(int size) {
        String box = size == 4 ? "2x2" : "3x3";
        return "Solve this " + size + "x" + size + " Sudoku: fill every empty cell with a digit from 1 to " + size
                + " so that each row, each column and each " + box + " box contains every digit exactly once. "
                + "Keep the given digits unchanged (video: fill the cells in step by step).";
    }

    public static Result generate(Path outDir, int count, List<Integer> sizes, List<SudokuBand> bands, long seed)
            throws IOException {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1");
        }
        for (int s : sizes) {
            if (s != 4 && s != 9) {
                throw new IllegalArgumentException("size must be 4 or 9, got " + s);
            }
        }
        Files.createDirectories(outDir);
        Random random = new Random(seed);
        List<BenchmarkItem> items = new ArrayList<>();
        Path itemsFile = outDir.resolve("benchmark-items.jsonl");
        try (Writer w = Files.newBufferedWriter(itemsFile, StandardCharsets.UTF_8)) {
            for (int i = 0; i < count; i++) {
                int size = sizes.get(i % sizes.size());
                SudokuBand band = bands.get((i / sizes.size()) % bands.size());
                SudokuPuzzle p = SudokuGenerator.generate(size, band, random);
                String id = String.format(Locale.ROOT, "sudoku-%dx%d-%s-%04d", size, size, band.id(), i + 1);
                BenchmarkItem item = write(outDir, id, band, p, seed);
                items.add(item);
                w.write(JsonAvro.toJson(item).toString());
                w.write('\n');
            }
        }
        return new Result(itemsFile, items);
    }

    static BenchmarkItem write(Path dir, String id, SudokuBand band, SudokuPuzzle p, long seed) throws IOException {
        SudokuStyle style = SudokuStyle.standard(CANVAS);
        byte[] problemPng = ImageEncoder.png(SudokuRenderer.problem(p, style));
        byte[] solutionPng = ImageEncoder.png(SudokuRenderer.solution(p, style));
        Path problemFile = dir.resolve(id + "-problem.png");
        Path solutionFile = dir.resolve(id + "-solution.png");
        Files.write(problemFile, problemPng);
        Files.write(solutionFile, solutionPng);
        GroundTruth gt = new SudokuTruth(p.size(), p.givensString(), p.solutionString()).into(GroundTruth.newBuilder())
                .setExtra(Map.of("givenCount", Integer.toString(p.givenCount()),
                        "generatorSeed", Long.toString(seed)))
                .build();
        return BenchmarkItem.newBuilder()
                .setTask(SudokuMetrics.TASK)
                .setSampleId(id)
                .setBenchmark("mmgr")
                .setVersion("sudoku-gen-1")
                .setDifficulty(band.id())
                .setPrompt(prompt(p.size()))
                .setArtifacts(List.of(
                        ArtifactRefs.file("problem", problemFile, problemPng, "image/png", CANVAS, CANVAS),
                        ArtifactRefs.file("solution", solutionFile, solutionPng, "image/png", CANVAS, CANVAS)))
                .setGroundTruth(gt)
                .build();
    }

}
