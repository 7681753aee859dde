package io.mmgr.stream.bench.cluster;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr bench cluster}: the production shape under faults, with the pass criteria as its verdict. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"Start docker-compose.yml's shape on loopback, each piece its own process: three KRaft brokers "
                + "(RF 3, min.insync.replicas 2), Apicurio Registry, scorers ('mmgr run --bootstrap-servers') and a judge "
                + "worker against a scripted provider. Under a steady mixed load (light, image, video and judged samples "
                + "with known scores) it applies the faults one after the other and prints, per fault, the gap in scoring, "
                + "the rebalances and the transactions aborted; then the verdict: every sample scored exactly once, "
                + "every leaderboard row equal to its recomputation from the scores, no dead letter, no judge request "
                + "billed twice, no transaction left open, scoring again within 30 s of each fault.",
                "Needs the build's Apicurio (src/bench/target/apicurio: mvn package without -DskipTests unpacks it). "
                        + "Exits 1 when a check fails. It takes a while: every fault and the throughput took 6 minutes on "
                        + "a quiet 2-core machine (docs/benchmarks.md, Measured). A broker's fault ends once every partition "
                        + "is led by its preferred replica again."})
public final class BenchClusterCommand implements Callable<Integer> {

    @Option(names = "--dir", description = "where every process keeps its data and log (default: target/cluster-runs/cluster-<time>)")
    Path dir;

    @Option(names = "--faults", split = ",", description = "the faults, in order (default: all): ${COMPLETION-CANDIDATES}")
    List<ClusterRun.Fault> faults = new ArrayList<>(List.of(ClusterRun.Fault.values()));

    @Option(names = "--scorers", defaultValue = "2", description = "scorers started side by side (default: ${DEFAULT-VALUE})")
    int scorers;

    @Option(names = "--rate", defaultValue = "30", description = "events per second of the steady load (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--partitions", defaultValue = "6", description = "partitions of the scorer's topics (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--threads", defaultValue = "1", description = "stream threads per scorer (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--transaction-version", defaultValue = "0",
            description = "the brokers' transaction.version feature, set when their storage is formatted: 1 or 2; 0 is "
                    + "Kafka's default, 2 (docs/benchmarks.md: with 2, a rolling restart drew thousands of producer "
                    + "retries; with 1 none) (default: ${DEFAULT-VALUE})")
    int transactionVersion;

    @Option(names = "--broker-down", defaultValue = "PT10S", description = "how long a killed broker stays down (default: ${DEFAULT-VALUE})")
    Duration brokerDown;

    @Option(names = "--broker-java-opts", defaultValue = KafkaCluster.BROKER_JVM, split = " ",
            description = "JVM options of each Kafka node (default: ${DEFAULT-VALUE})")
    List<String> brokerJvm;

    @Option(names = "--child-java-opts", defaultValue = "-Xmx512m -XX:+UseSerialGC", split = " ",
            description = "JVM options of each scorer and the judge worker (default: ${DEFAULT-VALUE})")
    List<String> childJvm;

    @Option(names = "--throughput-samples", defaultValue = "5000",
            description = "after the checks: light samples sent as fast as possible with 1, 2 and 3 scorers, beside the raw "
                    + "cluster's records/s (20 times as many records); 0 skips it (default: ${DEFAULT-VALUE})")
    long throughputSamples;

    @Option(names = "--scorer-property", description = "a property of every scorer, as 'mmgr run -P' takes it "
            + "(e.g. commit.interval.ms=200); repeatable")
    List<String> scorerProperties = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (transactionVersion < 0 || transactionVersion > 2) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--transaction-version is " + transactionVersion + ": it takes 1 or 2, or 0 for Kafka's default");
        }
        // absolute: each node, scorer and worker is a process with its own working directory, which a relative path
        // would be read against (the nodes did not find their server.properties)
        Path runDir = (dir != null ? dir : ClusterRun.runDir(Path.of("target", "cluster-runs"))).toAbsolutePath();
        out.printf("cluster run in %s (every process's log is there)%n", runDir);
        ClusterRun.Report report = ClusterRun.run(new ClusterRun.Settings(
                new ClusterHarness.Settings(runDir, partitions, threads, brokerJvm, childJvm, Duration.ofMillis(300),
                        Duration.ofMinutes(3), transactionVersion, scorerProperties), faults, scorers, rate, brokerDown, throughputSamples), out);
        out.print(report.describe());
        out.flush();
        return report.passed() ? 0 : 1;
    }
}
