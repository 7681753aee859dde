package io.mmgr.stream.bench;

import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.GenerationRecords;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * How long {@code mmgr run} (embedded broker) takes to score again after it is killed with SIGKILL,
 * stopped cleanly, or started without its local state, and how much state it restores each time. A
 * child JVM runs the scorer; this process first scores {@code stateSamples} samples (the state), then
 * keeps a steady load of events coming and restarts the child under it. "Scoring again" is the first
 * score of an event produced after the kill, as a reader of {@code sample-scores} sees it.
 */
public final class RestartBench {

    private static final Pattern RESTORED = Pattern.compile("state restored at start: (\\d+) records into (\\d+) store "
            + "partitions \\(([0-9.]+) s summed over partitions\\)");
    private static final Pattern READY_IN = Pattern.compile("scorer running \\(ready in ([0-9.]+) s\\)");
    /** ScorerApp's line; the note in brackets says when the topology was prepared while the broker started. */
    private static final Pattern STARTUP = Pattern.compile("start-up((?: \\([^)]*\\))?: .*)");

    /**
     * @param kills          SIGKILL restarts
     * @param cleanRestart   also one SIGTERM restart
     * @param wipedRestart   also one restart with the Streams state directory deleted (everything restored)
     * @param rate           events per second of the steady load during the restarts
     * @param settle         how long the load runs between restarts
     * @param reference      measure the reference (a new JVM starting a broker alone) before the restarts and again at
     *                       the end (how the load changed meanwhile); a caller that only checks the restarts skips it
     */
    public record Settings(Path dataDir, int partitions, int threads, long stateSamples, int kills, boolean cleanRestart,
                           boolean wipedRestart, double rate, Duration settle, int brokerPort, int registryPort,
                           List<String> jvmOptions, List<String> runArgs, Duration timeout, boolean reference) {
    }

    /**
     * One restart: from the kill (or stop) to the new banner, and to the first fresh score; the CPU time
     * the new process had used by then (what contention on a shared machine changes least); its
     * start-up steps as it logged them.
     */
    public record Restart(String kind, Duration toBanner, Duration toScore, double readyIn, long restoredRecords,
                          double restoreSeconds, String loadAverage, Duration cpuToScore, String startup) {
        public String row() {
            return String.format(Locale.ROOT, "  %-8s %8.1f s %10.1f s %9.1f s %12d %9.1f s %8.1f s   %s", kind,
                    toBanner.toMillis() / 1000.0, toScore.toMillis() / 1000.0, readyIn, restoredRecords, restoreSeconds,
                    cpuToScore.toMillis() / 1000.0, loadAverage);
        }
    }

    private RestartBench() {
    }

    public static List<Restart> run(Settings s, PrintWriter out) throws Exception {
        List<String> args = new ArrayList<>(List.of("--broker-port", String.valueOf(s.brokerPort()), "--registry-port",
                String.valueOf(s.registryPort()), "--no-web", "--partitions", String.valueOf(s.partitions()),
                "--threads", String.valueOf(s.threads())));
        args.addAll(s.runArgs());
        List<Restart> restarts = new ArrayList<>();
        if (s.reference()) {
            // the reference, in the same run window: a new JVM starting a broker alone
            BrokerColdStart.Result before = BrokerColdStart.measure(s.jvmOptions(), s.dataDir().resolveSibling(
                    s.dataDir().getFileName() + "-reference"), s.timeout());
            out.printf("reference (new JVM, empty broker): %s, load average %s%n", before.describe(), loadAverage());
            out.flush();
        }
        try (ScorerProcess scorer = new ScorerProcess(s.dataDir(), s.jvmOptions(), args)) {
            Duration first = scorer.start(s.timeout());
            out.printf("scorer started in %.1f s (%s)%n", first.toMillis() / 1000.0, s.dataDir());
            Endpoints ep = Endpoints.read(s.dataDir()).orElseThrow(() -> new IllegalStateException("no endpoints file"));
            try (SchemaRegistryClient registry = new SchemaRegistryClient(ep.registryUrl())) {
                Topics topics = new Topics(ep.topicPrefix(), s.partitions(), (short) 1, new AvroSerdes(registry, true));
                Map<String, Object> client = new HashMap<>(Map.of("bootstrap.servers", ep.bootstrapServers()));
                if (s.stateSamples() > 0) {
                    MagmaWorkload state = new MagmaWorkload(1000, 5, 11, "state-");
                    LoadReport report = new LoadRunner(client, topics).run(state, "restart-state", s.stateSamples(), 0,
                            s.timeout(), n -> { });
                    out.println("state: " + report.summary());
                }
                out.flush();
                MagmaWorkload load = new MagmaWorkload(200, 5, 13, "load-");
                try (SteadyPublisher publisher = new SteadyPublisher(client, topics, load, s.rate());
                     ScoreWatcher watcher = new ScoreWatcher(client, topics)) {
                    publisher.start();
                    watcher.awaitProducedAfter(System.currentTimeMillis(), s.timeout()); // the load is scored
                    for (int k = 0; k < s.kills(); k++) {
                        Thread.sleep(s.settle().toMillis());
                        restarts.add(restart("kill -9", scorer, watcher, s, false, false));
                        out.println(restarts.get(restarts.size() - 1).row());
                        out.println("    " + restarts.get(restarts.size() - 1).startup());
                        out.flush();
                    }
                    if (s.cleanRestart()) {
                        Thread.sleep(s.settle().toMillis());
                        restarts.add(restart("clean", scorer, watcher, s, true, false));
                        out.println(restarts.get(restarts.size() - 1).row());
                        out.println("    " + restarts.get(restarts.size() - 1).startup());
                    }
                    if (s.wipedRestart()) {
                        Thread.sleep(s.settle().toMillis());
                        restarts.add(restart("no state", scorer, watcher, s, true, true));
                        out.println(restarts.get(restarts.size() - 1).row());
                        out.println("    " + restarts.get(restarts.size() - 1).startup());
                    }
                    out.printf("steady load: %d events sent at %.0f/s%n", publisher.sent(), s.rate());
                }
            }
            scorer.stop();
        }
        if (s.reference()) {
            BrokerColdStart.Result after = BrokerColdStart.measure(s.jvmOptions(), s.dataDir().resolveSibling(
                    s.dataDir().getFileName() + "-reference"), s.timeout());
            out.printf("reference again: %s, load average %s%n", after.describe(), loadAverage());
            out.flush();
        }
        return restarts;
    }

