package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.bench.MagmaWorkload;
import io.mmgr.stream.bench.MazeVideoWorkload;
import io.mmgr.stream.bench.MazeWorkload;
import io.mmgr.stream.bench.Pace;
import io.mmgr.stream.bench.ResendingProducer;
import io.mmgr.stream.contract.GenerationRecords;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.tasks.math.MathTruth;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A steady mixed load from its own thread, every event a distinct sample whose primary score is known before it
 * is sent: light samples (Mind2Web episodes, every step right or every step wrong), image samples (maze answers:
 * the solution or the bare problem image; the scripted judge calls every maze right, so the primary is its 1 and
 * the pixel gate tells the two apart), video samples (maze answers as short MP4s, the agent walking the whole
 * solution or stopping short; the judge calls them right too) and judged samples (Math answers the scripted provider
 * scores right or wrong, one benchmark item each, so each is one judge request). An event whose send fails (its partition's
 * leader was gone too long) is sent again with the same bytes, so the scorers see at most duplicates of an
 * identical event.
 */
public final class MixedLoad implements AutoCloseable {

    /** The kinds of sample, in the order a cycle of ten events takes them. */
    public enum Kind { LIGHT, IMAGE, JUDGED, VIDEO }

    /** Of every ten events: six light, one image, three judged. */
    private static final Kind[] CYCLE = {Kind.LIGHT, Kind.JUDGED, Kind.LIGHT, Kind.IMAGE, Kind.LIGHT, Kind.JUDGED,
        Kind.LIGHT, Kind.LIGHT, Kind.JUDGED, Kind.LIGHT};

    /**
     * One event in this many is a video, in place of a light one (at 20-30 events/s, one every 1.3-2 s): a video is
     * decoded and checked frame by frame on the evaluation worker's one video thread, on the 2 cores the whole cluster
     * shares.
     */
    static final int VIDEO_EVERY = 40;

    /** The maze's pixel pipeline gate: 1 for the solution image, 0 for the bare problem. */
    static final String PIXEL_GATE = "overall_pixel";

    /** What the scripted judge answers a maze with: unchanged, no wall crossed, target reached. */
    static final Map<String, Double> MAZE_VERDICT = Map.of("maze_changed", 0.0, "cross_wall", 0.0, "target_achievement", 1.0);

    /** How many judged samples ahead of its event a judged item is published. */
    static final int ITEMS_AHEAD = 300;

    /** The task judged samples belong to (its gate: final and intermediate correctness both 1). */
    public static final String JUDGED_TASK = "math";

    private final Topics topics;
    private final String runId;
    private final double rate;
    private final MagmaWorkload light = new MagmaWorkload(50, 3, 7, "cl-ep-");
    private final MazeWorkload image;
    private final MazeVideoWorkload video;
    private final ResendingProducer producer;
    private final Map<SampleKey, Double> expected = new LinkedHashMap<>();
    private final Map<SampleKey, Map<String, Double>> gates = new HashMap<>();
    private final AtomicLong sent = new AtomicLong();
    /** Records handed to the producer in the loop (events and the judged samples' items). */
    private final AtomicLong records = new AtomicLong();
    private final long[] perKind = new long[Kind.values().length];
    private volatile boolean running;
    private Thread thread;

    /**
     * @param artifacts where the maze images and videos are written (under the scorers' artifact roots)
     * @param rate      events per second
     */
    public MixedLoad(Map<String, Object> clientConfig, Topics topics, String runId, Path artifacts, double rate)
            throws java.io.IOException {
        this.topics = topics;
        this.runId = runId;
        this.rate = rate;
        this.image = MazeWorkload.generate(artifacts, 6, 17);
        // three: an odd count, so each maze gets both answers in turn
        this.video = MazeVideoWorkload.generate(artifacts.resolve("videos"), 3, 23);
        this.producer = new ResendingProducer(clientConfig);
    }

    /** Publishes the light, image and video benchmark items and starts sending events. */
    public MixedLoad start() throws Exception {
        for (BenchmarkItem item : light.items()) {
            sendItem(item).get();
        }
        for (BenchmarkItem item : image.items()) {
            sendItem(item).get();
        }
        for (BenchmarkItem item : video.items()) {
            sendItem(item).get();
        }
        for (long k = 0; k < ITEMS_AHEAD; k++) {
            sendItem(judgedItem(k)).get();
        }
        running = true;
        thread = new Thread(this::loop, "mixed-load");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private java.util.concurrent.Future<?> sendItem(BenchmarkItem item) {
        return producer.producer().send(new ProducerRecord<>(topics.benchmark.name(),
                SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8),
                topics.benchmark.valueSerde().serializer().serialize(topics.benchmark.name(), item)));
    }

