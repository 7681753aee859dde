package io.mmgr.stream.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.Topics;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mmgr judge-worker}: a judge worker on its own, next to running scorers (scale it separately). */
@Command(name = "judge-worker", mixinStandardHelpOptions = true,
        description = {"Run a judge worker: consume judge requests, call the VLM within its quota, write verdicts.",
                "Instances with the same --judge-group share the requests; give each its share of the quota with "
                        + "--judge-instances. The scorer must run with the same judge flags (or --judge-external) so "
                        + "that it plans judge parts. Ctrl-C stops it after writing what is finished."})
public final class JudgeWorkerCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Mixin
    JudgeOptions judge;

    @Option(names = "--application-id", defaultValue = ScorerSettings.DEFAULT_APPLICATION_ID,
            description = "the scorer's application id; the default group is <id>-judge (default: ${DEFAULT-VALUE})")
    String applicationId;

    @Option(names = "--artifact-root", description = "directory file: artifacts may live under (repeatable; default: the working directory)")
    List<Path> artifactRoots = new ArrayList<>();

    @Option(names = "--max-artifact-bytes", defaultValue = "" + LocalArtifactResolver.DEFAULT_MAX_BYTES,
            description = "largest artifact accepted (default: ${DEFAULT-VALUE})")
    long maxArtifactBytes;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!judge.configured()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "judge-worker needs --judge-protocol, --judge-base-url and --judge-model");
        }
        Endpoints ep = connection.resolve();
        PrintWriter out = spec.commandLine().getOut();
        SchemaRegistryClient registry = new SchemaRegistryClient(ep.registryUrl(), connection.registryProperties());
        Map<String, Object> client = connection.kafkaProperties(ep.bootstrapServers());
        int partitions;
        Topics topics;
        try (Admin admin = Admin.create(client)) {
            topics = new Topics(ep.topicPrefix(), 1, (short) 1, new AvroSerdes(registry, true));
            partitions = admin.describeTopics(List.of(topics.judgeRequests.name())).allTopicNames().get()
                    .get(topics.judgeRequests.name()).partitions().size();
            short replication = (short) admin.describeTopics(List.of(topics.judgeRequests.name())).allTopicNames().get()
                    .get(topics.judgeRequests.name()).partitions().get(0).replicas().size();
            // the shared cache topic, should the scorer predate it
            TopicAdmin.ensure(admin, new Topics(ep.topicPrefix(), partitions, replication, new AvroSerdes(registry, true))
                    .definitions().stream().filter(d -> d.name().equals(topics.judgeCache.name())).toList());
        }
        List<Path> roots = artifactRoots.isEmpty() ? List.of(Path.of("").toAbsolutePath()) : artifactRoots;
        Map<String, Object> clientConfig = new java.util.HashMap<>(client);
        clientConfig.remove("bootstrap.servers");
        JudgeRuntime runtime = JudgeRuntime.start(judge.settings(), System.getenv(), topics,
                new JudgeWorker.Config(ep.bootstrapServers(), judge.group(applicationId), clientConfig),
                new LocalArtifactResolver(roots, maxArtifactBytes, connection.dataDir.resolve("judge-spill")),
                new SimpleMeterRegistry());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("Stopping the judge worker ...");
            runtime.close();
            registry.close();
            stopped.countDown();
        }, "mmgr-judge-shutdown"));
        out.printf("judge worker running: %s%n", judge.describe());
        out.printf("  requests %s -> verdicts %s (group %s, %d partitions)%n", topics.judgeRequests.name(),
                topics.judgeVerdicts.name(), judge.group(applicationId), partitions);
        out.flush();
        stopped.await();
        return 0;
    }
}
