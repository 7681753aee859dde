package io.mmgr.stream.topology;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.Check;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.GateVariant;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A task that exists only in topology tests: its evaluator reports the event's {@code inputs.values}
 * as metrics (so a test decides the outcome), fails on request, and refuses events without values at
 * intake. Its gate needs {@code echo.ok = 1}, and {@code judge.agree = 1} for the judged variant.
 */
public final class EchoTask {

    public static final String TASK = "echo";
    public static final String JUDGED_TASK = "echo-judged";
    /** A second plain task, for what spans tasks (all-tasks comparisons). */
    public static final String SECOND_TASK = "echo-b";
    public static final String EVALUATOR = "echo";

    private EchoTask() {
    }

    public static TaskCatalog catalog() {
        GateVariant cv = GateVariant.of("cv", Check.isOne("echo.ok"));
        GateVariant both = GateVariant.of("both", Check.isOne("echo.ok"), Check.isOne("judge.agree"));
        TaskSpec plain = new TaskSpec(TASK, "test", "test", Set.of("ui"), List.of(EVALUATOR), Optional.empty(),
                in -> result(cv.evaluate(in)));
        TaskSpec judged = new TaskSpec(JUDGED_TASK, "test", "test", Set.of("ui"), List.of(EVALUATOR), Optional.of("echo"),
                in -> result(both.evaluate(in)));
        TaskSpec second = new TaskSpec(SECOND_TASK, "test", "test", Set.of("ui"), List.of(EVALUATOR), Optional.empty(),
                in -> result(cv.evaluate(in)));
        return new TaskCatalog(List.of(plain, judged, second));
    }

    private static GateResult result(GateVariant.Outcome o) {
        Map<String, Double> gates = new HashMap<>();
        gates.put("overall_" + o.name(), o.value());
        return new GateResult(o.value(), o.name(), gates, o.failed(), o.missing());
    }

    public static EvaluatorRegistry evaluators() {
        return new EvaluatorRegistry(Map.of(EVALUATOR, Evaluator::new));
    }

    static final class Evaluator implements DeterministicEvaluator {
        @Override
        public String id() {
            return EVALUATOR;
        }

        /** LIGHT, or the class named by the event's {@code inputs.values.cost} (0 light, 1 image, 2 video). */
        @Override
        public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
            Double cost = event.getInputs() == null || event.getInputs().getValues() == null ? null
                    : event.getInputs().getValues().get("cost");
            return cost == null ? CostClass.LIGHT : CostClass.values()[cost.intValue()];
        }

        @Override
        public String version() {
            return "1";
        }

        @Override
        public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
            return event.getInputs() == null || event.getInputs().getValues() == null
                    ? Optional.of("inputs.values is missing") : Optional.empty();
        }

        @Override
        public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
            Map<String, Double> values = context.event().getInputs().getValues();
            if (values.containsKey("fail")) {
                throw new EvaluationException("asked to fail");
            }
            return EvaluationOutcome.of(values);
        }
    }
}
