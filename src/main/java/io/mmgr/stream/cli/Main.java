package io.mmgr.stream.cli;

import io.mmgr.stream.tasks.TaskFamily;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code bin/mmgr}. Wires commands together; holds no scoring logic. */
@Command(name = "mmgr", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Streaming scorer for the MMGR and Magma benchmarks.",
        subcommands = {RunCommand.class, DemoCommand.class, PublishCommand.class, LabelCommand.class, LeaderboardCommand.class, ReportCommand.class,
                EvalCommand.class, BenchCommand.class, JudgeWorkerCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    static {
        // Avro 1.12 instantiates generated classes only from trusted packages.
        System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES",
                System.getProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.mmgr.stream.avro"));
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line with the installed families' commands, also used by tests. */
    public static CommandLine commandLine() {
        return commandLine(TaskFamily.installed());
    }

    /** The command line with {@code families}' eval and generate commands. */
    public static CommandLine commandLine(List<TaskFamily> families) {
        CommandLine cl = new CommandLine(new Main());
        EvalCommand.addFamilyCommands(cl.getSubcommands().get("eval"), families);
        BenchCommand.Generate.addFamilyCommands(cl.getSubcommands().get("bench").getSubcommands().get("generate"), families);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("error: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return 2;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"mmgr-stream " + (v == null ? "dev" : v)};
        }
    }
}
