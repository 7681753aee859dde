package io.mmgr.stream.cli;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval nav}: one navigation generation (a generation event and its benchmark item, as JSON)
 * through the task's deterministic evaluators (nav-geometry and geo-align or view-syn), offline.
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
    public Integer call() throws Exception {
        BenchmarkItem item = EvalInputs.read(itemFile, BenchmarkItem.class);
        GenerationEvent event = EvalInputs.read(eventFile, GenerationEvent.class);
        TaskSpec spec = TaskCatalog.load().find(event.getTask())
                .filter(s -> s.family().equals("nav"))
                .orElseThrow(() -> new CliInputException("task '" + event.getTask() + "' is not a navigation task"));
        EvaluatorRegistry registry = EvaluatorRegistry.load();
        LocalArtifactResolver resolver = new LocalArtifactResolver(List.of(Path.of("/")),
                LocalArtifactResolver.DEFAULT_MAX_BYTES, Files.createTempDirectory("mmgr-eval"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("task", event.getTask());
        int failures = 0;
        for (String id : spec.evaluators()) {
            DeterministicEvaluator e = registry.newInstance(id).orElseThrow();
            Map<String, Object> part = new LinkedHashMap<>();
            Optional<String> problem = e.precheck(event, item);
            if (problem.isPresent()) {
                part.put("error", problem.get());
                failures++;
            } else {
                try {
                    EvaluationOutcome o = e.evaluate(new EvaluationContext(event, item, resolver));
                    part.putAll(o.metrics());
                    part.put("diagnostics", o.diagnostics());
                } catch (EvaluationException ex) {
                    part.put("error", ex.getMessage());
                    failures++;
                }
            }
            out.put(id, part);
        }
        System.out.println(JsonOutput.line(out));
        return failures == 0 ? 0 : 1;
    }

}
