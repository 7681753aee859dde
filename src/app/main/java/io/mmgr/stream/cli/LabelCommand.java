package io.mmgr.stream.cli;

import io.mmgr.stream.app.JsonlPublisher;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code mmgr label FILE.jsonl}: human verdicts on fine-grained metrics, one a line: the sample's
 * key fields (runId, checkpointId, task, sampleId, seed) and a HumanLabel (annotator, metrics by bare
 * name, optional note). The same code path as {@code publish --kind labels}.
 */
@Command(name = "label", mixinStandardHelpOptions = true,
        description = {"Publish human labels (JSONL: runId, checkpointId, task, sampleId, seed, annotator, "
                + "metrics {name: 0|1|fraction}, note). Same as 'publish --kind labels'.",
                "Example line: {\"runId\":\"r\",\"checkpointId\":\"c\",\"task\":\"maze\",\"sampleId\":\"m1\",\"seed\":0,"
                        + "\"annotator\":\"ann-1\",\"metrics\":{\"cross_wall\":0,\"target_achievement\":1}}"})
public final class LabelCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE.jsonl")
    Path file;

    @Mixin
    ConnectionOptions connection;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return PublishCommand.publish(spec.commandLine(), connection, JsonlPublisher.Kind.labels, file);
    }
}
