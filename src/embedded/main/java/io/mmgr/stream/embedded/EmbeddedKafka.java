package io.mmgr.stream.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft broker (combined broker and controller) running in this JVM, for the
 * embedded default and the tests. Its log directory survives restarts, and so do its ports
 * (kept in {@code ports.properties}), because the KRaft quorum records the controller's endpoint.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);

    /**
     * A SASL/PLAIN client listener beside the plaintext one, for testing clients that authenticate.
     *
     * @param port  its port on loopback
     * @param users user name to password
     */
    public record SaslPlain(int port, Map<String, String> users) {
    }

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final String saslBootstrapServers;
    private final Path dataDir;
    private final Duration startTime;

    private EmbeddedKafka(KafkaRaftServer server, String bootstrapServers, String saslBootstrapServers, Path dataDir,
                          Duration startTime) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.saslBootstrapServers = saslBootstrapServers;
        this.dataDir = dataDir;
        this.startTime = startTime;
    }

    /**
     * Starts (formatting on first use) a broker whose data lives in {@code dataDir}.
     *
     * @param preferredPort client port to use on first start; 0 picks a free one
     */
    public static EmbeddedKafka start(Path dataDir, int preferredPort) {
        return start(dataDir, preferredPort, Map.of(), null);
    }

    /**
     * @param overrides broker properties applied last (tests tune timeouts with them)
     * @param sasl      an extra SASL/PLAIN listener, or null
     */
    public static EmbeddedKafka start(Path dataDir, int preferredPort, Map<String, String> overrides, SaslPlain sasl) {
        return prepare(dataDir, preferredPort, overrides, sasl).startup();
    }

    /**
     * Starts the broker on a new thread and returns at once with its address (its ports are chosen, or
     * read back, before it starts), so that start-up work that does not need the broker can go on
     * meanwhile; {@link Starting#ready()} completes when it answers.
     */
    public static Starting startInBackground(Path dataDir, int preferredPort) {
        Prepared prepared = prepare(dataDir, preferredPort, Map.of(), null);
        CompletableFuture<EmbeddedKafka> ready = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                ready.complete(prepared.startup());
            } catch (Throwable e) {
                ready.completeExceptionally(e);
            }
        }, "mmgr-broker-start");
        t.setDaemon(true);
        t.start();
        return new Starting(prepared.bootstrap, ready);
    }

    /** A broker being started: its client address, known before it is up, and when it is. */
    public record Starting(String bootstrapServers, CompletableFuture<EmbeddedKafka> ready) {
    }

    /** Ports chosen and configuration written, storage formatted on first use; not started yet. */
    private record Prepared(Path dataDir, Path logDir, Properties props, String bootstrap, SaslPlain sasl, long t0) {

        EmbeddedKafka startup() {
            KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
            server.startup();
            awaitReady(bootstrap, Duration.ofSeconds(60));
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            LOG.info("Kafka broker ready at {} in {} ms (data in {})", bootstrap, took.toMillis(), logDir);
            return new EmbeddedKafka(server, bootstrap, sasl == null ? null : "127.0.0.1:" + sasl.port(), dataDir, took);
        }
    }

    private static Prepared prepare(Path dataDir, int preferredPort, Map<String, String> overrides, SaslPlain sasl) {
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(dataDir);
            Path logDir = dataDir.resolve("kafka-logs");
            Ports ports = Ports.loadOrChoose(dataDir.resolve("ports.properties"), preferredPort);
            Properties props = brokerProperties(logDir, ports);
            if (sasl != null) {
                addSaslListener(props, sasl);
            }
            props.putAll(overrides);
            Path configFile = dataDir.resolve("server.properties");
            try (Writer w = Files.newBufferedWriter(configFile)) {
                props.store(w, "written by mmgr-stream on each start");
            }
            if (!Files.exists(logDir.resolve("meta.properties"))) {
                format(configFile);
            }
            return new Prepared(dataDir, logDir, props, "127.0.0.1:" + ports.broker, sasl, t0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded Kafka broker in " + dataDir, e);
        }
    }

    private static Properties brokerProperties(Path logDir, Ports ports) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + ports.broker + ",CONTROLLER://127.0.0.1:" + ports.controller);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + ports.broker);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + ports.controller);
        p.put("log.dirs", logDir.toAbsolutePath().toString());
        // one node: every internal topic has one replica
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "4");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "4");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("min.insync.replicas", "1");
        p.put("default.replication.factor", "1");
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "false");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        // After a kill -9 the broker re-reads every log from its recovery point (CRCs, indexes, producer
        // state), and the group and transaction coordinators replay their whole topics. By default the
        // recovery point only moves when a 1 GiB segment rolls, and the coordinators' 100 MiB segments
        // are never compacted on a small node, so a crash of a scorer that ran for a while cost the next
        // start tens of seconds (docs/operations.md: Restarts). Flushing dirty logs every second and writing the
        // recovery points as often bounds that replay to the last second; small coordinator segments
        // let the cleaner compact them.
        // The recovery point alone does not bound the replay: Kafka 4.4's LogLoader.recoverLog() recovers
        // the segments from the one *containing* the recovery point, so the active segment is always read
        // again in full (CRCs, indexes, producer state) after an unclean stop, however fresh the point is.
        // Segments of 16 MiB bound that to 16 MiB a partition (64 MiB held a whole 100,000-sample run's
        // partitions in their active segments) and let the cleaner compact changelogs sooner, so less is
        // restored from them. A topic's max.message.bytes must stay below its segment size (the broker
        // refuses larger batches): 16 MiB leaves room for limits raised to 8 MiB.
        p.put("log.flush.interval.ms", "1000");
        p.put("log.flush.scheduler.interval.ms", "1000");
        p.put("log.flush.offset.checkpoint.interval.ms", "1000");
        p.put("log.flush.start.offset.checkpoint.interval.ms", "1000");
        p.put("offsets.topic.segment.bytes", String.valueOf(4 * 1024 * 1024));
        p.put("transaction.state.log.segment.bytes", String.valueOf(4 * 1024 * 1024));
        p.put("log.segment.bytes", String.valueOf(16 * 1024 * 1024));
        // Every active segment's offset and time indexes are preallocated at log.index.size.max.bytes
        // (10 MiB by default) and, after an unclean stop, opened, read at their last entry, rebuilt and
        // trimmed again: about 700 such mappings on this node's 344 partitions took half of the broker's
        // log loading after a kill -9 (5.7-7.2 s against 3.3-3.5 s with 1 MiB, load 9-12). A 16 MiB
        // segment indexed every 4 KiB (log.index.interval.bytes) holds at most 4,096 entries: 32 KiB of
        // offset index, 48 KiB of time index. A full index only rolls the segment early.
        p.put("log.index.size.max.bytes", String.valueOf(128 * 1024));
        // Recovering a log after a kill -9 waits on the disk as much as it computes (a producer-state
        // snapshot is fsynced per recovered segment, 10 ms each here): 4 threads instead of 2 overlap
        // those waits on a 2-core node.
        p.put("num.recovery.threads.per.data.dir", "4");
        // After a kill -9 the restarted controller still counts the dead broker's session as live and
        // refuses the new incarnation's registration ("Another broker is registered with that broker id",
        // ClusterControlManager) until that session expires: broker.session.timeout.ms, 9 s by default.
        // One node in one process: heartbeats go over loopback, so a shorter session costs nothing.
        p.put("broker.heartbeat.interval.ms", "1000");
        p.put("broker.session.timeout.ms", "4000");
        return p;
    }

    private static void addSaslListener(Properties p, SaslPlain sasl) {
        p.put("listeners", p.getProperty("listeners") + ",SASL_PLAINTEXT://127.0.0.1:" + sasl.port());
        p.put("advertised.listeners", p.getProperty("advertised.listeners") + ",SASL_PLAINTEXT://127.0.0.1:" + sasl.port());
        p.put("listener.security.protocol.map", p.getProperty("listener.security.protocol.map") + ",SASL_PLAINTEXT:SASL_PLAINTEXT");
        p.put("sasl.enabled.mechanisms", "PLAIN");
        StringBuilder jaas = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
        sasl.users().forEach((user, password) -> jaas.append(" user_").append(user).append("=\"").append(password).append('"'));
        p.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", jaas.append(';').toString());
    }

    private static void format(Path configFile) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc;
        try (PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            rc = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(),
                    "-c", configFile.toString(), "--standalone"}, ps);
        }
        if (rc != 0) {
            throw new IllegalStateException("formatting the KRaft storage failed: " + out.toString(StandardCharsets.UTF_8));
        }
    }

    private static void awaitReady(String bootstrap, Duration timeout) {
        Map<String, Object> conf = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(conf)) {
            while (true) {
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    // the controller must also answer: listing topics goes through metadata
                    admin.listTopics().names().get(5, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException | TimeoutException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the embedded broker did not become ready within " + timeout, e);
                    }
                    Thread.sleep(100);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the embedded broker", e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The SASL/PLAIN listener's address, or null when it was not asked for. */
    public String saslBootstrapServers() {
        return saslBootstrapServers;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Wall time from {@link #start} to a broker answering metadata requests. */
    public Duration startTime() {
        return startTime;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    /** Client and controller ports, chosen once and kept with the data. */
    private record Ports(int broker, int controller) {

        static Ports loadOrChoose(Path file, int preferredBroker) throws IOException {
            if (Files.exists(file)) {
                Properties p = new Properties();
                try (Reader r = Files.newBufferedReader(file)) {
                    p.load(r);
                }
                return new Ports(Integer.parseInt(p.getProperty("broker")), Integer.parseInt(p.getProperty("controller")));
            }
            int broker = preferredBroker > 0 && isFree(preferredBroker) ? preferredBroker : freePort();
            int controller = freePort();
            while (controller == broker) {
                controller = freePort();
            }
            Properties p = new Properties();
            p.setProperty("broker", String.valueOf(broker));
            p.setProperty("controller", String.valueOf(controller));
            try (Writer w = Files.newBufferedWriter(file)) {
                p.store(w, "ports of the embedded broker; the KRaft quorum remembers the controller's");
            }
            return new Ports(broker, controller);
        }
    }

    static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port that was free a moment ago on loopback. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
