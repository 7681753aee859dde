package io.mmgr.stream.cli;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.SampleStatus;
import io.mmgr.stream.tasks.GatedSample;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.CliInputException;
import io.mmgr.stream.tasks.cli.EvalInputs;
import io.mmgr.stream.tasks.cli.JsonOutput;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval <task>}: offline, single-sample or single-file scoring with the stream's own code;
 * {@code mmgr eval --event E.json --item I.json}: any one sample, exactly as a stream without a judge scores it.
 * The task commands are the families' own ({@link TaskFamily#evalCommands()}), added by {@link #addFamilyCommands}.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"Score outputs offline with the same evaluators the stream uses.",
                "With --event and --item: one generation event and its benchmark item (JSON with the Avro schemas' "
                        + "field names, as `mmgr publish` reads them) through the stream's checks, evaluators and gate; "
                        + "prints {task, sample_id, status, primary, primary_source, metrics, gates, failed_checks, "
                        + "missing_checks, errors, unavailable, parts_used}. Exit 1 when the sample FAILED, 2 when the "
                        + "stream would reject the event (the dead letter's reason is printed)."},
        subcommands = EvalFidCommand.class)
public final class EvalCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--event", description = "Generation event (JSON, GenerationEvent field names).")
    Path eventFile;

    @Option(names = "--item", description = "Its benchmark item (JSON, BenchmarkItem field names).")
    Path itemFile;

    /** Adds each family's {@code eval} commands under {@code eval}, in the families' order. */
    static void addFamilyCommands(CommandLine eval, List<TaskFamily> families) {
        for (TaskFamily family : families) {
            family.evalCommands().forEach(eval::addSubcommand);
        }
    }

    @Override
    public Integer call() {
        if (eventFile == null && itemFile == null) {
            spec.commandLine().usage(System.out);
            return 0;
        }
        if (eventFile == null || itemFile == null) {
            throw new CliInputException("--event and --item go together (or name a task: eval maze, eval sudoku, ...)");
        }
        GenerationEvent event = EvalInputs.read(eventFile, GenerationEvent.class);
        BenchmarkItem item = EvalInputs.read(itemFile, BenchmarkItem.class);
        Map<String, Object> out = print(SampleScorer.load(), event, item);
        System.out.println(JsonOutput.line(out));
        return SampleStatus.FAILED.name().equals(out.get("status")) ? 1 : 0;
    }

    /**
     * Scores one sample as the stream would and shapes it for printing; bad input (an event the
     * stream would dead-letter, an item of another sample) is a {@link CliInputException}.
     */
    static Map<String, Object> print(SampleScorer scorer, GenerationEvent event, BenchmarkItem item) {
        if (!String.valueOf(item.getTask()).equals(String.valueOf(event.getTask()))
                || !String.valueOf(item.getSampleId()).equals(String.valueOf(event.getSampleId()))) {
            throw new CliInputException("the item is " + item.getTask() + "/" + item.getSampleId() + ", the event is for "
                    + event.getTask() + "/" + event.getSampleId() + ": the stream would never join them");
        }
        SampleScorer.Result result = scorer.score(event, item, EvalInputs.resolver());
        if (result.rejected()) {
            throw new CliInputException("the stream would reject this event: " + result.rejection());
        }
        GatedSample s = result.sample();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("task", event.getTask());
        out.put("sample_id", event.getSampleId());
        out.put("status", s.status().name());
        out.put("primary", s.gate().primary());
        out.put("primary_source", s.gate().primarySource());
        out.put("metrics", s.metrics());
        out.put("gates", s.gate().gates());
        out.put("failed_checks", s.gate().failedChecks());
        out.put("missing_checks", s.gate().missingChecks());
        out.put("errors", s.errors());
        out.put("unavailable", result.unavailable());
        out.put("parts_used", s.used());
        return out;
    }
}
