package io.mmgr.stream.cli;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.web.MetricsServer;
import io.mmgr.stream.worker.MemberIdentity;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mmgr judge-worker}: a judge worker on its own, next to running scorers (scale it separately). */
@Command(name = "judge-worker", mixinStandardHelpOptions = true,
        description = {"Run a judge worker: consume judge requests, call the VLM within its quota, write verdicts.",
                "Instances with the same --judge-group share the requests and the quota: each takes the share of its "
                        + "judge-request partitions, recomputed on every rebalance. The scorer must run with the same judge "
                        + "flags (or --judge-external) so that it plans judge parts. Verdicts are cached in "
                        + "<data-dir>/judge-cache (one worker per data directory). Ctrl-C stops it after writing what is finished.",
                "Every flag has an MMGR_* environment default (docs/configuration.md). The worker rewrites "
                        + "<data-dir>/judge-worker.state every 5 s (RUNNING, CIRCUIT_OPEN, FAILED, STOPPED) for health "
                        + "checks, and exits with 1 if it stops on an error."})
public final class JudgeWorkerCommand implements Callable<Integer> {

    /** The worker's state in its data directory: RUNNING, CIRCUIT_OPEN (waiting for the provider), FAILED, STOPPED. */
    public static final String STATE_FILE = "judge-worker.state";

    @Mixin
    ConnectionOptions connection;

    @Mixin
    JudgeOptions judge;

    @Option(names = "--application-id", defaultValue = "${env:MMGR_APPLICATION_ID:-" + ScorerSettings.DEFAULT_APPLICATION_ID + "}",
            description = "the scorer's application id; the default group is <id>-judge (default: ${DEFAULT-VALUE}; "
                    + "env MMGR_APPLICATION_ID)")
    String applicationId;




    @Option(names = "--metrics-port", defaultValue = "${env:MMGR_JUDGE_METRICS_PORT}",
            description = "serve the worker's meters at /metrics (Prometheus) on this port; 0: any free port "
                    + "(default: not served; env MMGR_JUDGE_METRICS_PORT)")
    Integer metricsPort;

    @Option(names = "--metrics-bind", defaultValue = "${env:MMGR_JUDGE_METRICS_BIND:-127.0.0.1}",
            description = "interface /metrics listens on (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_METRICS_BIND)")
    String metricsBind;

    @Option(names = "--state-every", defaultValue = "${env:MMGR_JUDGE_STATE_EVERY:-PT5S}",
            description = "how often the state file is rewritten, so a check can tell a hung worker by its age "
                    + "(default: ${DEFAULT-VALUE}; env MMGR_JUDGE_STATE_EVERY)")
    Duration stateEvery;

    @Option(names = "--group-instance-id", defaultValue = "${env:MMGR_GROUP_INSTANCE_ID}",
            description = "static membership in the judge group under this id: a restarted worker takes its partitions "
                    + "back at once; give each worker its own. 'auto': an id generated once and kept in the data "
                    + "directory; 'none' (the default): dynamic membership, the data directory's id only making the "
                    + "transactional.id stable (env MMGR_GROUP_INSTANCE_ID)")
    String groupInstanceId;

    @CommandLine.Mixin
    ArtifactOptions artifacts;

