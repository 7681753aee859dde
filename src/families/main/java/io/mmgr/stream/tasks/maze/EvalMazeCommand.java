package io.mmgr.stream.tasks.maze;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.EvalInputs;
import io.mmgr.stream.tasks.cli.FamilySample;
import io.mmgr.stream.tasks.cli.JsonOutput;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval maze}: the maze-pixel evaluator on local files, one JSON object per case. Its flags
 * (or a batch line) are a case for the family's input adapter (tasks/maze/MazeEvalCase), which builds
 * the event and item {@link SampleScorer} scores,
 * and the {@code overall} is the gate's primary without a judge (the maze gate's pixel variant).
 */
@Command(name = "maze", mixinStandardHelpOptions = true,
        description = "Score maze outputs (image or video) with the deterministic pixel pipeline.")
public final class EvalMazeCommand implements Callable<Integer> {

    @Option(names = "--problem", description = "Problem image (PNG/JPEG).")
    Path problem;

    @Option(names = "--solution", description = "Reference solution image.")
    Path solution;

    @Option(names = "--maze", description = "The maze as structure instead of images: a JSON file in maze-dataset's"
            + " names (grid_shape, connection_list, start_pos, end_pos, solution), as SolvedMaze's fields give them.")
    Path maze;

    @Option(names = "--markers", description = "Marker colour per role, e.g. agent=blue,start=green,target=red"
            + " (red, green, blue, yellow, orange, purple, black or #rrggbb). Default: MMGR's green agent on the"
            + " start, red target; an agent not named is the marker that moves. A black marker is told from the"
            + " walls by the maze's structure: dark pixels where it has no wall.")
    String markers;

    @Option(names = "--rows", description = "Maze rows.")
    Integer rows;

    @Option(names = "--cols", description = "Maze columns.")
    Integer cols;

    @Option(names = "--output", description = "The model's answer: .png/.jpg image or .mp4/.webm video.")
    Path output;

    @Option(names = "--model", defaultValue = "", description = "Model name, selects the video frame budget (veo 192, sora 360, wan 120).")
    String model;

    @Option(names = "--batch", description = "JSONL of cases {id, problem, solution, rows, cols, output[, model]}"
            + " or {id, maze, output[, model]}; either may add markers {agent, start, target}.")
    Path batch;

    @Option(names = "--threads", description = "Cases scored at once with --batch (default: one per core).")
    Integer threads;

    @Override
    public Integer call() throws Exception {
        ArtifactResolver resolver = EvalInputs.files();
        EvalAdapter adapter = TaskFamily.evalAdapter("maze");
        if (batch != null) {
            return batch(adapter, resolver);
        }
        boolean images = problem != null && solution != null && rows != null && cols != null;
        if (output == null || (maze == null && !images)) {
            System.err.println("error: --output and either --maze or --problem, --solution, --rows and --cols are required"
                    + " (or --batch)");
            return 2;
        }
        ObjectNode c = JsonOutput.MAPPER.createObjectNode().put("output", output.toString()).put("model", model);
        if (markers != null) {
            c.put("markers", markers);
        }
        if (maze != null) {
            c.put("maze", maze.toString());
        }
        if (problem != null) {
            c.put("problem", problem.toString());
        }
        if (solution != null) {
            c.put("solution", solution.toString());
        }
        if (rows != null) {
            c.put("rows", rows);
        }
        if (cols != null) {
            c.put("cols", cols);
        }
        try {
            System.out.println(JsonOutput.line(score(adapter, scorer(adapter), resolver, c)));
            return 0;
        } catch (EvaluationException | IOException | IllegalArgumentException e) {
            System.out.println(JsonOutput.line(Map.of("error", String.valueOf(e.getMessage()))));
            return 1;
        }
    }

    /**
     * Scores the cases on a pool of one worker per core (each with its own scorer, so its own evaluator
     * and reference cache) and prints the results in input order; at most a few cases per worker are in flight, so
     * memory stays bounded however long the file is.
     */
    private int batch(EvalAdapter adapter, ArtifactResolver resolver) throws Exception {
        int n = threads != null ? Math.max(1, threads) : Runtime.getRuntime().availableProcessors();
        ThreadLocal<SampleScorer> scorers = ThreadLocal.withInitial(() -> scorer(adapter));
        ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "eval-maze");
            t.setDaemon(true);
            return t;
        });
        ArrayDeque<Future<String[]>> inFlight = new ArrayDeque<>();
        int failures = 0;
        try (BufferedReader in = Files.newBufferedReader(batch, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String text = line;
                int number = lineNo;
                inFlight.add(pool.submit(() -> scoreLine(adapter, scorers.get(), resolver, text, number)));
                if (inFlight.size() >= 4 * n) {
                    failures += print(inFlight.poll().get());
                }
            }
            while (!inFlight.isEmpty()) {
                failures += print(inFlight.poll().get());
            }
        } finally {
            pool.shutdownNow();
        }
        return failures == 0 ? 0 : 1;
    }

    private static SampleScorer scorer(EvalAdapter adapter) {
        return FamilySample.scorer(adapter.evaluator(), adapter.evaluatorFactory());
    }

    private static int print(String[] result) {
        System.out.println(result[0]);
        return result[1] == null ? 0 : 1;
    }

    /** One case: its JSON line and, when it failed, the reason. */
    private String[] scoreLine(EvalAdapter adapter, SampleScorer scorer, ArtifactResolver resolver, String line,
                               int number) {
        Map<String, Object> result = new LinkedHashMap<>();
        try {
            JsonNode c = JsonOutput.MAPPER.readTree(line);
            result.put("id", c.path("id").asText("line-" + number));
            if (!c.hasNonNull("model") && c instanceof ObjectNode o) {
                o.put("model", model); // the flag is the batch's default
            }
            result.putAll(score(adapter, scorer, resolver, c));
            return new String[] {JsonOutput.line(result), null};
        } catch (EvaluationException | RuntimeException | IOException e) {
            result.put("error", e.getMessage());
            return new String[] {JsonOutput.line(result), String.valueOf(e.getMessage())};
        }
    }

    /**
     * One case, as the event and item the stream would get for it, through {@link SampleScorer}; the
     * {@code overall} is the gate's primary without a judge (its pixel variant).
     *
     * @throws EvaluationException with the precheck's or the evaluator's reason
     */
    private static Map<String, Object> score(EvalAdapter adapter, SampleScorer scorer, ArtifactResolver resolver,
                                             JsonNode c) throws EvaluationException, IOException {
        EvalSample s = adapter.sample(new EvalCase(c));
        FamilySample sample = FamilySample.score(scorer, s.event(), s.item(), resolver, adapter.evaluator());
        EvaluationOutcome outcome = sample.outcome();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("modality", s.event().getModality());
        out.put(MazeMetrics.MAZE_CHANGED, outcome.metrics().get(MazeMetrics.MAZE_CHANGED));
        out.put(MazeMetrics.CROSS_WALL, outcome.metrics().get(MazeMetrics.CROSS_WALL));
        out.put(MazeMetrics.TARGET_ACHIEVEMENT, outcome.metrics().get(MazeMetrics.TARGET_ACHIEVEMENT));
        out.put(MazeMetrics.ACTION_REFLECTION, outcome.metrics().get(MazeMetrics.ACTION_REFLECTION));
        out.put("overall", sample.gate().primary());
        out.put("failed_checks", sample.gate().failedChecks());
        out.putAll(outcome.metrics());
        return out;
    }
}
