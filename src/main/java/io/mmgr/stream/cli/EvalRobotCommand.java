package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.magma.RobotRollup;
import io.mmgr.stream.tasks.magma.RobotTrialMetrics;
import io.mmgr.stream.tasks.magma.RobotTrialsEvaluator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval robot --trials FILE.jsonl}: robot success rates. The file's lines are an input adapter:
 * each task's trials become the event and item the stream would get (the task is the suite), scored by
 * {@link SampleScorer}.
 */
@Command(name = "robot", mixinStandardHelpOptions = true,
        description = "Score robot manipulation trials (LIBERO, SimplerEnv): success rate per task, protocol check.",
        footer = {"",
                "Each line of FILE is one trial (rollout) of one task of a suite:",
                "  {\"suite\":\"libero-spatial\",\"task\":\"put the bowl on the plate\",",
                "   \"trial\":0,\"success\":true}",
                "suite is one of the scorer's robot tasks: libero-spatial, libero-object,",
                "libero-goal, libero-10, libero-90, simplerenv-widowx,",
                "simplerenv-google-robot. An optional \"protocolTrials\":N gives the",
                "trials the protocol prescribes for the task (default LIBERO 50,",
                "SimplerEnv WidowX 24); simplerenv-google-robot varies per task and",
                "needs it. Trial numbers are unique within a task.",
                "Prints one JSON object: success_rate (successes / trials, pooled, as the",
                "LIBERO scripts report a suite), per-suite and per-task figures, and how",
                "many tasks miss their protocol's trial count."})
public final class EvalRobotCommand implements Callable<Integer> {

    @Option(names = "--trials", required = true, paramLabel = "FILE.jsonl", description = "trials, one per line")
    Path trials;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private static final class TaskTrials {
        final String suite;
        final String task;
        final JsonlInput.Line firstLine;
        Integer protocolTrials;
        final List<RobotTrial> trials = new ArrayList<>();

        TaskTrials(String suite, String task, JsonlInput.Line firstLine, Integer protocolTrials) {
            this.suite = suite;
            this.task = task;
            this.firstLine = firstLine;
            this.protocolTrials = protocolTrials;
        }
    }

    @Override
    public Integer call() {
        Map<List<String>, TaskTrials> tasks = new LinkedHashMap<>();
        for (JsonlInput.Line line : JsonlInput.read(trials)) {
            JsonNode n = line.node();
            String suite = JsonlInput.requiredText(line, n, "suite");
            String task = JsonlInput.requiredText(line, n, "task");
            int trial = JsonlInput.requiredInt(line, n, "trial");
            boolean success = JsonlInput.requiredBoolean(line, n, "success");
            Integer protocol = JsonlInput.optionalInt(line, n, "protocolTrials");
            TaskTrials t = tasks.computeIfAbsent(List.of(suite, task), k -> new TaskTrials(suite, task, line, protocol));
            if (protocol != null && t.protocolTrials != null && !Objects.equals(protocol, t.protocolTrials)) {
                throw line.error("protocolTrials " + protocol + " differs from " + t.protocolTrials
                        + " given for the same task on line " + t.firstLine.number());
            }
            if (t.protocolTrials == null) {
                t.protocolTrials = protocol;
            }
            // the stream refuses repeated trials too; here the line that repeats one is named
            if (t.trials.stream().anyMatch(x -> x.getTrial() == trial)) {
                throw line.error("trial " + trial + " of task '" + task + "' appears twice");
            }
            t.trials.add(RobotTrial.newBuilder().setTrial(trial).setSuccess(success).build());
        }

        SampleScorer scorer = FamilySample.scorer(RobotTrialsEvaluator.ID, RobotTrialsEvaluator::new);

        List<Map<String, Object>> perTask = new ArrayList<>();
        List<RobotRollup.TaskResult> results = new ArrayList<>();
        for (TaskTrials t : tasks.values()) {
            RobotTrialMetrics.Result r = score(scorer, t);
            results.add(new RobotRollup.TaskResult(t.suite, t.task, r));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("suite", t.suite);
            row.put("task", t.task);
            row.put("success_rate", r.successRate());
            row.put("trials", r.trials());
            row.put("protocol_trials", r.protocolTrials());
            row.put("trial_count_mismatch", r.trialCountMismatch());
            perTask.add(row);
        }
        RobotRollup.Rollup rollup = RobotRollup.of(results);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("success_rate", rollup.overall().successRate());
        out.put("tasks", rollup.overall().tasks());
        out.put("trials", rollup.overall().trials());
        out.put("successes", rollup.overall().successes());
        out.put("mismatched_tasks", rollup.mismatched());
        Map<String, Object> suites = new LinkedHashMap<>();
        rollup.suites().forEach((suite, totals) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("success_rate", totals.successRate());
            row.put("tasks", totals.tasks());
            row.put("trials", totals.trials());
            suites.put(suite, row);
        });
        out.put("suites", suites);
        out.put("per_task", perTask);
        spec.commandLine().getOut().println(JsonOutput.line(out));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** One task's trials as the sample the stream would get (task = the suite), through {@link SampleScorer}. */
    private static RobotTrialMetrics.Result score(SampleScorer scorer, TaskTrials t) {
        GenerationEvent event = FamilySample.event(t.suite, "robot", GenerationInputs.newBuilder().setTrials(t.trials).build());
        BenchmarkItem item = FamilySample.item(t.suite, GroundTruth.newBuilder().setProtocolTrials(t.protocolTrials).build());
        try {
            return FamilySample.score(scorer, event, item, EvalInputs.none(), RobotTrialsEvaluator.ID)
                    .detail(RobotTrialMetrics.Result.class);
        } catch (EvaluationException e) {
            throw t.firstLine.error("task '" + t.task + "': " + e.getMessage());
        }
    }
}
