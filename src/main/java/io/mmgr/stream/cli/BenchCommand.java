package io.mmgr.stream.cli;

import io.mmgr.stream.app.JsonlPublisher;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.ItemsPublisher;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code mmgr bench ...}: benchmark generators; the lab's benches (load, judge, restart, cluster) join as {@link CommandPlugin}s. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Generate benchmark items; measure throughput.",
        subcommands = {BenchCommand.Generate.class})
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** {@code mmgr bench generate <family>}: the families' generators ({@link TaskFamily#generateCommands()}). */
    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = "Generate benchmark problems with known ground truth.")
    public static final class Generate implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(System.out);
        }

        /**
         * Adds each family's generators under {@code generate}; one that can publish what it wrote gets the
         * connection options and a publisher to the benchmark topic.
         */
        static void addFamilyCommands(CommandLine generate, List<TaskFamily> families) {
            for (TaskFamily family : families) {
                for (Object command : family.generateCommands()) {
                    CommandLine sub = new CommandLine(command);
                    if (command instanceof ItemsPublisher.Publishing p) {
                        ConnectionOptions connection = new ConnectionOptions();
                        sub.getCommandSpec().addMixin("connection", CommandLine.Model.CommandSpec.forAnnotatedObject(connection));
                        p.publishWith((cl, items) -> PublishCommand.publish(cl, connection, JsonlPublisher.Kind.benchmark, items));
                    }
                    generate.addSubcommand(sub);
                }
            }
        }
    }
}
