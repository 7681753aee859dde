package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.artifacts.ArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.sudoku.SudokuMetrics;
import io.mmgr.stream.tasks.sudoku.SudokuOcrEvaluator;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval sudoku}: the sudoku-ocr evaluator on local files, one JSON object per case: its flags
 * (or a batch line) are an input adapter that builds the event and item {@link SampleScorer} scores, as
 * {@code eval --event --item} does. The {@code overall} is the gate's primary without a judge (its OCR
 * variant). A batch runs in one JVM with one OCR engine.
 */
@Command(name = "sudoku", mixinStandardHelpOptions = true,
        description = "Score Sudoku outputs (image or video) with the deterministic OCR pipeline.",
        footer = {"",
                "Grids are row-major strings: digits, and '.' or '0' for the blanks of the givens.",
                "A --batch file has one case a line:",
                "  {\"id\":\"a\",\"size\":4,\"givens\":\"1..4...\",\"solution\":\"1234...\",\"output\":\"out.png\"}",
                "(optional \"model\", which picks the video frame budget). Each case prints one line",
                "with its id and the metrics, or its id and an error."})
public final class EvalSudokuCommand implements Callable<Integer> {

    @Option(names = "--size", description = "4 or 9.")
    Integer size;

    @Option(names = "--givens", description = "The puzzle's givens, row-major, '.' or '0' for blanks.")
    String givens;

    @Option(names = "--solution", description = "The solution, row-major.")
    String solution;

    @Option(names = "--output", description = "The model's answer: .png/.jpg image or .mp4/.webm video.")
    Path output;

    @Option(names = "--model", defaultValue = "", description = "Model name, selects the video frame budget (veo 192, sora 360, wan 120).")
    String model;

    @Option(names = "--batch", paramLabel = "CASES.jsonl", description = "JSONL of cases {id, size, givens, solution, output[, model]}.")
    Path batch;

    @Override
    public Integer call() throws Exception {
        ArtifactResolver resolver = EvalInputs.files();
        SampleScorer scorer = FamilySample.scorer(SudokuMetrics.OCR_EVALUATOR, SudokuOcrEvaluator::new);
        if (batch != null) {
            return runBatch(scorer, resolver);
        }
        if (size == null || givens == null || solution == null || output == null) {
            throw new CliInputException("--size, --givens, --solution and --output are required (or --batch)");
        }
        try {
            System.out.println(JsonOutput.line(score(scorer, resolver, size, givens, solution, output, model)));
            return 0;
        } catch (EvaluationException e) {
            System.out.println(JsonOutput.line(Map.of("error", e.getMessage())));
            return 1;
        }
    }

    private int runBatch(SampleScorer scorer, ArtifactResolver resolver) throws IOException {
        int failures = 0;
        try (BufferedReader in = Files.newBufferedReader(batch, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = in.readLine()) != null) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                Map<String, Object> result = new LinkedHashMap<>();
                try {
                    JsonNode c = JsonOutput.parse(line);
                    String id = c.path("id").asText("line-" + n);
                    result.put("id", id);
                    result.putAll(score(scorer, resolver, required(c, "size").asInt(),
                            required(c, "givens").asText(), required(c, "solution").asText(),
                            Path.of(required(c, "output").asText()), c.path("model").asText(model)));
                } catch (EvaluationException | RuntimeException e) {
                    failures++;
                    result.putIfAbsent("id", "line-" + n);
                    result.put("error", e.getMessage());
                }
                System.out.println(JsonOutput.line(result));
            }
        }
        return failures == 0 ? 0 : 1;
    }

    private static JsonNode required(JsonNode c, String field) {
        if (!c.hasNonNull(field)) {
            throw new IllegalArgumentException("case is missing '" + field + "'");
        }
        return c.get(field);
    }

    /**
     * One case, as the event and item the stream would get for it, through {@link SampleScorer}; the
     * {@code overall} is the gate's primary (its OCR variant, no judge being involved).
     *
     * @throws EvaluationException with the precheck's or the evaluator's reason
     */
    static Map<String, Object> score(SampleScorer scorer, ArtifactResolver resolver, int size, String givens,
                                     String solution, Path output, String model) throws EvaluationException {
        BenchmarkItem item = FamilySample.item(SudokuMetrics.TASK,
                GroundTruth.newBuilder().setGridSize(size).setGivens(givens).setAnswer(solution).build());
        String modality = FamilySample.modality(output);
        GenerationEvent event = FamilySample.event(SudokuMetrics.TASK, model, output);
        FamilySample sample = FamilySample.score(scorer, event, item, resolver, SudokuMetrics.OCR_EVALUATOR);
        EvaluationOutcome outcome = sample.outcome();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("modality", modality);
        out.putAll(outcome.metrics());
        out.put("overall", sample.gate().primary());
        out.put("failed_checks", sample.gate().failedChecks());
        Map<String, Object> diagnostics = new LinkedHashMap<>();
        outcome.diagnostics().forEach((k, v) -> {
            if (k.equals("grid")) {
                out.put("grid", v);
            } else if (!k.equals("modality")) {
                diagnostics.put(k, number(v));
            }
        });
        out.put("diagnostics", diagnostics);
        return out;
    }

    private static Object number(String v) {
        try {
            return v.contains(".") ? (Object) Double.parseDouble(v) : (Object) Long.parseLong(v);
        } catch (NumberFormatException e) {
            return v;
        }
    }
}
