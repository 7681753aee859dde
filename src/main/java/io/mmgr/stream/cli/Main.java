package io.mmgr.stream.cli;

import io.mmgr.stream.tasks.TaskFamily;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bin/mmgr}. Wires commands together; holds no scoring logic. The app's commands are
 * listed here; the lab's ({@code demo}, {@code bench load} ...) are {@link CommandPlugin}s found on the class path.
 */
@Command(name = "mmgr", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Streaming scorer for the MMGR and Magma benchmarks.",
        subcommands = {RunCommand.class, PublishCommand.class, LabelCommand.class, LeaderboardCommand.class, ReportCommand.class,
                EvalCommand.class, BenchCommand.class, JudgeWorkerCommand.class})
public final class Main implements Runnable {

    static {
        // Avro 1.12 instantiates generated classes only from trusted packages.
        System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES",
                System.getProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.mmgr.stream.avro"));
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final ClassLoader services;

    private Main(ClassLoader services) {
        this.services = services;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line with the installed families' commands, also used by tests. */
    public static CommandLine commandLine() {
        return commandLine(Main.class.getClassLoader(), TaskFamily.installed());
    }

    /** The command line with {@code families}' eval and generate commands. */
    public static CommandLine commandLine(List<TaskFamily> families) {
        return commandLine(Main.class.getClassLoader(), families);
    }

    /**
     * The command line with the plugins and the local stack that {@code services} provides (a test gives one
     * that provides none, as the deployable artifact does).
     */
    static CommandLine commandLine(ClassLoader services) {
        return commandLine(services, TaskFamily.installed());
    }

    private static CommandLine commandLine(ClassLoader services, List<TaskFamily> families) {
        CommandLine cl = new CommandLine(new Main(services));
        EvalCommand.addFamilyCommands(cl.getSubcommands().get("eval"), families);
        BenchCommand.Generate.addFamilyCommands(cl.getSubcommands().get("bench").getSubcommands().get("generate"), families);
        Map<String, CommandLine> parents = Map.of(CommandPlugin.TOP, cl, CommandPlugin.BENCH, cl.getSubcommands().get("bench"));
        CommandPlugin.find(services).stream().flatMap(p -> p.commands().stream())
                .map(c -> Map.entry(c.parent(), new CommandLine(c.command())))
                .sorted(Comparator.comparing(e -> e.getValue().getCommandName()))
                .forEach(e -> {
                    CommandLine parent = parents.get(e.getKey());
                    if (parent == null) {
                        throw new IllegalStateException("a command plugin names an unknown parent command: " + e.getKey());
                    }
                    parent.addSubcommand(e.getValue());
                });
        cl.addSubcommand(new CommandLine.HelpCommand()); // last in the list, as before the plugins came
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("error: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return 2;
        });
        return cl;
    }

    /** Where {@code run} looks for its local stack. */
    ClassLoader services() {
        return services;
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
