package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.cli.CommandPlugin;
import java.util.List;

/** {@code bench cluster}, registered with the app's command line (META-INF/services) on its own. */
public final class ClusterCommands implements CommandPlugin {

    @Override
    public List<Subcommand> commands() {
        return List.of(new Subcommand(BENCH, new BenchClusterCommand()));
    }
}
