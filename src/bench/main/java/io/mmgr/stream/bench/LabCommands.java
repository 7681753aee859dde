package io.mmgr.stream.bench;

import io.mmgr.stream.cli.CommandPlugin;
import io.mmgr.stream.demo.DemoCommand;
import java.util.List;

/**
 * The lab's commands, registered with the app's command line (META-INF/services): the demo and the benches
 * ({@code bench cluster} registers itself: bench.cluster imports bench, so bench must not import it back).
 */
public final class LabCommands implements CommandPlugin {

    @Override
    public List<Subcommand> commands() {
        return List.of(new Subcommand(TOP, new DemoCommand()), new Subcommand(BENCH, new BenchLoadCommand()),
                new Subcommand(BENCH, new BenchJudgeCommand()),
                new Subcommand(BENCH, new BenchJudgeLanesCommand()), new Subcommand(BENCH, new BenchRestartCommand()));
    }
}
