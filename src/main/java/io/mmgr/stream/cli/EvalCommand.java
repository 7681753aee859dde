package io.mmgr.stream.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code mmgr eval <task>}: offline, single-sample or single-file scoring with the stream's own code. */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = "Score outputs offline with the same evaluators the stream uses.",
        subcommands = {EvalMazeCommand.class, EvalSudokuCommand.class, EvalArcCommand.class, EvalNavCommand.class,
                EvalFidCommand.class, EvalMind2WebCommand.class, EvalAitwCommand.class, EvalScreenSpotCommand.class,
                EvalRobotCommand.class, EvalVisualWebBenchCommand.class})
public final class EvalCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
