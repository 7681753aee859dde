package io.mmgr.stream.tasks.maze;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * {@code mmgr bench generate maze}: draws maze problems of the requested bands (DFS and Wilson
 * alternately, the four placements in turn, sizes drawn within the band), and writes for each a
 * problem PNG, a solution PNG and a JSON with lattice and solution path, plus
 * {@code benchmark-items.jsonl} with one BenchmarkItem per line. Deterministic for a seed.
 */
public final class MazeBenchmarkGenerator {

    public static final String PROMPT = "Solve the maze: draw a blue path from the green square to the red square "
            + "through the white passages without crossing any black wall (video: move the green square along the "
            + "path until it stops on the red square).";
    public static final int CANVAS = 512;

    /** What was written. */
    public record Result(Path itemsFile, List<BenchmarkItem> items) {
    }

    private MazeBenchmarkGenerator() {
    }

    public static Result generate(Path outDir, int count, List<MazeBand> bands, long seed) throws IOException {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1");
        }
        Files.createDirectories(outDir);
        Random random = new Random(seed);
        List<BenchmarkItem> items = new ArrayList<>();
        Path itemsFile = outDir.resolve("benchmark-items.jsonl");
        try (Writer w = Files.newBufferedWriter(itemsFile, StandardCharsets.UTF_8)) {
            for (int i = 0; i < count; i++) {
                MazeBand band = bands.get(i % bands.size());
                int rows = band.minSize() + random.nextInt(band.maxSize() - band.minSize() + 1);
                int cols = band.minSize() + random.nextInt(band.maxSize() - band.minSize() + 1);
                MazeAlgorithm algorithm = MazeAlgorithm.values()[(i / bands.size()) % MazeAlgorithm.values().length];
                Placement placement = Placement.values()[(i / bands.size()) % Placement.values().length];
                MazeProblem p = MazeProblem.generate(rows, cols, algorithm, placement, random);
                String id = String.format(Locale.ROOT, "maze-%s-%04d", band.id(), i + 1);
                BenchmarkItem item = write(outDir, id, band, p, seed);
                items.add(item);
                w.write(JsonAvro.toJson(item).toString());
                w.write('\n');
            }
        }
        return new Result(itemsFile, items);
    }

    static BenchmarkItem write(Path dir, String id, MazeBand band, MazeProblem p, long seed) throws IOException {
        byte[] problemPng = ImageEncoder.png(MazeRenderer.problem(p, CANVAS, CANVAS));
        byte[] solutionPng = ImageEncoder.png(MazeRenderer.solution(p, CANVAS, CANVAS));
        Path problemFile = dir.resolve(id + "-problem.png");
        Path solutionFile = dir.resolve(id + "-solution.png");
        Path jsonFile = dir.resolve(id + ".json");
        Files.write(problemFile, problemPng);
        Files.write(solutionFile, solutionPng);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("sampleId", id);
        json.put("rows", p.rows());
        json.put("cols", p.cols());
        json.put("algorithm", p.algorithm().name().toLowerCase(Locale.ROOT));
        json.put("placement", p.placement().name().toLowerCase(Locale.ROOT));
        json.put("start", List.of(p.start().row(), p.start().col()));
        json.put("target", List.of(p.target().row(), p.target().col()));
        json.put("lattice", p.lattice().toStrings());
        json.put("solutionPath", p.solutionAsLists());
        byte[] jsonBytes = JsonAvro.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(json);
        Files.write(jsonFile, jsonBytes);

        GroundTruth gt = new MazeTruth(p.rows(), p.cols(), p.lattice().toStrings(), p.solutionAsLists(), null)
                .into(GroundTruth.newBuilder())
                .setExtra(Map.of("algorithm", p.algorithm().name().toLowerCase(Locale.ROOT),
                        "placement", p.placement().name().toLowerCase(Locale.ROOT),
                        "generatorSeed", Long.toString(seed)))
                .build();
        return BenchmarkItem.newBuilder()
                .setTask(MazeTasks.TASK)
                .setSampleId(id)
                .setBenchmark("mmgr")
                .setVersion("maze-gen-1")
                .setDifficulty(band.id())
                .setPrompt(PROMPT)
                .setArtifacts(List.of(
                        ArtifactRefs.file("problem", problemFile, problemPng, "image/png", CANVAS, CANVAS),
                        ArtifactRefs.file("solution", solutionFile, solutionPng, "image/png", CANVAS, CANVAS),
                        ArtifactRefs.file("reference", jsonFile, jsonBytes, "application/json", null, null)))
                .setGroundTruth(gt)
                .build();
    }

}