    private void loop() {
        long start = System.nanoTime();
        int partitions = producer.producer().partitionsFor(topics.generations.name()).size();
        for (long n = 0; running; n++) {
            if (!Pace.await(start, n, rate)) {
                return;
            }
            producer.resend();
            Kind kind = n % VIDEO_EVERY == VIDEO_EVERY - 1 ? Kind.VIDEO : CYCLE[(int) (n % CYCLE.length)];
            long k = perKind[kind.ordinal()]++;
            GenerationEvent e = switch (kind) {
                case LIGHT -> lightEvent(k);
                case IMAGE -> image.event(runId, k);
                case JUDGED -> judgedEvent(k);
                case VIDEO -> video.event(runId, k);
            };
            SampleKey key = SampleKeys.of(e);
            synchronized (expected) {
                expected.put(key, switch (kind) {
                    case LIGHT -> lightRight(k) ? 1.0 : 0.0;
                    case IMAGE, VIDEO -> 1.0;
                    case JUDGED -> judgedRight(caseOf(k)) ? 1.0 : 0.0;
                });
                if (kind == Kind.IMAGE) {
                    gates.put(key, Map.of(PIXEL_GATE, MazeWorkload.correct(k) ? 1.0 : 0.0, "overall_vlm", 1.0));
                } else if (kind == Kind.VIDEO) {
                    gates.put(key, Map.of(PIXEL_GATE, MazeVideoWorkload.correct(k) ? 1.0 : 0.0, "overall_vlm", 1.0));
                }
            }
            producer.send(GenerationRecords.of(topics.generations.name(), partitions, e,
                    topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e)));
            sent.incrementAndGet();
            records.incrementAndGet();
        }
    }

    /** Every third light episode takes every step wrong, the others every step right. */
    static boolean lightRight(long k) {
        return k % 3 != 2;
    }

    private GenerationEvent lightEvent(long k) {
        GenerationEvent e = light.event(runId, k, lightRight(k) ? 1.0 : 0.0);
        e.setModel("cluster-light");
        return e;
    }

    /** The scripted provider's case marker of the k-th judged sample: one judge request each. */
    public static String caseOf(long k) {
        return "cl-judged-" + k;
    }

    /** Whether the provider answers the case as right (final and intermediate correctness 1) or wrong (final 0). */
    public static boolean judgedRight(String caseName) {
        int dash = caseName.lastIndexOf('-');
        return dash < 0 || Long.parseLong(caseName.substring(dash + 1)) % 4 != 1;
    }

    /** The k-th judged sample's Math item, one of its own: its prompt carries the case marker. */
    static BenchmarkItem judgedItem(long k) {
        return BenchmarkItem.newBuilder().setTask(JUDGED_TASK).setSampleId(caseOf(k))
                .setPrompt("case=" + caseOf(k) + " Solve 3x = " + (3 * (k + 1)) + ".")
                .setGroundTruth(new MathTruth("x = " + (k + 1)).into(GroundTruth.newBuilder()).build()).build();
    }

    /**
     * The answer to the k-th judged item. Items are published {@link #ITEMS_AHEAD} judged samples ahead of their
     * events, as the contract asks (an item first): an item sent just before its event waited past intake's 60 s
     * item wait in a broker failover on a loaded machine, and its valid sample was dead-lettered.
     */
    private GenerationEvent judgedEvent(long k) {
        String id = caseOf(k);
        BenchmarkItem ahead = judgedItem(k + ITEMS_AHEAD);
        producer.send(new ProducerRecord<>(topics.benchmark.name(),
                SampleKeys.itemKey(ahead.getTask(), ahead.getSampleId()).getBytes(StandardCharsets.UTF_8),
                topics.benchmark.valueSerde().serializer().serialize(topics.benchmark.name(), ahead)));
        records.incrementAndGet();
        return GenerationEvent.newBuilder().setRunId(runId).setModel("cluster-judged").setCheckpointId("ckpt-judged")
                .setTrainingStep(1).setTask(JUDGED_TASK).setSampleId(id).setModality("text").setProducedAt(Instant.now())
                .setInputs(GenerationInputs.newBuilder().setText("3x = " + (3 * (k + 1)) + ", so x = " + (k + 1)).build())
                .build();
    }

    /** Stops sending and waits until every record was acknowledged. */
    public void stop(Duration timeout) throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join();
        }
        producer.awaitAcknowledged(records.get(), timeout);
    }

    public String describe() {
        return String.format("load: %d events sent (%d light, %d image, %d video, %d judged), %d records acknowledged, %d sent again",
                sent.get(), perKind[Kind.LIGHT.ordinal()], perKind[Kind.IMAGE.ordinal()], perKind[Kind.VIDEO.ordinal()],
                perKind[Kind.JUDGED.ordinal()], producer.acked(), producer.resent());
    }

    /** Each sample sent, with the primary score it must get. */
    public Map<SampleKey, Double> expected() {
        synchronized (expected) {
            return new LinkedHashMap<>(expected);
        }
    }

    /** Gates whose value is known besides the primary (the image and video samples' pixel and judge gates), by sample. */
    public Map<SampleKey, Map<String, Double>> expectedGates() {
        synchronized (expected) {
            return new HashMap<>(gates);
        }
    }

    /** The scripted provider's answer to a request with this case marker (maze requests carry none). */
    public static Map<String, Double> verdict(String caseName) {
        Map<String, Double> scores = new HashMap<>(MAZE_VERDICT);
        scores.put("final_correctness", judgedRight(caseName) ? 1.0 : 0.0);
        scores.put("intermediate_correctness", 1.0);
        return scores;
    }

    public long sent() {
        return sent.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join(10_000); // not closing the producer under a send
        }
        producer.close();
    }
}
