package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.bench.ScorerProcess;
import io.mmgr.stream.embedded.EmbeddedKafka;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;

/**
 * A KRaft cluster of Apache Kafka's own server ({@code kafka.Kafka}, the kafka_2.13 jar the scorer's embedded
 * broker also comes from, so the same version as the clients), one OS process per node, on loopback. Every node
 * is broker and controller, as in docker-compose.yml, with its settings: replication factor 3,
 * {@code min.insync.replicas} 2, the transaction state log at 3 replicas and 2 in sync. Nodes are killed with
 * SIGKILL and started again on their data; no node outlives this JVM.
 */
public final class KafkaCluster implements AutoCloseable {

    /**
     * The nodes' JVM options by default. The client compiler only: with C2 its compiler threads took 26.6 of a node's
     * 65.9 CPU-s in the first 2.5 minutes of a cluster run on a 2-core machine, which three nodes, two scorers and a
     * judge worker share; with C1 the cluster was ready in 7.3-11.8 s instead of 13.9-17.6 s and scored its first 100
     * samples 43-75 s into the run instead of 88-100 s, for about the same CPU over a whole run (docs/benchmarks.md,
     * ninth session). The bench's throughput figures are ratios to the raw cluster on the same nodes.
     */
    public static final String BROKER_JVM = "-Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "kill-kafka-nodes"));
    }

    /** What docker-compose.yml sets for its brokers (KAFKA_* variables there), as server properties (ComposeFileTest). */
    public static final Map<String, String> COMPOSE_SETTINGS = Map.of(
            "offsets.topic.replication.factor", "3",
            "transaction.state.log.replication.factor", "3",
            "transaction.state.log.min.isr", "2",
            "default.replication.factor", "3",
            "min.insync.replicas", "2",
            "auto.create.topics.enable", "false",
            "group.initial.rebalance.delay.ms", "0",
            // a transaction left open by a process that died for good is aborted within a second of its timeout,
            // not up to 10 s later (the broker's default scan): see docs/operations.md, "Failover timing"
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000",
            // a restarted node leads its preferred partitions again within 10 s of catching up, not up to 300 s later
            "leader.imbalance.check.interval.seconds", "10");

    /**
     * Sized for three nodes sharing one small machine, not semantics: fewer internal partitions than the 50 each
     * (faster start and failover), the log cleaner's 128 MiB dedupe buffer cut to 8 MiB per node, and, as the
     * embedded broker has them (EmbeddedKafka), small preallocated indexes and four recovery threads: a node
     * killed with kill -9 took 86-95 s to come back at load 25-35, most of it reloading its logs.
     */
    static final Map<String, String> SMALL_MACHINE = Map.of(
            "offsets.topic.num.partitions", "12",
            "transaction.state.log.num.partitions", "12",
            "share.coordinator.state.topic.num.partitions", "3",
            "log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024),
            "log.index.size.max.bytes", String.valueOf(128 * 1024),
            "num.recovery.threads.per.data.dir", "4",
            "num.network.threads", "2",
            "num.io.threads", "4");

    /** One node: its id, ports and data, and its process while it runs. */
    public static final class NodeProcess {
        final int id;
        final int port;
        final int controllerPort;
        final Path dir;
        private final List<String> jvmOptions;
        private Process process;
        private int starts;

        NodeProcess(int id, int port, int controllerPort, Path dir, List<String> jvmOptions) {
            this.id = id;
            this.port = port;
            this.controllerPort = controllerPort;
            this.dir = dir;
            this.jvmOptions = jvmOptions;
        }

        public int id() {
            return id;
        }

        public String address() {
            return "127.0.0.1:" + port;
        }

        public boolean alive() {
            return process != null && process.isAlive();
        }

        void start() throws IOException {
            starts++;
            List<String> cmd = new ArrayList<>(List.of(ScorerProcess.java()));
            cmd.addAll(jvmOptions);
            cmd.addAll(List.of("-cp", ScorerProcess.classpath(), "kafka.Kafka", dir.resolve("server.properties").toString()));
            process = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("kafka-" + starts + ".log").toFile()).start();
            LIVE.add(process);
        }

        /** SIGKILL: no controlled shutdown, leadership moves only once the controller sees the session end. */
        void kill() throws InterruptedException {
            if (process != null) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
                LIVE.remove(process);
            }
        }

        /** SIGTERM: a controlled shutdown (leadership handed over first). */
        void stop() throws InterruptedException {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                LIVE.remove(process);
            }
        }

        Path log() {
            return dir.resolve("kafka-" + starts + ".log");
        }
    }

    private final List<NodeProcess> nodes;
    private final String bootstrap;

    private KafkaCluster(List<NodeProcess> nodes) {
        this.nodes = nodes;
        this.bootstrap = nodes.stream().map(NodeProcess::address).collect(Collectors.joining(","));
    }

    /**
     * Writes each node's configuration, formats its storage and starts all nodes; returns once the cluster
     * answers with every node registered.
     *
     * @param jvmOptions each node's JVM options, e.g. -Xmx512m
     * @param transactionVersion the {@code transaction.version} feature the storage is formatted with, 0 for Kafka's
     *                           default (2 since Kafka 4.0)
     */
    public static KafkaCluster start(Path dir, int size, List<String> jvmOptions, int transactionVersion, Duration timeout)
            throws Exception {
        List<NodeProcess> nodes = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            int port = EmbeddedKafka.freePort();
            int controller = EmbeddedKafka.freePort();
            while (controller == port) {
                controller = EmbeddedKafka.freePort();
            }
            nodes.add(new NodeProcess(i, port, controller, dir.resolve("kafka-" + i), List.copyOf(jvmOptions)));
        }
        String voters = nodes.stream().map(n -> n.id + "@127.0.0.1:" + n.controllerPort).collect(Collectors.joining(","));
        String clusterId = Uuid.randomUuid().toString();
        for (NodeProcess n : nodes) {
            Files.createDirectories(n.dir);
            Path config = n.dir.resolve("server.properties");
            try (Writer w = Files.newBufferedWriter(config)) {
                properties(n, voters).store(w, "node " + n.id + " of the cluster harness");
            }
            format(config, clusterId, transactionVersion);
        }
        KafkaCluster cluster = new KafkaCluster(nodes);
        try {
            for (NodeProcess n : nodes) {
                n.start();
            }
            cluster.awaitNodes(size, timeout);
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    static Properties properties(NodeProcess n, String voters) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(n.id));
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + n.port + ",CONTROLLER://127.0.0.1:" + n.controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + n.port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        p.put("controller.quorum.voters", voters);
        p.put("log.dirs", n.dir.resolve("data").toAbsolutePath().toString());
        p.putAll(COMPOSE_SETTINGS);
        p.putAll(SMALL_MACHINE);
        return p;
    }

    private static void format(Path config, String clusterId, int transactionVersion) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("format", "-t", clusterId, "-c", config.toString()));
        if (transactionVersion > 0) {
            args.addAll(List.of("--feature", "transaction.version=" + transactionVersion));
        }
        int rc;
        try (PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            rc = StorageTool.execute(args.toArray(String[]::new), ps);
        }
        if (rc != 0) {
            throw new IllegalStateException("formatting " + config + " failed: " + out.toString(StandardCharsets.UTF_8));
        }
    }

    public String bootstrapServers() {
        return bootstrap;
    }

    public Map<String, Object> clientConfig() {
        return new HashMap<>(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    public List<NodeProcess> nodes() {
        return List.copyOf(nodes);
    }

    public NodeProcess node(int id) {
        return nodes.stream().filter(n -> n.id == id).findFirst().orElseThrow();
    }

    /** SIGKILL of one node. */
    public void kill(int id) throws InterruptedException {
        node(id).kill();
    }

    /** Controlled shutdown of one node. */
    public void stop(int id) throws InterruptedException {
        node(id).stop();
    }

    /**
     * Starts a stopped or killed node again on its data and waits until it answers itself and the cluster counts
     * every node (the controller may still count a killed node's old session; asking the node itself tells).
     */
    public void restart(int id, Duration timeout) throws Exception {
        NodeProcess n = node(id);
        n.start();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin self = admin(n.address())) {
            while (true) {
                if (!n.process.isAlive()) {
                    throw new IllegalStateException("Kafka node " + id + " exited with " + n.process.exitValue() + "; see " + n.log());
                }
                try {
                    if (self.describeCluster().nodes().get(5, TimeUnit.SECONDS).stream().anyMatch(x -> x.id() == id)) {
                        self.listTopics().names().get(5, TimeUnit.SECONDS);
                        break;
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException notYet) {
                    // still loading its logs
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Kafka node " + id + " did not answer within " + timeout + "; see " + n.log());
                }
                Thread.sleep(200);
            }
        }
        awaitNodes(nodes.size(), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        awaitMetadataCaughtUp(id, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    /**
     * Waits until node {@code id} has the metadata log up to the quorum's high watermark. Until then a node just back
     * answers from the image it had when it died: every partition led as before (a fault's wait for the preferred
     * leaders once ended 2.6 s after a return on that view, while the node led none).
     */
    public void awaitMetadataCaughtUp(int id, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin()) {
            while (true) {
                org.apache.kafka.clients.admin.QuorumInfo q = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS);
                boolean caughtUp = java.util.stream.Stream.concat(q.voters().stream(), q.observers().stream())
                        .anyMatch(r -> r.replicaId() == id && r.logEndOffset() >= q.highWatermark());
                if (caughtUp) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Kafka node " + id + " did not catch up with the metadata log within " + timeout);
                }
                Thread.sleep(200);
            }
        }
    }

    private Admin admin() {
        return admin(bootstrap);
    }

    private static Admin admin(String bootstrap) {
        Map<String, Object> conf = new HashMap<>(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        return Admin.create(conf);
    }

    /** Waits until {@code count} brokers are registered and the metadata answers. */
    void awaitNodes(int count, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin()) {
            while (true) {
                for (NodeProcess n : nodes) {
                    if (n.process != null && !n.process.isAlive() && n.process.exitValue() != 137) {
                        throw new IllegalStateException("Kafka node " + n.id + " exited with " + n.process.exitValue()
                                + "; see " + n.log());
                    }
                }
                try {
                    if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= count) {
                        admin.listTopics().names().get(5, TimeUnit.SECONDS);
                        return;
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException notYet) {
                    // not answering yet
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the Kafka cluster did not have " + count + " brokers within " + timeout
                            + "; logs in " + nodes.get(0).dir.getParent());
                }
                Thread.sleep(200);
            }
        }
    }

    /** Every partition of every topic (internal ones included) with its description. */
    public Map<String, TopicDescription> describeAll() throws Exception {
        try (Admin admin = admin()) {
            Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(30, TimeUnit.SECONDS);
            return admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
        }
    }

    /** Partitions led per node id. */
    public Map<Integer, Integer> leadership() throws Exception {
        return leaders().led();
    }

    /**
     * Partitions led per node, and how many are led by another node than their preferred replica (the first of their
     * replicas): what the controller's preferred-leader election has still to move back after a node's return.
     */
    public record Leaders(Map<Integer, Integer> led, int notPreferred) {
        @Override
        public String toString() {
            return led + (notPreferred == 0 ? "" : ", " + notPreferred + " partitions led by another node than their preferred replica");
        }
    }

    /** Who leads what now, from one description of every topic. */
    public Leaders leaders() throws Exception {
        Map<Integer, Integer> led = new TreeMap<>();
        nodes.forEach(n -> led.put(n.id, 0));
        int notPreferred = 0;
        for (TopicDescription t : describeAll().values()) {
            for (TopicPartitionInfo p : t.partitions()) {
                if (p.leader() != null) {
                    led.merge(p.leader().id(), 1, Integer::sum);
                }
                if (p.leader() == null || p.replicas().isEmpty() || p.leader().id() != p.replicas().get(0).id()) {
                    notPreferred++;
                }
            }
        }
        return new Leaders(led, notPreferred);
    }

    /** The node leading the most partitions. */
    public int busiestLeader() throws Exception {
        return leadership().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /** The active controller: the KRaft quorum's leader. */
    public int activeController() throws Exception {
        try (Admin admin = admin()) {
            return admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
        }
    }

    /** Partitions whose in-sync replicas are fewer than their replicas. */
    public int underReplicated() throws Exception {
        int n = 0;
        for (TopicDescription t : describeAll().values()) {
            for (TopicPartitionInfo p : t.partitions()) {
                if (p.isr().size() < p.replicas().size()) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Waits until every partition has all its replicas in sync: before a rolling restart takes the next node
     * down, as an operator does, or partitions would fall below {@code min.insync.replicas}.
     */
    public void awaitFullIsr(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        int left;
        while ((left = underReplicated()) > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(left + " partitions still under-replicated after " + timeout);
            }
            Thread.sleep(500);
        }
    }

    @Override
    public void close() {
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (NodeProcess n : nodes) {
            // together: one by one, each controlled shutdown would wait on moving leadership to the others
            stops.add(CompletableFuture.runAsync(() -> {
                try {
                    n.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        stops.forEach(CompletableFuture::join);
    }
}
