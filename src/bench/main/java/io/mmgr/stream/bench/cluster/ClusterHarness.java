package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.bench.ScorerProcess;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;

/**
 * The production shape of docker-compose.yml on loopback, each piece its own OS process: a three-node KRaft
 * cluster ({@link KafkaCluster}), Apicurio Registry ({@link ApicurioProcess}), {@code mmgr run} scorers sharing one
 * application id, and an {@code mmgr judge-worker} against the scripted provider (which runs in this JVM, as a
 * provider runs elsewhere). Every process logs to its own file under the harness directory; {@link #close()} kills
 * whatever still runs.
 */
public final class ClusterHarness implements AutoCloseable {

    public static final String APPLICATION_ID = "cluster-app";
    public static final String PREFIX = "cl.";
    /** The variable holding the judge's key: not an MMGR_ one, which the children never inherit. */
    static final String KEY_ENV = "CLUSTER_JUDGE_KEY";
    private static final Pattern DASHBOARD = Pattern.compile("Dashboard\\s+: (http://[^\\s/]+)/");

    /**
     * @param dir          every process's data and log, one folder each
     * @param partitions   partitions of the scorer's topics
     * @param threads      stream threads per scorer
     * @param brokerJvm    each Kafka node's JVM options
     * @param childJvm     each scorer's and the judge worker's JVM options
     * @param providerLatency how long the scripted provider takes to answer
     * @param timeout      how long one process may take to start
     * @param transactionVersion the brokers' {@code transaction.version}, 0 for Kafka's default (2)
     * @param scorerProperties each scorer's {@code -P} settings, {@code key=value}
     */
    public record Settings(Path dir, int partitions, int threads, List<String> brokerJvm, List<String> childJvm,
                           Duration providerLatency, Duration timeout, int transactionVersion,
                           List<String> scorerProperties) {
        public Settings {
            scorerProperties = List.copyOf(scorerProperties);
        }
    }

    private final Settings settings;
    private final KafkaCluster kafka;
    private final ApicurioProcess registry;
    private final ScriptedVlmServer provider;
    private final SchemaRegistryClient registryClient;
    private final Topics topics;
    private final List<ScorerProcess> scorers = new ArrayList<>();
    private ScorerProcess judge;
    private int scorerCount;

    private ClusterHarness(Settings settings, KafkaCluster kafka, ApicurioProcess registry, ScriptedVlmServer provider) {
        this.settings = settings;
        this.kafka = kafka;
        this.registry = registry;
        this.provider = provider;
        this.registryClient = new SchemaRegistryClient(registry.ccompatUrl());
        this.topics = new Topics(PREFIX, settings.partitions(), (short) 3, new AvroSerdes(registryClient, true));
    }