    /** For /metrics: the same token rule as the scorer's web layer. */
    @CommandLine.Mixin
    WebAccessOptions webAccess;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!judge.configured()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "judge-worker needs --judge-protocol, --judge-base-url and --judge-model");
        }
        judge.settings(); // conflicting or invalid judge flags fail before anything starts
        if (stateEvery.toMillis() < 100) { // negative ones too
            throw new CommandLine.ParameterException(spec.commandLine(), "--state-every must be at least 100 ms: " + stateEvery);
        }
        io.mmgr.stream.web.WebAccess metricsAccess = metricsPort == null ? null : webAccess.forBind(metricsBind, spec.commandLine());
        MemberIdentity identity;
        try {
            identity = MemberIdentity.resolve(connection.dataDir, Optional.ofNullable(groupInstanceId), MemberIdentity.NONE);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--group-instance-id: " + e.getMessage());
        }
        Endpoints ep = connection.resolve();
        PrintWriter out = spec.commandLine().getOut();
        // as run does: the Kafka clients' routine transaction warnings go to the file, the worker's own lines stay here
        java.nio.file.Path logFile = ConsoleLogs.route(connection.dataDir, false);
        if (logFile != null) {
            out.println("Kafka's log lines: " + logFile);
        }
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
            // the shared cache topic, the batch lane's and the cost projections', should the scorer predate them
            TopicAdmin.ensure(admin, new Topics(ep.topicPrefix(), partitions, replication, new AvroSerdes(registry, true))
                    .definitions().stream().filter(d -> d.name().equals(topics.judgeCache.name())
                            || d.name().equals(topics.judgeBatches.name()) || d.name().equals(topics.judgeProjections.name()))
                    .toList());
        }
        artifacts.allowedHosts(spec.commandLine()); // a malformed host is a usage error before anything starts
        Map<String, Object> clientConfig = new java.util.HashMap<>(client);
        clientConfig.remove("bootstrap.servers");
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // bound before the worker starts: a busy port fails the start, not a running worker
        MetricsServer metricsServer = metricsPort == null ? null : MetricsServer.start(metricsBind, metricsPort, meters, metricsAccess);
        HealthFile health = new HealthFile(connection.dataDir.resolve(STATE_FILE));
        health.write("STARTING");
        // the same artifact access as the scorer's: roots, allowlisted http hosts, inline data
        JudgeRuntime runtime = JudgeRuntime.start(judge.settings(), judge.panel(), judge.batchSettings(), System.getenv(), topics,
                new JudgeWorker.Config(ep.bootstrapServers(), judge.group(applicationId), clientConfig, identity),
                artifacts.resolver(spec.commandLine(), connection.dataDir.resolve("judge-spill")),
                meters, connection.dataDir.resolve("judge-cache"));
        AtomicBoolean stopping = new AtomicBoolean();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            boolean first;
            synchronized (stopping) {
                first = stopping.compareAndSet(false, true);
            }
            if (first) {
                System.err.println("Stopping the judge worker ...");
                runtime.close();
                registry.close();
                if (metricsServer != null) {
                    metricsServer.close();
                }
                health.write("STOPPED");
            }
            stopped.countDown();
        }, "mmgr-judge-shutdown"));
        out.printf("judge worker running: %s%n", judge.describe());
        out.printf("  requests %s -> verdicts %s (group %s, %d partitions)%n", topics.judgeRequests.name(),
                topics.judgeVerdicts.name(), judge.group(applicationId), partitions);
        if (metricsServer != null) {
            out.printf("  metrics at %s%n", metricsServer.url());
        }
        out.printf("  state file %s (rewritten every %s)%n", connection.dataDir.resolve(STATE_FILE).toAbsolutePath(),
                stateEvery.toMillis() % 1000 == 0 ? stateEvery.toSeconds() + " s" : stateEvery.toMillis() + " ms");
        out.flush();
        // a heartbeat: health checks read the state and how fresh the file is, so a hung process shows too
        while (!stopped.await(stateEvery.toMillis(), TimeUnit.MILLISECONDS)) {
            JudgeWorker worker = runtime.worker();
            if (!worker.isRunning()) {
                if (!stopping.compareAndSet(false, true)) {
                    continue; // the shutdown hook is closing it
                }
                Throwable failure = worker.failure();
                health.write("FAILED");
                spec.commandLine().getErr().println("error: the judge worker stopped"
                        + (failure == null ? "" : ": " + failure) + "; exiting so that it is restarted");
                runtime.close();
                registry.close();
                if (metricsServer != null) {
                    metricsServer.close();
                }
                return 1;
            }
            String state = runtime.engine().resilience().circuit() == CircuitBreaker.State.OPEN ? "CIRCUIT_OPEN" : "RUNNING";
            synchronized (stopping) {
                if (!stopping.get()) { // never after the shutdown hook's STOPPED
                    health.write(state);
                }
            }
        }
        return 0;
    }
}
