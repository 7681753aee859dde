package io.mmgr.stream.tasks.example;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.CliInputException;
import io.mmgr.stream.tasks.cli.EvalInputs;
import io.mmgr.stream.tasks.cli.FamilySample;
import io.mmgr.stream.tasks.cli.JsonOutput;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr eval example --count N --answer TEXT}: one answer through {@link SampleScorer}, as the stream scores it without a judge. */
@Command(name = EvalExampleCommand.NAME, mixinStandardHelpOptions = true,
        description = "Score a counting answer (the example family of docs/task-families.md).")
public final class EvalExampleCommand implements Callable<Integer> {

    static final String NAME = "example";

    @Option(names = "--count", required = true, description = "How many there are.")
    int count;

    @Option(names = "--what", defaultValue = "things", description = "What is counted (default ${DEFAULT-VALUE}).")
    String what;

    @Option(names = "--answer", required = true, description = "The model's answer.")
    String answer;

    @Override
    public Integer call() {
        EvalAdapter adapter = TaskFamily.evalAdapter(NAME);
        ObjectNode c = JsonOutput.MAPPER.createObjectNode().put("count", count).put("what", what).put("answer", answer);
        try {
            EvalSample s = adapter.sample(new EvalCase(c));
            FamilySample sample = FamilySample.score(FamilySample.scorer(adapter.evaluator(), adapter.evaluatorFactory()),
                    s.event(), s.item(), EvalInputs.none(), adapter.evaluator());
            Map<String, Object> out = new LinkedHashMap<>(sample.outcome().metrics());
            out.put("overall", sample.gate().primary());
            out.put("failed_checks", sample.gate().failedChecks());
            System.out.println(JsonOutput.line(out));
            return 0;
        } catch (EvaluationException | java.io.IOException | IllegalArgumentException e) {
            throw new CliInputException(e.getMessage());
        }
    }
}
