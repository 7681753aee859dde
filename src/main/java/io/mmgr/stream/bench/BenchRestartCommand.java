package io.mmgr.stream.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr bench restart}: time to score again after kill -9, a clean stop, and a start without local state. */
@Command(name = "restart", mixinStandardHelpOptions = true,
        description = {"Run 'mmgr run' (embedded broker) as a child process, score --state-samples samples, then keep a "
                + "steady load coming and restart it: --kills times with SIGKILL, once cleanly, once with its Streams "
                + "state deleted. Prints, per restart, the time from the kill to the new banner and to the first score "
                + "of an event produced after the kill, and what Kafka Streams restored."})
public final class BenchRestartCommand implements Callable<Integer> {

    @Option(names = "--data-dir", description = "the child's data directory (default: a new temporary directory, deleted after)")
    Path dataDir;

    @Option(names = "--state-samples", defaultValue = "10000", description = "samples scored before the restarts (default: ${DEFAULT-VALUE})")
    long stateSamples;

    @Option(names = "--kills", defaultValue = "3", description = "SIGKILL restarts (default: ${DEFAULT-VALUE})")
    int kills;

    @Option(names = "--no-clean", description = "skip the clean (SIGTERM) restart")
    boolean noClean;

    @Option(names = "--no-wipe", description = "skip the restart without local state")
    boolean noWipe;

    @Option(names = "--rate", defaultValue = "50", description = "events per second during the restarts (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--settle", defaultValue = "PT5S", description = "load between restarts (default: ${DEFAULT-VALUE})")
    Duration settle;

    @Option(names = "--partitions", defaultValue = "6", description = "partitions (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--threads", defaultValue = "2", description = "stream threads (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--broker-port", defaultValue = "0", description = "the child's embedded broker port (default: any free port)")
    int brokerPort;

    @Option(names = "--registry-port", defaultValue = "0", description = "its registry port (default: any free port)")
    int registryPort;

    @Option(names = "--child-java-opts", defaultValue = "-Xmx1g", split = " ",
            description = "JVM options of the child (default: ${DEFAULT-VALUE})")
    List<String> childJavaOpts = new ArrayList<>();

    @Option(names = "--run-arg", description = "an extra argument of the child's 'run', e.g. --run-arg=-P --run-arg=KEY=VALUE")
    List<String> runArgs = new ArrayList<>();

    @Option(names = "--timeout", defaultValue = "PT10M", description = "give up a step after (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        // this process's clients lose the broker on every kill, by design: their warnings say nothing new
        org.apache.logging.log4j.core.config.Configurator.setLevel("org.apache.kafka.clients",
                org.apache.logging.log4j.Level.ERROR);
        Path dir = dataDir != null ? dataDir : Files.createTempDirectory("mmgr-restart-");
        try {
            out.printf("load average before: %s%n", RestartBench.loadAverage());
            var restarts = RestartBench.run(new RestartBench.Settings(dir, partitions, threads, stateSamples, kills, !noClean,
                    !noWipe, rate, settle, brokerPort, registryPort, childJavaOpts, runArgs, timeout, true), out);
            out.println(RestartBench.header());
            restarts.forEach(r -> out.println(r.row()));
            return 0;
        } finally {
            if (dataDir == null) {
                BenchLoadCommand.deleteRecursively(dir);
            }
        }
    }
}