    /** Starts the cluster and the registry side by side, then the provider; no scorer yet. */
    public static ClusterHarness start(Settings s, PrintWriter out) throws Exception {
        Files.createDirectories(s.dir());
        long t0 = System.nanoTime();
        CompletableFuture<ApicurioProcess> registry = CompletableFuture.supplyAsync(() -> {
            try {
                return ApicurioProcess.start(apicurioHome(), s.dir().resolve("apicurio.log"), s.timeout());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        KafkaCluster kafka = null;
        try {
            kafka = KafkaCluster.start(s.dir(), 3, s.brokerJvm(), s.transactionVersion(), s.timeout());
            out.printf("Kafka cluster of 3 KRaft nodes ready at %s%s (%.1f s)%n", kafka.bootstrapServers(),
                    s.transactionVersion() > 0 ? ", transaction.version " + s.transactionVersion() : "", (System.nanoTime() - t0) / 1e9);
            ApicurioProcess apicurio = registry.join();
            out.printf("Apicurio Registry ready at %s (%.1f s)%n", apicurio.ccompatUrl(), (System.nanoTime() - t0) / 1e9);
            ScriptedVlmServer provider = ScriptedVlmServer.start(e -> ScriptedVlmServer.Action.ok(s.providerLatency(),
                    MixedLoad.verdict(e.caseName())));
            out.flush();
            return new ClusterHarness(s, kafka, apicurio, provider);
        } catch (Exception | Error e) {
            if (kafka != null) {
                kafka.close();
            }
            registry.handle((r, x) -> {
                if (r != null) {
                    closeQuietly(r);
                }
                return null;
            }).join();
            throw e;
        }
    }

    /**
     * Where the build unpacked Apicurio: {@code apicurio.home} (tests), else the bench module's target under
     * {@code bin/mmgr}'s home or here (src/bench/target/apicurio, where the module build puts it).
     */
    static Path apicurioHome() {
        String home = System.getProperty("apicurio.home");
        if (home != null) {
            return Path.of(home);
        }
        String mmgr = System.getProperty("mmgr.home");
        Path root = mmgr != null ? Path.of(mmgr) : Path.of("");
        return root.resolve(Path.of("src", "bench", "target", "apicurio")).toAbsolutePath();
    }

    private List<String> scorerArgs(int index) {
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", kafka.bootstrapServers(), "--schema-registry-url",
                registry.ccompatUrl(), "--application-id", APPLICATION_ID, "--topic-prefix", PREFIX,
                "--partitions", String.valueOf(settings.partitions()), "--replication-factor", "3",
                "--threads", String.valueOf(settings.threads()), "--judge-external",
                "--artifact-root", artifacts().toString(),
                // static membership as in docker-compose.yml: one id per instance
                "--group-instance-id", "scorer-" + index, "--web-port", "0"));
        for (String p : settings.scorerProperties()) {
            args.add("-P");
            args.add(p);
        }
        return args;
    }

    /** Where the image samples' files are, readable by every scorer. */
    public Path artifacts() {
        return settings.dir().resolve("artifacts");
    }

    /**
     * Starts {@code count} more scorers side by side (every one must start; they create the topics, as in a first
     * deployment), then the judge worker, which reads the judge-request topic's partitions.
     */
    public List<ScorerProcess> startScorers(int count, boolean withJudgeWorker) throws Exception {
        Files.createDirectories(artifacts());
        List<ScorerProcess> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = ++scorerCount;
            started.add(new ScorerProcess(settings.dir().resolve("scorer-" + index), settings.childJvm(), scorerArgs(index)));
        }
        List<CompletableFuture<Duration>> starting = new ArrayList<>();
        for (ScorerProcess p : started) {
            starting.add(CompletableFuture.supplyAsync(() -> startProcess(p)));
        }
        scorers.addAll(started);
        if (withJudgeWorker) {
            // the worker reads the judge-request topic's partitions: it starts once the scorers have created the
            // topics, beside the rest of their start (their first rebalance), not after it
            awaitTopic(topics.judgeRequests.name(), starting);
            judge = ScorerProcess.judgeWorker(settings.dir().resolve("judge-worker"), settings.childJvm(), judgeArgs(),
                    Map.of(KEY_ENV, "cluster-harness-key"));
            starting.add(CompletableFuture.supplyAsync(() -> startProcess(judge)));
        }
        CompletableFuture.allOf(starting.toArray(CompletableFuture[]::new)).join();
        return started;
    }

