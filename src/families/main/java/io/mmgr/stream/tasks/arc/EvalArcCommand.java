package io.mmgr.stream.tasks.arc;

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
import io.mmgr.stream.tasks.cli.JsonlInput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval arc}: the arc-grid evaluator on local files. One JSON object per case with
 * {@code grid_integrity}, {@code cell_accuracy}, {@code valid_solution} and the decoded grid. Its flags
 * (or a batch line) are a case for the family's input adapter (tasks/arc/ArcEvalCase), which builds
 * the event and item {@link SampleScorer} scores.
 */
@Command(name = "arc", mixinStandardHelpOptions = true,
        description = "Read the answer grid from an ARC output image and compare it with the task's test output.",
        footer = {"", "Batch lines: {\"id\": ..., \"task\": \"T.json\", \"test_index\": 0, \"output\": \"O.png\""
                + "[, \"answer_region\": [x, y, w, h]]}"})
public final class EvalArcCommand implements Callable<Integer> {

    @Option(names = "--task", description = "ARC-AGI task file (train/test pairs).")
    Path task;

    @Option(names = "--test-index", defaultValue = "0", description = "Which test pair (default ${DEFAULT-VALUE}).")
    int testIndex;

    @Option(names = "--output", description = "The model's answer: PNG/JPEG image, or MP4/WebM video (last frame).")
    Path output;

    @Option(names = "--answer-region", split = ",", description = "x,y,width,height of the answer when the output shows the whole puzzle.")
    List<Integer> answerRegion;

    @Option(names = "--batch", description = "JSONL of cases {id, task, test_index, output[, answer_region]}.")
    Path batch;

    @Override
    public Integer call() throws Exception {
        EvalAdapter adapter = TaskFamily.evalAdapter("arc");
        SampleScorer scorer = FamilySample.scorer(adapter.evaluator(), adapter.evaluatorFactory());
        ArtifactResolver resolver = EvalInputs.files();
        if (batch != null) {
            int failures = 0;
            for (JsonlInput.Line line : JsonlInput.read(batch)) {
                Map<String, Object> result = new LinkedHashMap<>();
                JsonNode c = line.node();
                String id = JsonlInput.text(line, c, "id");
                result.put("id", id == null ? "line-" + line.number() : id);
                try {
                    result.putAll(score(adapter, scorer, resolver, c));
                } catch (IllegalArgumentException e) {
                    failures++;
                    result.put("error", line.error(e.getMessage()).getMessage()); // a field of this line: say where
                } catch (EvaluationException | CliInputException | IOException e) {
                    failures++;
                    result.put("error", e.getMessage());
                }
                System.out.println(JsonOutput.line(result));
            }
            return failures == 0 ? 0 : 1;
        }
        if (task == null || output == null) {
            throw new CliInputException("--task and --output are required (or --batch)");
        }
        ObjectNode c = JsonOutput.MAPPER.createObjectNode().put("task", task.toString()).put("test_index", testIndex)
                .put("output", output.toString());
        if (answerRegion != null) {
            answerRegion.forEach(c.putArray("answer_region")::add);
        }
        try {
            System.out.println(JsonOutput.line(score(adapter, scorer, resolver, c)));
            return 0;
        } catch (EvaluationException | IOException | IllegalArgumentException e) {
            System.out.println(JsonOutput.line(Map.of("error", e.getMessage())));
            return 1;
        }
    }

    /**
     * One case, as the event and item the stream would get for it, through {@link SampleScorer}.
     *
     * @throws EvaluationException with the precheck's or the evaluator's reason
     */
    private static Map<String, Object> score(EvalAdapter adapter, SampleScorer scorer, ArtifactResolver resolver,
                                             JsonNode c) throws EvaluationException, IOException {
        EvalSample s = adapter.sample(new EvalCase(c));
        FamilySample sample = FamilySample.score(scorer, s.event(), s.item(), resolver, adapter.evaluator());
        EvaluationOutcome outcome = sample.outcome();
        Map<String, Object> out = new LinkedHashMap<>(outcome.metrics());
        String decoded = outcome.diagnostics().get("decoded_grid");
        out.put("decoded_grid", decoded == null || decoded.equals("none") ? null : JsonOutput.parse(decoded));
        List<List<Integer>> expected = ArcTruth.of(s.item().getGroundTruth()).grid();
        out.put("expected_size", expected.size() + "x" + expected.get(0).size());
        out.put("decoded_size", outcome.diagnostics().get("decoded_size"));
        if (outcome.diagnostics().containsKey("decode_failure")) {
            out.put("decode_failure", outcome.diagnostics().get("decode_failure"));
        }
        out.put("grid_lines", Boolean.parseBoolean(outcome.diagnostics().getOrDefault("grid_lines", "false")));
        return out;
    }
}
