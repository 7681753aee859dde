package io.mmgr.stream.cli;

import io.mmgr.stream.app.JsonlPublisher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mmgr publish}: sends JSONL records (same fields as the Avro schemas) to the scorer's topics. */
@Command(name = "publish", mixinStandardHelpOptions = true,
        description = {"Publish a JSONL file: one record a line, with the field names of the Avro schema "
                + "(schemas/GenerationEvent.avsc, BenchmarkItem.avsc; labels: SampleKey fields + HumanLabel fields).",
                "Bad lines are reported with their number and skipped; the exit code is then 1."})
public final class PublishCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE.jsonl")
    Path file;

    @Option(names = "--kind", defaultValue = "generations", description = "generations, benchmark or labels (default: ${DEFAULT-VALUE})")
    JsonlPublisher.Kind kind;

    @Mixin
    ConnectionOptions connection;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return publish(spec.commandLine(), connection, kind, file);
    }

    /** Publishes one file with a progress bar and a summary; shared by the commands that publish. */
    static int publish(CommandLine cl, ConnectionOptions connection, JsonlPublisher.Kind kind, Path file) throws Exception {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("cannot read " + file);
        }
        Progress progress = new Progress(cl.getErr(), JsonlPublisher.countRecords(file), kind.name());
        JsonlPublisher.Result result;
        try (JsonlPublisher publisher = new JsonlPublisher(connection.resolve(),
                connection.kafkaProperties(), connection.registryProperties(),
                io.mmgr.stream.limits.InputLimits.of(connection.properties))) {
            result = publisher.publish(kind, file, progress::step);
        }
        progress.finish();
        cl.getOut().printf("published %d %s record(s) to %s%s%n", result.sent(), kind, result.topic(),
                result.errors().isEmpty() ? "" : " (" + result.errors().size() + " line(s) skipped)");
        cl.getOut().flush();
        result.errors().stream().limit(50).forEach(e -> cl.getErr().println("  " + e));
        if (result.errors().size() > 50) {
            cl.getErr().println("  ... and " + (result.errors().size() - 50) + " more");
        }
        return result.errors().isEmpty() ? 0 : 1;
    }
}
