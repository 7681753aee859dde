package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.artifacts.ArtifactRefs;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.vision.Rect;
import io.mmgr.stream.vision.RgbImage;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * {@code mmgr bench generate arc}: benchmark items from ARC-AGI task files (v1, fchollet/ARC-AGI). For
 * each chosen task and test pair it writes the problem canvas (demonstrations and test input with an
 * empty answer panel), the solution canvas (the same with the ground-truth answer drawn in), the answer
 * grid alone, a copy of the task JSON, and one BenchmarkItem per line in {@code benchmark-items.jsonl}
 * with the ground-truth grid, the answer region and the difficulty. Deterministic for a seed.
 */
public final class ArcBenchmarkGenerator {

    public static final String PROMPT = "The images show input and output grids of an abstract reasoning puzzle. "
            + "Find the rule that turns each input into its output and draw the output grid for the last input "
            + "in the empty space, with the same ten colours and square cells.";
    public static final String VERSION = "arc-agi-1";

    /** What was written. */
    public record Result(Path itemsFile, List<BenchmarkItem> items) {
    }

    private ArcBenchmarkGenerator() {
    }

    /**
     * @param data  an ARC-AGI checkout (with data/training, data/evaluation), one of those folders, or a task file
     * @param split training, evaluation or all (ignored for a folder of tasks or a single file)
     * @param count tasks to draw (all of them when larger than the pool)
     */
    public static Result generate(Path data, String split, Path outDir, int count, long seed) throws IOException {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1");
        }
        List<Path> pool = taskFiles(data, split);
        if (pool.isEmpty()) {
            throw new IOException("no ARC task files (*.json) under " + data);
        }
        Collections.shuffle(pool, new Random(seed));
        List<Path> chosen = new ArrayList<>(pool.subList(0, Math.min(count, pool.size())));
        Collections.sort(chosen);
        Files.createDirectories(outDir);
        Path itemsFile = outDir.resolve("benchmark-items.jsonl");
        List<BenchmarkItem> items = new ArrayList<>();
        try (Writer w = Files.newBufferedWriter(itemsFile, StandardCharsets.UTF_8)) {
            for (Path file : chosen) {
                ArcTask task = ArcTask.read(file);
                for (int i = 0; i < task.test().size(); i++) {
                    if (task.test(i).output() == null) {
                        continue; // no ground truth to score against
                    }
                    BenchmarkItem item = write(outDir, task, i, file, seed);
                    items.add(item);
                    w.write(JsonAvro.toJson(item).toString());
                    w.write('\n');
                }
            }
        }
        return new Result(itemsFile, items);
    }

    static List<Path> taskFiles(Path data, String split) throws IOException {
        if (Files.isRegularFile(data)) {
            return new ArrayList<>(List.of(data));
        }
        if (!Files.isDirectory(data)) {
            throw new IOException(data + ": no such file or folder");
        }
        List<Path> dirs = new ArrayList<>();
        Path nested = Files.isDirectory(data.resolve("data")) ? data.resolve("data") : data;
        if (Files.isDirectory(nested.resolve("training")) || Files.isDirectory(nested.resolve("evaluation"))) {
            for (String s : split.equals("all") ? List.of("training", "evaluation") : List.of(split)) {
                if (!s.equals("training") && !s.equals("evaluation")) {
                    throw new IllegalArgumentException("split must be training, evaluation or all, got '" + split + "'");
                }
                dirs.add(nested.resolve(s));
            }
        } else {
            dirs.add(data);
        }
        List<Path> out = new ArrayList<>();
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> s = Files.list(d)) {
                s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    static BenchmarkItem write(Path dir, ArcTask task, int testIndex, Path source, long seed) throws IOException {
        String id = "arc-" + task.id() + "-" + testIndex;
        ArcTask.Pair pair = task.test(testIndex);
        ArcRenderer.Puzzle problem = ArcRenderer.puzzle(task, testIndex, false);
        ArcRenderer.Puzzle solution = ArcRenderer.puzzle(task, testIndex, true);
        RgbImage answer = ArcRenderer.grid(pair.output().toArray(), ArcStyle.STANDARD.withMargin(16));
        byte[] problemPng = ImageEncoder.png(problem.image());
        byte[] solutionPng = ImageEncoder.png(solution.image());
        byte[] answerPng = ImageEncoder.png(answer);
        byte[] taskJson = Files.readAllBytes(source);
        Path problemFile = dir.resolve(id + "-problem.png");
        Path solutionFile = dir.resolve(id + "-solution.png");
        Path answerFile = dir.resolve(id + "-answer.png");
        Path taskFile = dir.resolve(task.id() + ".json");
        Files.write(problemFile, problemPng);
        Files.write(solutionFile, solutionPng);
        Files.write(answerFile, answerPng);
        Files.write(taskFile, taskJson);
        ArcDifficulty d = ArcDifficulty.of(pair);
        Rect r = problem.answerRegion();
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("arcTaskId", task.id());
        extra.put("testIndex", Integer.toString(testIndex));
        extra.put("gridSize", Integer.toString(d.size()));
        extra.put("colours", Integer.toString(d.colours()));
        extra.put("objects", Integer.toString(d.objects()));
        extra.put("difficultyPoints", Integer.toString(d.points()));
        extra.put("canvasWidth", Integer.toString(problem.image().width()));
        extra.put("canvasHeight", Integer.toString(problem.image().height()));
        extra.put("generatorSeed", Long.toString(seed));
        GroundTruth gt = new ArcTruth(pair.output().toLists(), List.of(r.x(), r.y(), r.width(), r.height()))
                .into(GroundTruth.newBuilder())
                .setExtra(extra)
                .build();
        return BenchmarkItem.newBuilder()
                .setTask(ArcMetrics.TASK)
                .setSampleId(id)
                .setBenchmark("mmgr")
                .setVersion(VERSION)
                .setDifficulty(d.band())
                .setPrompt(PROMPT)
                .setArtifacts(List.of(
                        ArtifactRefs.file("problem", problemFile, problemPng, "image/png", problem.image().width(), problem.image().height()),
                        ArtifactRefs.file("solution", solutionFile, solutionPng, "image/png", solution.image().width(), solution.image().height()),
                        ArtifactRefs.file("answer", answerFile, answerPng, "image/png", answer.width(), answer.height()),
                        ArtifactRefs.file("reference", taskFile, taskJson, "application/json", null, null)))
                .setGroundTruth(gt)
                .build();
    }

}
