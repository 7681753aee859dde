package io.mmgr.stream.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code mmgr bench ...}: benchmark generators; the lab's benches (load, judge, restart) join as {@link CommandPlugin}s. */
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

    /** {@code mmgr bench generate <family>}: one subcommand per task family generator. */
    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = "Generate benchmark problems with known ground truth.",
            subcommands = {GenerateMazeCommand.class, GenerateSudokuCommand.class, GenerateArcCommand.class})
    public static final class Generate implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(System.out);
        }
    }
}
