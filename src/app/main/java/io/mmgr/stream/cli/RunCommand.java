package io.mmgr.stream.cli;

import io.mmgr.stream.app.ClusterCompanion;
import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.LocalStack;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.app.StartupTimeline;
import io.mmgr.stream.evaluate.EvaluationSettings;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.leaderboard.AlertRule;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.topology.comparison.ComparisonSettings;
import io.mmgr.stream.artifacts.S3Settings;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.web.WebAccess;
import io.mmgr.stream.worker.MemberIdentity;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr run}: the scorer, on the embedded default or on existing infrastructure. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the scorer. Without --bootstrap-servers it starts a Kafka broker and a schema registry "
                + "in this process (data in --data-dir, kept across restarts) when the build carries the embedded stack.",
                "Ctrl-C stops it cleanly."})
public final class RunCommand implements Callable<Integer> {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RunCommand.class);

    @Option(names = "--bootstrap-servers", defaultValue = "${env:MMGR_BOOTSTRAP_SERVERS}",
            description = "join this Kafka cluster instead of starting one (env MMGR_BOOTSTRAP_SERVERS)")
    String bootstrapServers;

    @Option(names = "--schema-registry-url", defaultValue = "${env:MMGR_SCHEMA_REGISTRY_URL}",
            description = "use this Confluent-compatible registry (required with --bootstrap-servers; env MMGR_SCHEMA_REGISTRY_URL)")
    String registryUrl;

    @Option(names = "--data-dir", defaultValue = "${env:MMGR_DATA_DIR:-.mmgr}",
            description = "broker, registry and state data (default: ${DEFAULT-VALUE}; env MMGR_DATA_DIR)")
    Path dataDir;

    @Option(names = "--broker-port", defaultValue = "9092", description = "embedded broker port on first start (default: ${DEFAULT-VALUE}; busy: any free port)")
    int brokerPort;

    @Option(names = "--registry-port", defaultValue = "8081", description = "embedded registry port (default: ${DEFAULT-VALUE}; busy: any free port)")
    int registryPort;

    @Option(names = "--topic-prefix", defaultValue = "${env:MMGR_TOPIC_PREFIX:-" + ScorerSettings.DEFAULT_PREFIX + "}",
            description = "prefix of every topic (default: ${DEFAULT-VALUE}; env MMGR_TOPIC_PREFIX)")
    String topicPrefix;

    @Option(names = "--application-id", defaultValue = "${env:MMGR_APPLICATION_ID:-" + ScorerSettings.DEFAULT_APPLICATION_ID + "}",
            description = "Kafka Streams application.id; instances sharing it share the work (default: ${DEFAULT-VALUE}; "
                    + "env MMGR_APPLICATION_ID)")
    String applicationId;

    @Option(names = "--partitions", defaultValue = "${env:MMGR_PARTITIONS:-6}",
            description = "partitions of the topics created at start-up (default: ${DEFAULT-VALUE}; env MMGR_PARTITIONS)")
    int partitions;

    @Option(names = "--replication-factor", defaultValue = "${env:MMGR_REPLICATION_FACTOR}",
            description = "replication of created topics (default: 1 embedded, else min(3, brokers); env MMGR_REPLICATION_FACTOR)")
    Short replicationFactor;

    @Option(names = "--threads", defaultValue = "${env:MMGR_THREADS:-2}", description = "stream threads (default: ${DEFAULT-VALUE}; env MMGR_THREADS)")
    int threads;

    @Option(names = "--group-instance-id", defaultValue = "${env:MMGR_GROUP_INSTANCE_ID}",
            description = "static group membership under this id, for every consumer group the scorer runs: a restarted "
                    + "instance takes its partitions back at once; give each instance its own. 'auto': an id generated "
                    + "once and kept in the data directory; 'none': dynamic membership (default: auto with the embedded "
                    + "broker, none with --bootstrap-servers; env MMGR_GROUP_INSTANCE_ID)")
    String groupInstanceId;

    @Option(names = "--standby-replicas", defaultValue = "${env:MMGR_STANDBY_REPLICAS}",
            description = "warm copies of each task's state kept on other instances (Kafka Streams' num.standby.replicas), "
                    + "so a lost instance's tasks resume on another without restoring their stores (default: 0, Kafka's, "
                    + "or what -P num.standby.replicas says; env MMGR_STANDBY_REPLICAS)")
    Integer standbyReplicas;

    @Option(names = "--evaluation-threads", defaultValue = "${env:MMGR_EVALUATION_THREADS}",
            description = "evaluation threads per cost class, e.g. light=2,image=2,video=1 (the default; env MMGR_EVALUATION_THREADS)")
    String evaluationThreads;

    @Option(names = "--evaluation-deadline", defaultValue = "${env:MMGR_EVALUATION_DEADLINE}",
            description = "how long one evaluation may take before its sample is FAILED, per cost class, e.g. "
                    + "light=PT30S,image=PT2M,video=PT5M (the default; env MMGR_EVALUATION_DEADLINE)")
    String evaluationDeadline;




    @Option(names = "--web-port", defaultValue = "${env:MMGR_WEB_PORT:-8080}",
            description = "dashboard, REST API, live updates and /metrics port (default: ${DEFAULT-VALUE}; 0: any free port; "
                    + "env MMGR_WEB_PORT)")
    int webPort;

    @Option(names = "--web-bind", defaultValue = "${env:MMGR_WEB_BIND:-127.0.0.1}",
            description = "interface the web server listens on (default: ${DEFAULT-VALUE}; env MMGR_WEB_BIND)")
    String webBind;

    @Option(names = "--web-host", defaultValue = "${env:MMGR_WEB_HOST:-127.0.0.1}",
            description = "how other scorer instances reach this one's web server (application.server) "
                    + "(default: ${DEFAULT-VALUE}; env MMGR_WEB_HOST)")
    String webHost;

    @Option(names = "--no-web", description = "run without the web server")
    boolean noWeb;

    @CommandLine.Mixin
    WebAccessOptions webAccess;

    @Option(names = "--verbose", description = "with the embedded broker: also show the broker's and the Kafka clients' own "
            + "log lines on the console (they always go to " + ConsoleLogs.FILE + " in the data directory)")
    boolean verbose;

    @Option(names = "--alert-p-value", defaultValue = "0.01", description = "a drop between checkpoints alerts below this p-value (default: ${DEFAULT-VALUE})")
    double alertPValue;

    @Option(names = "--alert-min-drop", defaultValue = "0.05", description = "... and when the primary rate fell by at least this much (default: ${DEFAULT-VALUE})")
    double alertMinDrop;

    @Option(names = "--alert-min-samples", defaultValue = "20", description = "... over at least this many compared samples (default: ${DEFAULT-VALUE})")
    long alertMinSamples;

    @Option(names = {"-P", "--kafka-property"}, split = "\\R", defaultValue = "${env:MMGR_KAFKA_PROPERTIES}",
            description = "Kafka client property KEY=VALUE for every client (security, tuning); "
            + "mmgr.schema-registry.KEY=VALUE configures the registry client. Values are never printed. "
            + "Env MMGR_KAFKA_PROPERTIES: KEY=VALUE lines (replaced by -P on the command line)")
    Map<String, String> properties = new LinkedHashMap<>();

    @CommandLine.Mixin
    ArtifactOptions artifacts;

    @CommandLine.Mixin
    JudgeOptions judge;

    @Option(names = "--judge-external", defaultValue = "${env:MMGR_JUDGE_EXTERNAL:-false}",
            description = "judge requests are served by separate 'judge-worker' processes: plan judge parts, start no worker "
                    + "here (env MMGR_JUDGE_EXTERNAL=true)")
    boolean judgeExternal;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where the local stack is looked up (Main's class loader; a test's to leave it out). */
    @CommandLine.ParentCommand
    Main main;

    @Override
    public Integer call() throws Exception {
        StartupTimeline timeline = StartupTimeline.sinceJvmStart();
        PrintWriter out = spec.commandLine().getOut();
        if (bootstrapServers != null && registryUrl == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--schema-registry-url is required with --bootstrap-servers");
        }
        LocalStack localStack = null;
        if (bootstrapServers == null) {
            localStack = LocalStack.find(main != null ? main.services() : RunCommand.class.getClassLoader())
                    .orElseThrow(() -> new CommandLine.ParameterException(spec.commandLine(), "this build carries no embedded "
                            + "Kafka broker: give your cluster with --bootstrap-servers (and --schema-registry-url), or use "
                            + "the full build (bin/mmgr) for the embedded default"));
        }
        // usage errors before anything starts
        EvaluationSettings evaluation;
        try {
            evaluation = EvaluationSettings.DEFAULT.withThreads(EvaluationSettings.parseThreads(evaluationThreads))
                    .withDeadlines(EvaluationSettings.parseDeadlines(evaluationDeadline));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--evaluation-threads/--evaluation-deadline: "
                    + e.getMessage());
        }
        MemberIdentity identity;
        try {
            identity = MemberIdentity.resolve(dataDir, Optional.ofNullable(groupInstanceId),
                    bootstrapServers == null ? MemberIdentity.AUTO : MemberIdentity.NONE);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--group-instance-id: " + e.getMessage());
        }
        Integer standbys;
        try {
            standbys = standbyReplicas(standbyReplicas, properties);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--standby-replicas: " + e.getMessage());
        }
        if (judge.configured()) {
            judge.settings(); // conflicting or invalid judge flags fail before anything starts
        }
        WebAccess access = noWeb ? null : webAccess.forBind(webBind, spec.commandLine());
        // registered first, so that Ctrl-C during start-up also stops whatever has started
        AtomicReference<LocalStack.Running> stackRef = new AtomicReference<>();
        AtomicReference<ScorerApp> appRef = new AtomicReference<>();
        AtomicReference<JudgeRuntime> judgeRef = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (judgeRef.get() != null) {
                judgeRef.get().close();
            }
            if (appRef.get() != null) {
                System.err.println("Stopping the scorer ...");
                appRef.get().close();
            }
            if (stackRef.get() != null) {
                stackRef.get().close();
            }
            stopped.countDown();
        }, "mmgr-shutdown"));

        String bootstrap = bootstrapServers;
        String registry = registryUrl;
        long t0 = System.nanoTime();
        LocalStack.Starting starting = null;
        // the Kafka clients' routine warnings (retried transactions, out-of-order sequences in a failover) go to the
        // file on a cluster as with the embedded broker: on a console they look like failures
        Path logFile = ConsoleLogs.route(dataDir, verbose);
        if (bootstrap != null && logFile != null) {
            out.println("Kafka's log lines: " + logFile);
        }
        if (bootstrap == null) {
            out.println("Starting the embedded Kafka broker and schema registry in " + dataDir.toAbsolutePath() + " ..."
                    + (logFile == null ? "" : " (their logs: " + logFile + ")"));
            out.flush();
            // the broker starts on its own thread; the scorer prepares itself meanwhile (ScorerApp.start)
            starting = localStack.start(dataDir, brokerPort, registryPort, timeline);
            starting.ready().thenAccept(stackRef::set);
            bootstrap = starting.bootstrapServers();
            registry = registryUrl != null ? registryUrl : starting.registryUrl();
        }
        short replication = replicationFactor != null ? replicationFactor : starting != null ? 1 : defaultReplication(bootstrap);
        List<Path> roots = artifacts.roots();
        artifacts.allowedHosts(spec.commandLine()); // a malformed host is a usage error before anything starts
        S3Settings s3 = artifacts.s3(spec.commandLine());
        boolean inProcessJudge = judge.configured() && !judgeExternal;
        ScorerSettings settings = new ScorerSettings(topicPrefix, applicationId, partitions, replication,
                inProcessJudge || judgeExternal, roots, artifacts.maxBytes, threads, properties, artifacts.httpAllow, s3);
        HealthFile health = new HealthFile(dataDir.resolve(HealthFile.NAME));
        health.write("STARTING");
        ScorerApp.Options options = ScorerApp.Options.defaults()
                .withEvaluation(evaluation)
                .withIdentity(identity)
                .withStandbyReplicas(standbys)
                .withTimeline(timeline)
                .withBrokerReady(starting != null ? starting.ready() : java.util.concurrent.CompletableFuture.completedFuture(null))
                // the embedded stack's sweep runs beside the scorer; on a team's own cluster nothing does
                .withCompanion(starting != null ? starting.companion() : ClusterCompanion.NONE)
                .withComparisons(new ComparisonSettings(new AlertRule(alertPValue, alertMinDrop, alertMinSamples),
                        ComparisonSettings.DEFAULT.interval()))
                .withStateListener((now, before) -> {
                    health.write(now.name());
                    // Kafka Streams says so only at INFO, which the file does not take: a rebalance is worth a line
                    LOG.info("Kafka Streams state {} -> {}", before, now);
                });
        if (!noWeb) {
            options = options.withWeb(webBind, webPort, webHost).withWebAccess(access);
        }
        out.println("Starting the scorer (Kafka Streams: topics, state stores, first rebalance) ...");
        out.flush();
        ScorerApp app = ScorerApp.start(settings, options, bootstrap, registry, dataDir.resolve("streams"), Duration.ofMinutes(2));
        appRef.set(app);
        LocalStack.Running stack = starting != null ? starting.ready().join() : null; // ready: the scorer waited for it
        if (inProcessJudge) {
            Map<String, Object> client = ScorerSettings.clientProperties(properties);
            // the judge's meters join the scorer's registry, so /metrics shows them
            judgeRef.set(JudgeRuntime.start(judge.settings(), judge.panel(), judge.batchSettings(), System.getenv(), app.topics(),
                    new JudgeWorker.Config(bootstrap, judge.group(applicationId), client, identity),
                    artifacts.resolver(spec.commandLine(), dataDir.resolve("judge-spill")), app.meters(),
                    dataDir.resolve("judge-cache")));
            app.web().ifPresent(w -> w.judgeCostInProcess());
        } else if (judgeExternal) {
            app.web().ifPresent(w -> w.judgeCostExternal());
        }
        // the file and the banner never carry credentials a URL's user-info may hold
        String shownRegistry = withoutUserInfo(registry);
        new Endpoints(bootstrap, shownRegistry, topicPrefix).write(dataDir);

        var t = app.topics();
        out.printf("mmgr-stream scorer running (ready in %.1f s)%n", (System.nanoTime() - t0) / 1e9);
        out.printf("  Kafka bootstrap servers : %s%s%n", bootstrap, stack != null
                ? String.format(" (embedded broker, started in %.1f s, data in %s)", stack.brokerStartTime().toMillis() / 1000.0,
                        dataDir.resolve("broker").toAbsolutePath()) : "");
        out.printf("  Schema registry         : %s%s%n", shownRegistry, stack != null && registryUrl == null ? " (embedded)" : "");
        out.printf("  Input topics            : %s, %s, %s, %s%n", t.generations.name(), t.benchmark.name(),
                t.judgeVerdicts.name(), t.humanLabels.name());
        out.printf("  Output topics           : %s, %s, %s, %s, %s%n", t.sampleScores.name(), t.leaderboard.name(),
                t.comparisons.name(), t.alerts.name(), t.deadLetter.name());
        app.web().ifPresent(w -> out.printf("  Dashboard               : %s (REST under /api, metrics at /metrics; %s)%n", w.url(),
                access.required() ? "access token required" : WebAccess.isLoopback(webBind) ? "loopback only, no token"
                        : "OPEN to anyone who reaches " + webBind + " (--web-auth none)"));
        out.printf("  Group membership        : %s%n", identity.staticMembership()
                ? "static, instance id " + identity.id() : "dynamic");
        out.printf("  Standby replicas        : %s%n", standbys != null ? standbys
                : properties.getOrDefault(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "0"));
        out.printf("  Evaluation              : threads %s, deadlines %s%n", describe(evaluation.threads()),
                describe(evaluation.deadlines()));
        out.printf("  Artifact roots          : %s%n", roots);
        out.printf("  HTTP artifact hosts     : %s%n", artifacts.httpAllow.isEmpty() ? "none" : String.join(", ", artifacts.httpAllow));
        out.printf("  S3 artifacts            : %s (credentials: the AWS chain)%n", s3.describe());
        java.util.List<String> limits = properties.keySet().stream().filter(k -> k.startsWith(InputLimits.PREFIX)).sorted()
                .map(k -> k + "=" + properties.get(k)).toList();
        out.printf("  Input limits            : %s%n", limits.isEmpty() ? "defaults (docs/configuration.md: Input limits)" : String.join(", ", limits));
        out.printf("  Judge                   : %s%n", inProcessJudge ? judge.describe() + " (in-process worker)"
                : judgeExternal ? "served by separate judge-worker processes"
                : "not configured (judged metrics show as unavailable)");
        out.println("Publish with 'bin/mmgr publish --kind benchmark ITEMS.jsonl' and 'bin/mmgr publish EVENTS.jsonl';");
        out.println("watch with 'bin/mmgr leaderboard'. Press Ctrl-C to stop.");
        out.flush();
        stopped.await();
        return 0;
    }

    /**
     * {@code num.standby.replicas} for the scorer, or null to leave it to {@code -P} (or Kafka's 0). Not on by default:
     * in the cluster runs a standby had a lost scorer's tasks running on the survivor within seconds of its
     * rebalance, but the rebalance began later (28-31 s after the kill, 16 s without) and the longest partition stall
     * stayed 46-47 s, as without (docs/operations.md, "Failover timing").
     */
    static Integer standbyReplicas(Integer option, Map<String, String> properties) {
        if (option == null) {
            return null;
        }
        if (option < 0) {
            throw new IllegalArgumentException("must be 0 or more, not " + option);
        }
        String property = properties.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG);
        if (property != null && !property.strip().equals(option.toString())) {
            throw new IllegalArgumentException(option + " contradicts -P " + StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG
                    + "=" + property + "; give one of them");
        }
        return option;
    }

    /** {@code light=2, image=2, video=1}, in class order. */
    static String describe(Map<io.mmgr.stream.contract.CostClass, ?> perClass) {
        StringBuilder b = new StringBuilder();
        for (io.mmgr.stream.contract.CostClass c : io.mmgr.stream.contract.CostClass.values()) {
            b.append(b.length() == 0 ? "" : ", ").append(c.label()).append('=').append(perClass.get(c));
        }
        return b.toString();
    }

    /** The URL without its user-info (credentials), or the text unchanged when it is not a URL. */
    static String withoutUserInfo(String url) {
        try {
            java.net.URI u = new java.net.URI(url);
            if (u.getRawUserInfo() == null) {
                return url;
            }
            return new java.net.URI(u.getScheme(), null, u.getHost(), u.getPort(), u.getPath(), u.getQuery(), u.getFragment())
                    .toString();
        } catch (java.net.URISyntaxException e) {
            return url.contains("@") ? url.substring(url.lastIndexOf('@') + 1) : url;
        }
    }

    private short defaultReplication(String bootstrap) throws Exception {
        Map<String, Object> conf = ScorerSettings.clientProperties(properties);
        conf.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(conf)) {
            int brokers = admin.describeCluster().nodes().get().size();
            return (short) Math.max(1, Math.min(3, brokers));
        }
    }
}
