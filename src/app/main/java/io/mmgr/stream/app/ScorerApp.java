package io.mmgr.stream.app;

import io.mmgr.stream.contract.Stores;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.artifacts.CompositeArtifactResolver;
import io.mmgr.stream.artifacts.HttpArtifactResolver;
import io.mmgr.stream.evaluate.EvaluationSettings;
import io.mmgr.stream.evaluate.EvaluationWorker;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.topology.RecordCaps;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.ScoringTopology;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.leaderboard.ReliabilityFlags;
import io.mmgr.stream.leaderboard.Table5;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.topology.comparison.ComparisonSettings;
import io.mmgr.stream.web.WebAccess;
import io.mmgr.stream.web.StoreQueries;
import io.mmgr.stream.web.WebServer;
import io.mmgr.stream.worker.MemberIdentity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scorer instance: creates the topics, builds the topology and runs Kafka Streams; with a web
 * server, also the dashboard, REST API (interactive queries across instances), live updates and
 * Prometheus metrics. It owns the process's meter registry, which other components register in.
 */
public final class ScorerApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScorerApp.class);
    /** How long a start may spend caching the registry's schema ids; what is left is resolved on first use. */
    static final Duration SCHEMA_PREFETCH_BUDGET = Duration.ofSeconds(5);

    /**
     * What runs beside the topology.
     *
     * @param comparisons checkpoint comparison and alert thresholds
     * @param web         whether to serve the dashboard, API and metrics
     * @param webBindHost interface the web server listens on
     * @param webPort     its port (0: any free port)
     * @param webHost     how other instances and browsers reach it (advertised as {@code application.server})
     * @param webAccess   who may read the web layer (a token, or open)
     * @param stateListener told every Kafka Streams state change (the health file watches it)
     * @param evaluation    the evaluation worker's threads, deadlines and polling per cost class
     * @param identity      instance id and membership (null: an id kept in the state directory, dynamic membership)
     * @param timeline      where the start-up steps are recorded (null: a timeline of this start alone)
     * @param brokerReady   completes when the broker answers (the embedded one may still be starting)
     * @param companion     what runs beside the scorer on its cluster (the embedded stack's sweep; none on a team's own)
     * @param standbyReplicas {@code num.standby.replicas} of the scorer's Kafka Streams (null: Kafka's default or -P)
     */
    public record Options(ComparisonSettings comparisons, boolean web, String webBindHost, int webPort, String webHost,
                          WebAccess webAccess, KafkaStreams.StateListener stateListener, EvaluationSettings evaluation, MemberIdentity identity,
                          StartupTimeline timeline, CompletableFuture<?> brokerReady, ClusterCompanion companion,
                          Integer standbyReplicas) {

        public static Options defaults() {
            return new Options(ComparisonSettings.DEFAULT, false, "127.0.0.1", 0, "127.0.0.1", WebAccess.open(), (now, before) -> { },
                    EvaluationSettings.DEFAULT, null, null, CompletableFuture.completedFuture(null), ClusterCompanion.NONE, null);
        }

        /**
         * The broker is still starting and will be ready when {@code ready} completes: a restart prepares
         * its topology and local state meanwhile.
         */
        public Options withBrokerReady(CompletableFuture<?> ready) {
            return new Options(comparisons, web, webBindHost, webPort, webHost, webAccess, stateListener, evaluation, identity, timeline,
                    ready, companion, standbyReplicas);
        }

        /** Records the scorer's start-up steps on {@code t}, after the steps already on it (the embedded broker's). */
        public Options withTimeline(StartupTimeline t) {
            return new Options(comparisons, web, webBindHost, webPort, webHost, webAccess, stateListener, evaluation, identity, t, brokerReady, companion, standbyReplicas);
        }

        public Options withWeb(String bindHost, int port, String advertisedHost) {
            return new Options(comparisons, true, bindHost, port, advertisedHost, webAccess, stateListener, evaluation, identity, timeline, brokerReady, companion, standbyReplicas);
        }

        /** The token every web request must carry (other instances of the application share it). */
        public Options withWebAccess(WebAccess access) {
            return new Options(comparisons, web, webBindHost, webPort, webHost, access, stateListener, evaluation, identity,
                    timeline, brokerReady, companion, standbyReplicas);
        }

        public Options withComparisons(ComparisonSettings settings) {
            return new Options(settings, web, webBindHost, webPort, webHost, webAccess, stateListener, evaluation, identity, timeline, brokerReady, companion, standbyReplicas);
        }

        public Options withStateListener(KafkaStreams.StateListener listener) {
            return new Options(comparisons, web, webBindHost, webPort, webHost, webAccess, listener, evaluation, identity, timeline, brokerReady, companion, standbyReplicas);
        }

        /** How the evaluation worker runs each cost class (threads, deadlines). */
        public Options withEvaluation(EvaluationSettings settings) {
            return new Options(comparisons, web, webBindHost, webPort, webHost, webAccess, stateListener, settings, identity, timeline, brokerReady, companion, standbyReplicas);
        }

        /** Runs {@code c} beside the scorer on its cluster, from the broker's first answer until the scorer closes. */
        public Options withCompanion(ClusterCompanion c) {
            return new Options(comparisons, web, webBindHost, webPort, webHost, webAccess, stateListener, evaluation, identity, timeline,
                    brokerReady, c, standbyReplicas);
        }

        /**
         * Who this instance is to its consumer groups (static membership) and transaction coordinators;
         * without one, an id kept in the state directory with dynamic membership.
         */
        public Options withIdentity(MemberIdentity id) {
            return new Options(comparisons, web, webBindHost, webPort, webHost, webAccess, stateListener, evaluation, id, timeline, brokerReady, companion, standbyReplicas);
        }

        /**
         * Warm copies of each task's state on other instances, so a lost instance's tasks resume there without a
         * restore (docs/operations.md, "Failover timing"); null leaves Kafka's default (0) or the -P value.
         */
        public Options withStandbyReplicas(Integer replicas) {
            return new Options(comparisons, web, webBindHost, webPort, webHost, webAccess, stateListener, evaluation, identity,
                    timeline, brokerReady, companion, replicas);
        }
    }

    private final KafkaStreams streams;
    private final Topics topics;
    private final Stores stores;
    private final Topology topology;
    private final SchemaRegistryClient registry;
    private final PrometheusMeterRegistry meters;
    private final StreamsMeters streamsMetrics;
    private final PipelineMetrics pipelineMetrics;
    private final CheckpointPrimaryMeters checkpointMeters;
    private final WebServer web;
    private final EvaluationWorker evaluation;
    private final RestoreLog restores;
    private final AutoCloseable companion;
    private final GoneMemberTransactions goneMembers;

    private ScorerApp(KafkaStreams streams, Topics topics, Stores stores, Topology topology, SchemaRegistryClient registry,
                      PrometheusMeterRegistry meters, StreamsMeters streamsMetrics, PipelineMetrics pipelineMetrics,
                      CheckpointPrimaryMeters checkpointMeters,
                      WebServer web, EvaluationWorker evaluation, RestoreLog restores, AutoCloseable companion,
                      GoneMemberTransactions goneMembers) {
        this.streams = streams;
        this.topics = topics;
        this.stores = stores;
        this.topology = topology;
        this.registry = registry;
        this.meters = meters;
        this.streamsMetrics = streamsMetrics;
        this.pipelineMetrics = pipelineMetrics;
        this.checkpointMeters = checkpointMeters;
        this.web = web;
        this.evaluation = evaluation;
        this.restores = restores;
        this.companion = companion;
        this.goneMembers = goneMembers;
    }

    /** Starts a scorer against existing Kafka and registry endpoints and waits until it runs (no web server). */
    public static ScorerApp start(ScorerSettings settings, String bootstrapServers, String registryUrl, Path stateDir,
                                  Duration startTimeout) {
        return start(settings, Options.defaults(), bootstrapServers, registryUrl, stateDir, startTimeout);
    }

    /** The same, telling {@code stateListener} every Kafka Streams state change (health checks watch it). */
    public static ScorerApp start(ScorerSettings settings, String bootstrapServers, String registryUrl, Path stateDir,
                                  Duration startTimeout, KafkaStreams.StateListener stateListener) {
        return start(settings, Options.defaults().withStateListener(stateListener), bootstrapServers, registryUrl,
                stateDir, startTimeout);
    }

    /** Starts a scorer with the given options and waits until it runs. */
    public static ScorerApp start(ScorerSettings settings, Options options, String bootstrapServers, String registryUrl,
                                  Path stateDir, Duration startTimeout) {
        StartupTimeline timeline = options.timeline() != null ? options.timeline() : StartupTimeline.sinceJvmStart();
        SchemaRegistryClient registry = new SchemaRegistryClient(registryUrl, registryClientConfig(settings));
        Path capsFile = stateDir.resolve(CAPS_FILE);
        // While the embedded broker starts, a restart builds its topology with the record limits the last
        // start read and lets Kafka Streams check its local state stores (it opens and closes every one,
        // tens of seconds on a busy machine) meanwhile. The topics exist: that start created them.
        RecordCaps remembered = options.brokerReady().isDone() ? null : RecordCaps.load(capsFile).orElse(null);
        Assembly early = null;
        RecordCaps caps;
        try {
            if (remembered != null) {
                early = Assembly.build(settings, options, bootstrapServers, registryUrl, stateDir, registry, remembered,
                        timeline);
                early.streams.start(); // returns once it has opened, checked and closed the local state stores
                timeline.mark("local-state-check");
            }
            awaitBroker(options.brokerReady(), startTimeout);
            caps = ensureTopics(settings, bootstrapServers, registry);
            timeline.mark("topics");
            // a scorer joining a running deployment (added, restarted) would otherwise ask the registry for each
            // topic's schema id on its stream threads, one request at a time, when its first records go out
            int cached = registry.prefetch(subject -> subject.startsWith(settings.topicPrefix())
                    || subject.startsWith(settings.applicationId() + "-"), SCHEMA_PREFETCH_BUDGET);
            timeline.mark("schemas");
            LOG.info("schema registry: {} subjects' schema ids cached before the stream threads run", cached);
        } catch (RuntimeException e) {
            if (early != null) {
                early.close();
            }
            registry.close();
            throw e;
        }
        if (early != null && !caps.sameLimits(remembered)) {
            LOG.info("the topics' record limits changed since the last start ({} -> {}): building the topology again",
                    remembered, caps);
            early.close();
            early = null;
        }
        Assembly a = early;
        PipelineMetrics pipeline = null;
        CheckpointPrimaryMeters checkpoints = null;
        EvaluationWorker evaluation = null;
        AutoCloseable companion = null;
        GoneMemberTransactions goneMembers = null;
        try {
            Map<String, Object> clients = ScorerSettings.clientProperties(settings.kafkaOverrides());
            clients.put("bootstrap.servers", bootstrapServers);
            Topics named = new Topics(settings.topicPrefix(), settings.partitions(), settings.replicationFactor(),
                    new AvroSerdes(registry, true));
            // from the broker's first answer on, before the topology runs (the embedded stack's sweep ends a transaction
            // its crashed broker left hanging, which would stop a task before it runs)
            companion = options.companion().start(clients, settings.kafkaOverrides(), scorerPartitions(settings.applicationId(), named));
            checkLimitsFit(InputLimits.of(settings.kafkaOverrides()), caps, named);
            if (a == null) {
                a = Assembly.build(settings, options, bootstrapServers, registryUrl, stateDir, registry, caps, timeline);
            }
            try {
                caps.store(capsFile);
            } catch (java.io.IOException e) {
                LOG.warn("cannot keep the record limits in {} (the next start reads them from the broker first): {}",
                        capsFile, e.toString());
            }
            // joins its group while Streams restores its state: both are ready about together
            evaluation = EvaluationWorker.start(a.topics, a.evaluators, a.artifacts, options.evaluation(), bootstrapServers,
                    evaluationGroup(settings.applicationId()), a.identity, ScorerSettings.clientProperties(settings.kafkaOverrides()),
                    a.meters);
            timeline.mark("evaluation-worker");
            if (early == null) {
                a.streams.start(); // returns once it has opened, checked and closed the local state stores
                timeline.mark("local-state-check");
            }
            // a scorer lost for good: its open transactions end when its members have left, not at their timeout
            goneMembers = new GoneMemberTransactions(clients, settings.applicationId(), GoneMemberTransactions.MIN_AGE)
                    .watch(a.streams::state);
            awaitRunning(a.streams, startTimeout, clients);
            timeline.mark("running");
            // bound once running, so task and processor-node metrics (record e2e latency per node) are there
            // from the first scrape; the binder picks up later ones (rebalances) by itself
            a.streamsMetrics.bindTo(a.meters);
            Map<String, Object> metricsClient = new HashMap<>(clients);
            a.identity.groupInstanceId().ifPresent(id -> metricsClient.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id));
            pipeline = new PipelineMetrics(a.meters, metricsClient, settings.applicationId(), a.topics);
            // every 5 s: a leaderboard row reaches Prometheus within a refresh and a scrape
            checkpoints = new CheckpointPrimaryMeters(a.meters, new StoreQueries(a.streams, a.stores), Duration.ofSeconds(5));
            if (a.web != null) {
                a.web.serve(a.streams, a.topics, a.stores, clients, a.artifacts, a.meters, installedFlags());
            }
        } catch (RuntimeException e) {
            if (pipeline != null) {
                pipeline.close();
            }
            if (checkpoints != null) {
                checkpoints.close();
            }
            if (evaluation != null) {
                evaluation.close(Duration.ZERO);
            }
            closeQuietly(companion);
            closeQuietly(goneMembers);
            if (a != null) {
                a.close();
            }
            registry.close();
            throw e;
        }
        LOG.info("scorer running as {} ({} membership); state restored at start: {}", a.identity.id(),
                a.identity.staticMembership() ? "static" : "dynamic", a.restores.summary());
        LOG.info("start-up{}: {}", early != null ? " (topology and local state prepared while the broker started)" : "",
                timeline.summary());
        return new ScorerApp(a.streams, a.topics, a.stores, a.topology, registry, a.meters, a.streamsMetrics, pipeline, checkpoints, a.web,
                evaluation, a.restores, companion, goneMembers);
    }

    /** The partitions a scorer's transactions write: its topics, Kafka Streams' own, its groups' offsets. */
    static ClusterCompanion.ScorerPartitions scorerPartitions(String app, Topics topics) {
        java.util.Set<String> names = new java.util.HashSet<>();
        topics.definitions().forEach(d -> names.add(d.name()));
        return new ClusterCompanion.ScorerPartitions(t -> names.contains(t) || t.startsWith(app + "-"),
                java.util.Set.of(app, evaluationGroup(app), PipelineMetrics.group(app), defaultJudgeGroup(app)));
    }

    /** Where a start keeps the record limits it read, for the next one. */
    static final String CAPS_FILE = "record-caps.properties";

    /** Creates the missing topics and reads their record limits. */
    private static RecordCaps ensureTopics(ScorerSettings settings, String bootstrapServers, SchemaRegistryClient registry) {
        Topics topics = new Topics(settings.topicPrefix(), settings.partitions(), settings.replicationFactor(),
                new AvroSerdes(registry, true));
        Map<String, Object> adminConfig = ScorerSettings.clientProperties(settings.kafkaOverrides());
        adminConfig.put("bootstrap.servers", bootstrapServers);
        try (Admin admin = Admin.create(adminConfig)) {
            TopicAdmin.ensure(admin, topics.definitions());
            return TopicAdmin.recordCaps(admin, topics.definitions().stream().map(Topics.Definition::name).toList(),
                    settings.applicationId());
        }
    }

    private static void awaitBroker(CompletableFuture<?> ready, Duration timeout) {
        try {
            ready.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the broker was not ready within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        }
    }

    /** The reliability flags of the sources on the class path (META-INF/services), beside the built-in ones. */
    static ReliabilityFlags installedFlags() {
        return new ReliabilityFlags(ServiceLoader.load(ReliabilityFlags.Source.class).stream().map(ServiceLoader.Provider::get).toList());
    }

    /** The topology and the Kafka Streams instance running it, built for one set of record limits; not started. */
    private record Assembly(Topics topics, Stores stores, ArtifactResolver artifacts, EvaluatorRegistry evaluators,
                            Topology topology, MemberIdentity identity, WebServer web, PrometheusMeterRegistry meters, KafkaStreams streams,
                            RestoreLog restores, StreamsMeters streamsMetrics) {

        static Assembly build(ScorerSettings settings, Options options, String bootstrapServers, String registryUrl,
                              Path stateDir, SchemaRegistryClient registry, RecordCaps caps, StartupTimeline timeline) {
            // every record the topology writes is checked against its topic's limit when it is serialized
            AvroSerdes serdes = new AvroSerdes(registry, true).withSizeCap(caps.sizeCap());
            Topics topics = new Topics(settings.topicPrefix(), settings.partitions(), settings.replicationFactor(), serdes);
            ArtifactResolver artifacts = CompositeArtifactResolver.standard(settings.artifactRoots(),
                    settings.maxArtifactBytes(), stateDir.resolve("spill"),
                    settings.artifactHttpAllow().stream().map(HttpArtifactResolver.AllowedHost::parse).toList(),
                    HttpArtifactResolver.DEFAULT_TIMEOUT, settings.artifactS3());
            EvaluatorRegistry evaluators = EvaluatorRegistry.load();
            ScorerContext context = ScorerContext.from(settings, topics, serdes)
                    .tasks(TaskCatalog.load(), evaluators).artifacts(artifacts).rubrics(RubricCatalog.load())
                    .agreementPriors(Table5.of(TaskFamily.installed())).comparisons(options.comparisons()).build();
            Topology topology = ScoringTopology.build(context);
            timeline.mark("topology");
            Properties props = ScoringTopology.streamsConfig(settings, bootstrapServers, registryUrl, stateDir,
                    topics.deadLetter.name(), caps);
            MemberIdentity identity = options.identity() != null ? options.identity()
                    : MemberIdentity.resolve(stateDir, Optional.empty(), MemberIdentity.NONE);
            // static membership: a restarted instance takes its place back at once (Streams adds each thread's index)
            identity.groupInstanceId().ifPresent(id -> props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id));
            if (options.standbyReplicas() != null) {
                props.put(org.apache.kafka.streams.StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, options.standbyReplicas());
            }
            WebServer web = null;
            if (options.web()) {
                try {
                    web = WebServer.bind(options.webBindHost(), options.webPort(), options.webHost(), options.webAccess());
                } catch (java.io.IOException e) {
                    throw new IllegalStateException("cannot start the web server on " + options.webBindHost() + ":"
                            + options.webPort() + ": " + e.getMessage(), e);
                }
                props.put(org.apache.kafka.streams.StreamsConfig.APPLICATION_SERVER_CONFIG,
                        web.hostInfo().host() + ":" + web.hostInfo().port());
            }
            PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            KafkaStreams streams = new KafkaStreams(topology, props);
            streams.setUncaughtExceptionHandler(e -> {
                LOG.error("stream thread failed; replacing it", e);
                return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
            });
            streams.setStateListener(options.stateListener());
            RestoreLog restores = new RestoreLog();
            streams.setGlobalStateRestoreListener(restores);
            return new Assembly(topics, context.stores(), artifacts, evaluators, topology, identity, web, meters, streams,
                    restores, new StreamsMeters(streams::metrics, Duration.ofSeconds(60)));
        }

        void close() {
            if (web != null) {
                web.close();
            }
            streamsMetrics.close();
            closeLeavingGroup(streams);
            meters.close();
        }
    }

    /** The evaluation worker's consumer group: its own, beside the Streams application's. */
    public static String evaluationGroup(String applicationId) {
        return applicationId + "-evaluate";
    }

    /** The judge workers' consumer group unless they are given another (--judge-group). */
    public static String defaultJudgeGroup(String applicationId) {
        return applicationId + "-judge";
    }

    /**
     * Within-limits inputs must give records that fit the smallest topic limit, and dead letters the
     * dead-letter topic: a configuration where they may not is allowed (the serializers' check still
     * dead-letters what does not fit) but warned about, naming what to change.
     */
    static void checkLimitsFit(InputLimits limits, RecordCaps caps, Topics topics) {
        long worst = limits.worstCaseDerivedBytes() + RecordCaps.HEADROOM;
        if (worst > caps.smallest()) {
            LOG.warn("the input limits allow records of up to {} bytes to be derived, over the smallest max.message.bytes "
                    + "of the scorer's topics ({}): lower the mmgr.limits.* settings or raise the topics' (and the broker's "
                    + "message.max.bytes) limit; records that do not fit are dead-lettered", worst, caps.smallest());
        }
        if (DeadLetters.MAX_LETTER_BYTES + RecordCaps.HEADROOM > caps.maxMessageBytes(topics.deadLetter.name())) {
            throw new IllegalStateException("the dead-letter topic " + topics.deadLetter.name() + " takes records of at most "
                    + caps.maxMessageBytes(topics.deadLetter.name()) + " bytes; a dead letter may need "
                    + (DeadLetters.MAX_LETTER_BYTES + RecordCaps.HEADROOM) + ": raise its max.message.bytes");
        }
    }

    static Map<String, Object> registryClientConfig(ScorerSettings settings) {
        return SchemaRegistryClient.configFrom(settings.kafkaOverrides());
    }

    /** How long a start may take before each note of where it waits (threads, open transactions). */
    static final Duration STALL_NOTE = Duration.ofSeconds(30);

    private static void awaitRunning(KafkaStreams streams, Duration timeout, Map<String, Object> adminClient) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long nextNote = start + STALL_NOTE.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING) {
                throw new IllegalStateException("the scorer stopped while starting (state " + streams.state() + ")");
            }
            long now = System.nanoTime();
            if (now > deadline) {
                throw new IllegalStateException("the scorer did not reach RUNNING within " + timeout + " (state " + streams.state()
                        + "; " + threadsNow(streams) + "; open transactions: " + openTransactions(adminClient) + ")");
            }
            if (now > nextNote) {
                // a task waiting for committed offsets waits on a transaction that has not ended: say which
                LOG.warn("not running after {} s (state {}; {}); open transactions: {}", (now - start) / 1_000_000_000L,
                        streams.state(), threadsNow(streams), openTransactions(adminClient));
                nextNote = now + STALL_NOTE.toNanos();
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting the scorer", e);
            }
        }
    }

    private static String openTransactions(Map<String, Object> adminClient) {
        try (Admin admin = Admin.create(adminClient)) {
            return OpenTransactions.describe(admin, Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            return "unknown (" + e + ")";
        }
    }

    /**
     * Where each stream thread is, for a start that hangs: its state and how many tasks it holds, so
     * a rebalance that never completed (no tasks) reads differently from a slow restore.
     */
    static String threadsNow(KafkaStreams streams) {
        try {
            return describeThreads(streams.metadataForLocalThreads());
        } catch (RuntimeException e) {
            return "threads unknown: " + e.getMessage();
        }
    }

    static String describeThreads(java.util.Collection<? extends org.apache.kafka.streams.ThreadMetadata> threads) {
        return threads.stream()
                .map(t -> t.threadName().replaceFirst("^.*-(StreamThread-\\d+)$", "$1") + " " + t.threadState()
                        + " with " + t.activeTasks().size() + " active tasks")
                .sorted()
                .collect(java.util.stream.Collectors.joining(", "));
    }

    public KafkaStreams streams() {
        return streams;
    }

    public Topics topics() {
        return topics;
    }

    public Stores stores() {
        return stores;
    }

    public Topology topology() {
        return topology;
    }

    /** The process's meter registry: every component registers its meters here; /metrics scrapes it. */
    public MeterRegistry meters() {
        return meters;
    }

    public EvaluationWorker evaluation() {
        return evaluation;
    }

    /** What Kafka Streams restored from changelogs since this instance started. */
    public RestoreLog restores() {
        return restores;
    }

    /** The web server, when the options asked for one. */
    public Optional<WebServer> web() {
        return Optional.ofNullable(web);
    }

    @Override
    public void close() {
        if (web != null) {
            web.close();
        }
        pipelineMetrics.close();
        checkpointMeters.close();
        streamsMetrics.close();
        evaluation.close(Duration.ofSeconds(5)); // what finishes meanwhile is written; the rest is done again
        closeQuietly(goneMembers);
        closeLeavingGroup(streams);
        closeQuietly(companion);
        registry.close();
        meters.close();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed: {}", c, e.toString());
        }
    }

    /**
     * Streams stays in its group on close by default (to spare rolling restarts a rebalance); a
     * stopped scorer leaves, so its partitions move at once, not after the session timeout.
     */
    private static void closeLeavingGroup(KafkaStreams streams) {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
    }
}
