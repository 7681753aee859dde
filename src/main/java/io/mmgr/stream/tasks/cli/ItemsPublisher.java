package io.mmgr.stream.tasks.cli;

import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Publishes the benchmark items a {@code bench generate} command wrote to a running scorer's benchmark
 * topic. The app implements it with its connection options (which it adds to the command), since a
 * family reaches no topic itself.
 */
@FunctionalInterface
public interface ItemsPublisher {

    /** Publishes {@code itemsFile} (benchmark-items JSONL), reporting on {@code cl}'s streams; the command's exit code. */
    int publish(CommandLine cl, Path itemsFile) throws Exception;

    /** A generate command with a {@code --publish} flag: the app hands it the publisher before it runs. */
    interface Publishing {
        void publishWith(ItemsPublisher publisher);
    }
}
