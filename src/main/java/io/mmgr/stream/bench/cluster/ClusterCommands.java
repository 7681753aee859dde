package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.cli.CommandPlugin;
import java.util.List;

/** Registers {@code mmgr bench cluster} with the app's command line (META-INF/services), beside the lab's other benches. */
public final class ClusterCommands implements CommandPlugin {

    @Override
    public List<Subcommand> commands() {
        return List.of(new Subcommand(BENCH, new BenchClusterCommand()));
    }
}