    public static String header() {
        return "  restart  to banner   to scoring   ready in     restored   restore  CPU to scoring   load average";
    }

    private static Restart restart(String kind, ScorerProcess scorer, ScoreWatcher watcher, Settings s, boolean clean,
                                   boolean wipe) throws Exception {
        long t0 = System.currentTimeMillis();
        long n0 = System.nanoTime();
        if (clean) {
            scorer.stop();
        } else {
            scorer.kill();
        }
        if (wipe) {
            deleteRecursively(s.dataDir().resolve("streams"));
        }
        scorer.start(s.timeout());
        Duration toBanner = Duration.ofNanos(System.nanoTime() - n0);
        long scoredAt = watcher.awaitProducedAfter(t0, s.timeout());
        Duration cpu = scorer.cpu();
        String log = scorer.log();
        Matcher steps = STARTUP.matcher(log);
        Matcher r = RESTORED.matcher(log);
        Matcher ready = READY_IN.matcher(log);
        boolean restored = r.find();
        return new Restart(kind, toBanner, Duration.ofMillis(scoredAt - t0), ready.find() ? Double.parseDouble(ready.group(1)) : -1,
                restored ? Long.parseLong(r.group(1)) : -1, restored ? Double.parseDouble(r.group(3)) : -1, loadAverage(),
                cpu, steps.find() ? steps.group(1) : "");
    }

    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Events at a steady rate, kept coming while the broker is down (the producer waits and retries). */
    static final class SteadyPublisher implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> producer;
        private final Topics topics;
        private final MagmaWorkload workload;
        private final double rate;
        private final AtomicLong sent = new AtomicLong();
        private final Thread thread;
        private volatile boolean running = true;

        SteadyPublisher(Map<String, Object> client, Topics topics, MagmaWorkload workload, double rate) {
            Map<String, Object> conf = new HashMap<>(client);
            conf.put("acks", "all");
            conf.put("linger.ms", "5");
            conf.put("delivery.timeout.ms", "600000");
            conf.put("max.block.ms", "600000");
            conf.put("reconnect.backoff.max.ms", "200");
            this.producer = new KafkaProducer<>(conf, new ByteArraySerializer(), new ByteArraySerializer());
            this.topics = topics;
            this.workload = workload;
            this.rate = rate;
            this.thread = new Thread(this::run, "restart-load");
            this.thread.setDaemon(true);
        }

        void start() {
            String topic = topics.benchmark.name();
            workload.items().forEach(item -> producer.send(new ProducerRecord<>(topic,
                    SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8),
                    topics.benchmark.valueSerde().serializer().serialize(topic, item))));
            producer.flush();
            thread.start();
        }

        private void run() {
            long start = System.nanoTime();
            String topic = topics.generations.name();
            for (long n = 0; running; n++) {
                if (!Pace.await(start, n, rate)) {
                    return;
                }
                GenerationEvent e = workload.event("restart-load", n);
                producer.send(GenerationRecords.of(topic, producer.partitionsFor(topic).size(), e,
                        topics.generations.valueSerde().serializer().serialize(topic, e)));
                sent.incrementAndGet();
            }
        }

        long sent() {
            return sent.get();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(5000);
            producer.close(Duration.ofSeconds(10));
        }
    }

    /** Reads new sample scores (read committed) and notes when each arrived. */
    static final class ScoreWatcher implements AutoCloseable {
        private record Seen(long producedAt, long arrivedAt) {
        }

        private final KafkaConsumer<byte[], byte[]> consumer;
        private final Topics topics;
        private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
        private final Thread thread;
        private volatile boolean running = true;

        ScoreWatcher(Map<String, Object> client, Topics topics) {
            Map<String, Object> conf = new HashMap<>(client);
            conf.put("isolation.level", "read_committed");
            conf.put("enable.auto.commit", "false");
            conf.put("reconnect.backoff.max.ms", "200");
            this.consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            this.topics = topics;
            String topic = topics.sampleScores.name();
            List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            this.thread = new Thread(this::run, "restart-scores");
            this.thread.setDaemon(true);
            this.thread.start();
        }

        private void run() {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(20))) {
                    long now = System.currentTimeMillis();
                    SampleScore s = topics.sampleScores.valueSerde().deserializer().deserialize(r.topic(), r.value());
                    if (s != null && s.getProducedAt() != null) {
                        seen.add(new Seen(s.getProducedAt().toEpochMilli(), now));
                    }
                }
            }
        }

        /** When the first score of an event produced at or after {@code epochMillis} arrived. */
        long awaitProducedAfter(long epochMillis, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (Seen x : seen) {
                    if (x.producedAt() >= epochMillis) {
                        seen.removeIf(y -> y.arrivedAt() < x.arrivedAt());
                        return x.arrivedAt();
                    }
                }
                Thread.sleep(10);
            }
            throw new IllegalStateException("no score of an event produced after the restart within " + timeout);
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(5000);
            consumer.close();
        }
    }
}