    /** Returns once {@code topic} exists; a scorer that failed to start meanwhile fails it. */
    private void awaitTopic(String topic, List<CompletableFuture<Duration>> starting) throws Exception {
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        try (Admin admin = Admin.create(clientConfig())) {
            while (!admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(topic)) {
                for (CompletableFuture<Duration> f : starting) {
                    if (f.isCompletedExceptionally()) {
                        f.join();
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no scorer created " + topic + " within " + settings.timeout());
                }
                Thread.sleep(200);
            }
        }
    }

    private Duration startProcess(ScorerProcess p) {
        try {
            return p.start(settings.timeout());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Calls the judge worker keeps in flight. The judged lane's capacity is this over the provider's latency: with 4
     * and 300 ms, 13 requests/s against the 9.75/s the bench's 30 events/s bring (judged and video samples), so the
     * backlog of a 12 s broker failover took 36 s to drain and judged scores went 34-48 s without one (a run of
     * every fault, docs/benchmarks.md, ninth session). A deployment sizes it to its load the same way.
     */
    static final int JUDGE_CONCURRENCY = 8;

    private List<String> judgeArgs() {
        return List.of("--bootstrap-servers", kafka.bootstrapServers(), "--schema-registry-url", registry.ccompatUrl(),
                "--application-id", APPLICATION_ID, "--topic-prefix", PREFIX,
                "--judge-protocol", "gemini", "--judge-base-url", provider.geminiBaseUrl(), "--judge-model", "cluster-judge",
                "--judge-api-key-env", KEY_ENV, "--judge-rps", "100", "--judge-concurrency", String.valueOf(JUDGE_CONCURRENCY), "--judge-timeout", "PT10S",
                "--artifact-root", artifacts().toString(), "--group-instance-id", "judge-1");
    }

    /** SIGKILL of the judge worker, mid-batch; {@link #restartJudgeWorker} brings it back on its data. */
    public void killJudgeWorker() throws InterruptedException {
        judge.kill();
    }

    public Duration restartJudgeWorker() throws Exception {
        return judge.start(settings.timeout());
    }

    /** The running scorers, oldest first. */
    public List<ScorerProcess> scorers() {
        return scorers.stream().filter(ScorerProcess::alive).toList();
    }

    /**
     * Partitions of the generations topic each running scorer's stream threads hold, by scorer, from the group's
     * assignment: the tasks that read them are the ones that write every score (sub-topology 1). Kafka Streams' static
     * members are {@code <instance id>-<thread>}, and a scorer's instance id is its directory's name.
     */
    public Map<ScorerProcess, Integer> generationsHeld() throws Exception {
        Map<ScorerProcess, Integer> held = new java.util.LinkedHashMap<>();
        try (Admin admin = Admin.create(clientConfig())) {
            var group = admin.describeConsumerGroups(List.of(APPLICATION_ID)).all().get(10, TimeUnit.SECONDS).get(APPLICATION_ID);
            for (ScorerProcess s : scorers()) {
                String id = s.dataDir().getFileName().toString();
                held.put(s, (int) group.members().stream()
                        .filter(m -> m.groupInstanceId().filter(i -> i.equals(id) || i.startsWith(id + "-")).isPresent())
                        .flatMap(m -> m.assignment().topicPartitions().stream())
                        .filter(tp -> tp.topic().equals(topics.generations.name())).count());
            }
        }
        return held;
    }

    /** A scorer's dashboard and REST API root, e.g. {@code http://127.0.0.1:40123}, from its banner. */
    public static String webRoot(ScorerProcess scorer) {
        Matcher m = DASHBOARD.matcher(scorer.log());
        if (!m.find()) {
            throw new IllegalStateException("no dashboard address in " + scorer.logFile());
        }
        return m.group(1);
    }

    public KafkaCluster kafka() {
        return kafka;
    }

    public ScriptedVlmServer provider() {
        return provider;
    }

    public Topics topics() {
        return topics;
    }

    public ScorerProcess judgeWorker() {
        return judge;
    }

    public Map<String, Object> clientConfig() {
        return kafka.clientConfig();
    }

    /** Stops every scorer and the judge worker cleanly, side by side (one by one, each stop would rebalance the rest). */
    public void stopClients() {
        List<ScorerProcess> all = new ArrayList<>(scorers());
        if (judge != null && judge.alive()) {
            all.add(judge);
        }
        all.stream().map(p -> CompletableFuture.runAsync(() -> {
            try {
                p.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })).toList().forEach(CompletableFuture::join);
    }

    @Override
    public void close() {
        for (ScorerProcess p : scorers) {
            closeQuietly(p);
        }
        if (judge != null) {
            closeQuietly(judge);
        }
        provider.close();
        registryClient.close();
        closeQuietly(registry);
        kafka.close();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing everything else matters more
        }
    }
}
