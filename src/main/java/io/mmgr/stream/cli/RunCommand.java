package io.mmgr.stream.cli;

import io.mmgr.stream.app.EmbeddedStack;
import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.ScorerApp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.topology.ScorerSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr run}: the scorer, on the embedded default or on existing infrastructure. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the scorer. Without --bootstrap-servers it starts a Kafka broker and a schema registry "
                + "in this process (data in --data-dir, kept across restarts).", "Ctrl-C stops it cleanly."})
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", description = "join this Kafka cluster instead of starting one")
    String bootstrapServers;

    @Option(names = "--schema-registry-url", description = "use this Confluent-compatible registry (required with --bootstrap-servers)")
    String registryUrl;

    @Option(names = "--data-dir", defaultValue = ".mmgr", description = "broker, registry and state data (default: ${DEFAULT-VALUE})")
    Path dataDir;

    @Option(names = "--broker-port", defaultValue = "9092", description = "embedded broker port on first start (default: ${DEFAULT-VALUE}; busy: any free port)")
    int brokerPort;

    @Option(names = "--registry-port", defaultValue = "8081", description = "embedded registry port (default: ${DEFAULT-VALUE}; busy: any free port)")
    int registryPort;

    @Option(names = "--topic-prefix", defaultValue = ScorerSettings.DEFAULT_PREFIX, description = "prefix of every topic (default: ${DEFAULT-VALUE})")
    String topicPrefix;

    @Option(names = "--application-id", defaultValue = ScorerSettings.DEFAULT_APPLICATION_ID,
            description = "Kafka Streams application.id; instances sharing it share the work (default: ${DEFAULT-VALUE})")
    String applicationId;

    @Option(names = "--partitions", defaultValue = "6", description = "partitions of the topics created at start-up (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--replication-factor", description = "replication of created topics (default: 1 embedded, else min(3, brokers))")
    Short replicationFactor;

    @Option(names = "--threads", defaultValue = "2", description = "stream threads (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--artifact-root", description = "directory file: artifacts may live under (repeatable; default: the working directory)")
    List<Path> artifactRoots = new ArrayList<>();

    @Option(names = "--max-artifact-bytes", defaultValue = "" + LocalArtifactResolver.DEFAULT_MAX_BYTES,
            description = "largest artifact accepted (default: ${DEFAULT-VALUE})")
    long maxArtifactBytes;

    @Option(names = {"-P", "--kafka-property"}, description = "Kafka client property KEY=VALUE for every client (security, tuning); "
            + "mmgr.schema-registry.KEY=VALUE configures the registry client")
    Map<String, String> properties = new LinkedHashMap<>();

    @CommandLine.Mixin
    JudgeOptions judge;

    @Option(names = "--judge-external", description = "judge requests are served by separate 'judge-worker' processes: "
            + "plan judge parts, start no worker here")
    boolean judgeExternal;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (bootstrapServers != null && registryUrl == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--schema-registry-url is required with --bootstrap-servers");
        }
        EmbeddedStack stack = null;
        String bootstrap = bootstrapServers;
        String registry = registryUrl;
        long t0 = System.nanoTime();
        if (bootstrap == null) {
            out.println("Starting the embedded Kafka broker and schema registry in " + dataDir.toAbsolutePath() + " ...");
            out.flush();
            stack = EmbeddedStack.start(dataDir, brokerPort, registryPort);
            bootstrap = stack.bootstrapServers();
            registry = registryUrl != null ? registryUrl : stack.registryUrl();
        }
        short replication = replicationFactor != null ? replicationFactor : stack != null ? 1 : defaultReplication(bootstrap);
        List<Path> roots = artifactRoots.isEmpty() ? List.of(Path.of("").toAbsolutePath()) : artifactRoots;
        boolean inProcessJudge = judge.configured() && !judgeExternal;
        ScorerSettings settings = new ScorerSettings(topicPrefix, applicationId, partitions, replication,
                inProcessJudge || judgeExternal, roots, maxArtifactBytes, threads, properties);
        ScorerApp app;
        try {
            app = ScorerApp.start(settings, bootstrap, registry, dataDir.resolve("streams"), Duration.ofMinutes(2));
        } catch (RuntimeException e) {
            if (stack != null) {
                stack.close();
            }
            throw e;
        }
        JudgeRuntime judgeRuntime = null;
        if (inProcessJudge) {
            Map<String, Object> client = new java.util.HashMap<>();
            properties.forEach((k, v) -> {
                if (!k.startsWith("mmgr.")) {
                    client.put(k, v);
                }
            });
            try {
                judgeRuntime = JudgeRuntime.start(judge.settings(), System.getenv(), app.topics(),
                        new JudgeWorker.Config(bootstrap, judge.group(applicationId), client),
                        new LocalArtifactResolver(roots, maxArtifactBytes, dataDir.resolve("judge-spill")),
                        new SimpleMeterRegistry());
            } catch (RuntimeException e) {
                app.close();
                if (stack != null) {
                    stack.close();
                }
                throw e;
            }
        }
        new Endpoints(bootstrap, registry, topicPrefix).write(dataDir);
        CountDownLatch stopped = new CountDownLatch(1);
        EmbeddedStack embedded = stack;
        JudgeRuntime judgeWorker = judgeRuntime;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("Stopping the scorer ...");
            if (judgeWorker != null) {
                judgeWorker.close();
            }
            app.close();
            if (embedded != null) {
                embedded.close();
            }
            stopped.countDown();
        }, "mmgr-shutdown"));

        var t = app.topics();
        out.printf("mmgr-stream scorer running (ready in %.1f s)%n", (System.nanoTime() - t0) / 1e9);
        out.printf("  Kafka bootstrap servers : %s%s%n", bootstrap, stack != null
                ? String.format(" (embedded broker, started in %.1f s, data in %s)", stack.kafka().startTime().toMillis() / 1000.0,
                        dataDir.resolve("broker").toAbsolutePath()) : "");
        out.printf("  Schema registry         : %s%s%n", registry, stack != null && registryUrl == null ? " (embedded)" : "");
        out.printf("  Input topics            : %s, %s, %s, %s%n", t.generations.name(), t.benchmark.name(),
                t.judgeVerdicts.name(), t.humanLabels.name());
        out.printf("  Output topics           : %s, %s, %s%n", t.sampleScores.name(), t.leaderboard.name(), t.deadLetter.name());
        out.printf("  Artifact roots          : %s%n", roots);
        out.printf("  Judge                   : %s%n", inProcessJudge ? judge.describe() + " (in-process worker)"
                : judgeExternal ? "served by separate judge-worker processes"
                : "not configured (judged metrics show as unavailable)");
        out.println("Publish with 'bin/mmgr publish --kind benchmark ITEMS.jsonl' and 'bin/mmgr publish EVENTS.jsonl';");
        out.println("watch with 'bin/mmgr leaderboard'. Press Ctrl-C to stop.");
        out.flush();
        stopped.await();
        return 0;
    }

    private short defaultReplication(String bootstrap) throws Exception {
        Map<String, Object> conf = new java.util.HashMap<>();
        properties.forEach((k, v) -> {
            if (!k.startsWith("mmgr.")) {
                conf.put(k, v);
            }
        });
        conf.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(conf)) {
            int brokers = admin.describeCluster().nodes().get().size();
            return (short) Math.max(1, Math.min(3, brokers));
        }
    }
}
