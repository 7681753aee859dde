package io.mmgr.stream.tasks.sudoku;

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
import io.mmgr.stream.tasks.cli.CliInputException;
import io.mmgr.stream.tasks.cli.EvalInputs;
import io.mmgr.stream.tasks.cli.FamilySample;
import io.mmgr.stream.tasks.cli.JsonOutput;
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
 * (or a batch line) are a case for the family's input adapter (tasks/sudoku/SudokuEvalCase), which
 * builds the event and item {@link SampleScorer} scores, as {@code eval --event --item} does. The {@code overall} is the gate's primary without a judge (its OCR
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
        EvalAdapter adapter = TaskFamily.evalAdapter("sudoku");
        SampleScorer scorer = FamilySample.scorer(adapter.evaluator(), adapter.evaluatorFactory());
        if (batch != null) {
            return runBatch(adapter, scorer, resolver);
        }
        if (size == null || givens == null || solution == null || output == null) {
            throw new CliInputException("--size, --givens, --solution and --output are required (or --batch)");
        }
        ObjectNode c = JsonOutput.MAPPER.createObjectNode().put("size", size).put("givens", givens)
                .put("solution", solution).put("output", output.toString()).put("model", model);
        try {
            System.out.println(JsonOutput.line(score(adapter, scorer, resolver, c)));
            return 0;
        } catch (EvaluationException | IOException e) {
            System.out.println(JsonOutput.line(Map.of("error", e.getMessage())));
            return 1;
        }
    }

    private int runBatch(EvalAdapter adapter, SampleScorer scorer, ArtifactResolver resolver) throws IOException {
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
                    if (!c.hasNonNull("model") && c instanceof ObjectNode o) {
                        o.put("model", model); // the flag is the batch's default
                    }
                    result.putAll(score(adapter, scorer, resolver, c));
                } catch (EvaluationException | IOException | RuntimeException e) {
                    failures++;
                    result.putIfAbsent("id", "line-" + n);
                    result.put("error", e.getMessage());
                }
                System.out.println(JsonOutput.line(result));
            }
        }
        return failures == 0 ? 0 : 1;
    }

    /**
     * One case, as the event and item the stream would get for it, through {@link SampleScorer}; the
     * {@code overall} is the gate's primary (its OCR variant, no judge being involved).
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
