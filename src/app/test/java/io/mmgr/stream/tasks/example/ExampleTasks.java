package io.mmgr.stream.tasks.example;

import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.FamilyPayload;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The example family of docs/task-families.md ("Adding a task family"), followed once: a counting task
 * answered in text, with an evaluator, a judged half, a gate, a ground truth of its own and an
 * {@code eval example} command, registered by one line in {@code plugin/META-INF/services} of this folder.
 */
public final class ExampleTasks implements TaskFamily {

    @Override
    public Optional<FamilyPayload> payload() {
        return Optional.of(CountTruth.PAYLOAD);
    }

    @Override
    public List<TaskSpec> tasks() {
        return List.of(new TaskSpec(ExampleMetrics.TASK, ExampleMetrics.FAMILY, "mmgr", Set.of("text"),
                List.of(ExampleMetrics.EVALUATOR), Optional.of(ExampleMetrics.RUBRIC), new ExampleGate()));
    }

    @Override
    public List<Supplier<DeterministicEvaluator>> evaluators() {
        return List.of(CountEvaluator::new);
    }

    @Override
    public List<JudgeRubric> rubrics() {
        return List.of(new ExampleRubric());
    }

    @Override
    public List<EvalAdapter> evalAdapters() {
        return List.of(new EvalAdapter(EvalExampleCommand.NAME, ExampleMetrics.EVALUATOR, CountEvaluator::new, ExampleTasks::sample));
    }

    @Override
    public List<Object> evalCommands() {
        return List.of(new EvalExampleCommand());
    }

    /** A case {@code {count, what, answer}} as the event and item the stream would get. */
    static EvalSample sample(EvalCase c) {
        int count = c.integer("count", -1);
        if (count < 0) {
            throw c.error("'count' must be a whole number, 0 or more");
        }
        GenerationInputs inputs = GenerationInputs.newBuilder().setText(c.requiredText("answer")).build();
        return new EvalSample(EvalSample.event(ExampleMetrics.TASK, "text", inputs),
                EvalSample.item(ExampleMetrics.TASK, new CountTruth(count, c.text("what", "things")).groundTruth()));
    }
}
