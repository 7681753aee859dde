package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCaseException;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.CliInputException;
import io.mmgr.stream.tasks.cli.FamilySample;
import io.mmgr.stream.tasks.cli.JsonOutput;
import io.mmgr.stream.tasks.cli.JsonlInput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval robot --trials FILE.jsonl}: robot success rates. The file's lines are cases of the
 * family's input adapter (tasks/magma/RobotEvalCase): each task's trials become the event and item the
 * stream would get (the task is the suite), scored by {@link SampleScorer}.
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

    @Override
    public Integer call() {
        EvalAdapter adapter = TaskFamily.evalAdapter("robot");
        List<EvalAdapter.Group> tasks = JsonlInput.samples(adapter, trials);
        List<RobotTrialMetrics.Result> scored = FamilySample.details(adapter, tasks, RobotTrialMetrics.Result.class,
                this::refused);

        List<Map<String, Object>> perTask = new ArrayList<>();
        List<RobotRollup.TaskResult> results = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            // the sample's task is the suite, the group's key the suite's task
            String suite = tasks.get(i).sample().event().getTask();
            String task = tasks.get(i).key();
            RobotTrialMetrics.Result r = scored.get(i);
            results.add(new RobotRollup.TaskResult(suite, task, r));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("suite", suite);
            row.put("task", task);
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

    /** A task the stream would not score, named at its first line. */
    private CliInputException refused(EvalAdapter.Group task, String reason) {
        return JsonlInput.located(trials, new EvalCaseException(task.line(), "task '" + task.key() + "': " + reason));
    }
}
