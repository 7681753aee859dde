package io.mmgr.stream.tasks.nav;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.PartEvaluation;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskSpec;
import io.mmgr.stream.tasks.cli.CliInputException;
import io.mmgr.stream.tasks.cli.EvalInputs;
import io.mmgr.stream.tasks.cli.JsonOutput;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval nav}: one navigation generation (a generation event and its benchmark item, as JSON)
 * through {@link SampleScorer}, printed per deterministic evaluator (nav-geometry and geo-align or
 * view-syn). An event the stream would reject prints its reason alone. An item without a goal or radius
 * still gets every metric that needs neither; the part lists the others under {@code unavailable}, each
 * with its reason, and the sample's status is PARTIAL.
 */
@Command(name = "nav", mixinStandardHelpOptions = true,
        description = "Score a navigation generation (trajectories, top-down video, frames) with nav-geometry "
                + "and the task's Geo-Align or View-Syn suite.")
public final class EvalNavCommand implements Callable<Integer> {

    @Option(names = "--item", required = true, description = "Benchmark item (JSON, BenchmarkItem field names).")
    Path itemFile;

    @Option(names = "--event", required = true, description = "Generation event (JSON, GenerationEvent field names).")
    Path eventFile;

    @Override
    public Integer call() {
        BenchmarkItem item = EvalInputs.read(itemFile, BenchmarkItem.class);
        GenerationEvent event = EvalInputs.read(eventFile, GenerationEvent.class);
        SampleScorer scorer = SampleScorer.load();
        TaskSpec spec = scorer.catalog().find(event.getTask())
                .filter(s -> s.family().equals("nav"))
                .orElseThrow(() -> new CliInputException("task '" + event.getTask() + "' is not a navigation task"));
        SampleScorer.Result result = scorer.score(event, item, EvalInputs.files());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("task", event.getTask());
        if (result.rejected()) {
            // the stream would dead-letter the event: no part is scored
            out.put("error", result.rejection());
            System.out.println(JsonOutput.line(out));
            return 1;
        }
        out.put("status", result.sample().status().name());
        int failures = 0;
        for (String id : spec.evaluators()) {
            Map<String, Object> part = new LinkedHashMap<>();
            PartEvaluation run = result.evaluation(id).orElse(null);
            if (run == null) {
                part.put("error", result.unavailable().get(id));
                failures++;
            } else if (run.failed()) {
                part.put("error", run.result().getError());
                failures++;
            } else {
                // what the item lacks (a goal, a radius) leaves single metrics null: each is named with its reason
                part.putAll(run.outcome().metrics());
                Map<String, String> missing = result.unavailableMetrics(id);
                if (!missing.isEmpty()) {
                    part.put("unavailable", missing);
                }
                part.put("diagnostics", run.outcome().diagnostics());
            }
            out.put(id, part);
        }
        System.out.println(JsonOutput.line(out));
        return failures == 0 ? 0 : 1;
    }
}
