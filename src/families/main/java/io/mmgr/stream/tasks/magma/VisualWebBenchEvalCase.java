package io.mmgr.stream.tasks.magma;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.CaseFields;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.magma.VisualWebBench.Subtask;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code mmgr eval visualwebbench}'s case, one line of its predictions file and one sample: {@code id},
 * {@code subtask}, {@code prediction} (the model's raw text, in {@code inputs.text}) and {@code answer}
 * (the gold, of the subtask's kind). Samples are keyed by id, unique within a subtask. Each line is
 * handed over before the next is read, so the command prints a sample's note as it scores it, before the
 * error of a later line, as it did reading the file itself.
 */
final class VisualWebBenchEvalCase implements EvalAdapter.Grouping {

    @Override
    public List<EvalAdapter.Group> samples(List<EvalCase> cases) {
        List<EvalAdapter.Group> out = new ArrayList<>(cases.size());
        samples(cases, out::add);
        return out;
    }

    @Override
    public void samples(List<EvalCase> cases, Consumer<EvalAdapter.Group> out) {
        Map<Subtask, Map<String, Integer>> seen = new EnumMap<>(Subtask.class);
        for (EvalCase c : cases) {
            JsonNode n = c.fields();
            String id = CaseFields.requiredText(c, n, "id");
            String name = CaseFields.requiredText(c, n, "subtask");
            Subtask task = Subtask.find(name).orElseThrow(() -> c.error(
                    "unknown subtask '" + name + "' (one of " + Subtask.names() + ")"));
            Integer earlier = seen.computeIfAbsent(task, t -> new HashMap<>()).putIfAbsent(id, c.line());
            if (earlier != null) {
                throw c.error(task.id() + " sample '" + id + "' already appears on line " + earlier);
            }
            String prediction = prediction(c, n);
            GroundTruth gold = gold(c, n, task);
            String taskId = VisualWebBenchEvaluator.taskId(task);
            out.accept(new EvalAdapter.Group(id, new EvalSample(
                    EvalSample.event(taskId, "text", GenerationInputs.newBuilder().setText(prediction).build()),
                    EvalSample.item(taskId, gold)), c.line()));
        }
    }

    private static String prediction(EvalCase c, JsonNode n) {
        JsonNode v = CaseFields.required(c, n, "prediction");
        if (!v.isTextual()) {
            throw c.error("'prediction' must be a string (the model's raw output, \"\" for none)");
        }
        return v.textValue();
    }

    private static GroundTruth gold(EvalCase c, JsonNode n, Subtask task) {
        JsonNode v = CaseFields.required(c, n, "answer");
        switch (task.answerKind()) {
            case TEXT -> {
                if (!v.isTextual()) {
                    throw c.error("'answer' of " + task.id() + " must be a string");
                }
                return MagmaTruth.webGold(v.textValue(), null, null).into(GroundTruth.newBuilder()).build();
            }
            case TEXT_LIST -> {
                if (!v.isArray()) {
                    throw c.error("'answer' of webqa must be a list of strings");
                }
                List<String> golds = new ArrayList<>();
                for (JsonNode g : v) {
                    if (!g.isTextual()) {
                        throw c.error("'answer' of webqa must be a list of strings");
                    }
                    golds.add(g.textValue());
                }
                return MagmaTruth.webGold(null, golds, null).into(GroundTruth.newBuilder()).build();
            }
            default -> {
                if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                    throw c.error("'answer' of " + task.id() + " must be an option index 0-7");
                }
                return MagmaTruth.webGold(null, null, v.intValue()).into(GroundTruth.newBuilder()).build();
            }
        }
    }
}
