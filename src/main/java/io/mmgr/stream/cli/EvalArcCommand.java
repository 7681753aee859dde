package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.artifacts.ArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.arc.ArcMetrics;
import io.mmgr.stream.tasks.arc.ArcGridEvaluator;
import io.mmgr.stream.tasks.arc.ArcTask;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.MediaException;
import java.io.IOException;
import java.nio.file.Files;
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
 * (or a batch line) are an input adapter: they build the event and item {@link SampleScorer} scores.
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
        SampleScorer scorer = FamilySample.scorer(ArcGridEvaluator.ID, ArcGridEvaluator::new);
        ArtifactResolver resolver = EvalInputs.files();
        if (batch != null) {
            int failures = 0;
            for (JsonlInput.Line line : JsonlInput.read(batch)) {
                Map<String, Object> result = new LinkedHashMap<>();
                JsonNode c = line.node();
                String id = JsonlInput.text(line, c, "id");
                result.put("id", id == null ? "line-" + line.number() : id);
                try {
                    Path t = Path.of(JsonlInput.requiredText(line, c, "task"));
                    int index = c.has("test_index") ? JsonlInput.requiredInt(line, c, "test_index") : 0;
                    Path o = Path.of(JsonlInput.requiredText(line, c, "output"));
                    List<Double> region = JsonlInput.numbers(line, c, "answer_region");
                    List<Integer> r = region == null ? null : region.stream().map(Double::intValue).toList();
                    result.putAll(score(scorer, resolver, t, index, o, r));
                } catch (EvaluationException | CliInputException | IOException | IllegalArgumentException e) {
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
        try {
            System.out.println(JsonOutput.line(score(scorer, resolver, task, testIndex, output, answerRegion)));
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
    static Map<String, Object> score(SampleScorer scorer, ArtifactResolver resolver, Path taskFile,
                                     int testIndex, Path output, List<Integer> region)
            throws EvaluationException, IOException {
        ArcTask task = ArcTask.read(taskFile);
        ArcTask.Pair pair = task.test(testIndex);
        if (pair.output() == null) {
            throw new IllegalArgumentException(taskFile + ": test pair " + testIndex + " has no output to compare with");
        }
        if (!Files.isRegularFile(output)) {
            throw new IllegalArgumentException(output + ": output not found");
        }
        String type = EvalMazeCommand.mediaType(output);
        GroundTruth.Builder gt = GroundTruth.newBuilder().setGrid(pair.output().toLists());
        if (region != null) {
            if (region.size() != 4) {
                throw new IllegalArgumentException("--answer-region needs x,y,width,height");
            }
            gt.setAnswerRegion(region);
            if (type.startsWith("image/")) {
                // the region is given in the output's own pixels
                try {
                    int[] size = ImageDecoder.declaredSize(Files.readAllBytes(output));
                    gt.setExtra(Map.of("canvasWidth", Integer.toString(size[0]), "canvasHeight", Integer.toString(size[1])));
                } catch (MediaException e) {
                    throw new EvaluationException("ARC output image: " + e.getMessage(), e);
                }
            }
        }
        BenchmarkItem item = FamilySample.item(ArcMetrics.TASK, gt.build());
        GenerationEvent event = FamilySample.event(ArcMetrics.TASK, FamilySample.CLI, output);
        FamilySample sample = FamilySample.score(scorer, event, item, resolver, ArcGridEvaluator.ID);
        EvaluationOutcome outcome = sample.outcome();
        Map<String, Object> out = new LinkedHashMap<>(outcome.metrics());
        String decoded = outcome.diagnostics().get("decoded_grid");
        out.put("decoded_grid", decoded == null || decoded.equals("none") ? null : JsonOutput.parse(decoded));
        out.put("expected_size", pair.output().rows() + "x" + pair.output().cols());
        out.put("decoded_size", outcome.diagnostics().get("decoded_size"));
        if (outcome.diagnostics().containsKey("decode_failure")) {
            out.put("decode_failure", outcome.diagnostics().get("decode_failure"));
        }
        out.put("grid_lines", Boolean.parseBoolean(outcome.diagnostics().getOrDefault("grid_lines", "false")));
        return out;
    }
}
