package io.mmgr.stream.bench;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.GenerationRecords;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Publishes a synthetic workload to a running scorer and measures how fast its results come out:
 * throughput from the first event sent to the last score read; per sample, the event-to-score
 * latency from the score itself (producedAt to scoredAt, one clock) and the event-to-leaderboard
 * latency, until the sample's leaderboard row counts it. Rows only hold counts, so "counts it"
 * means: the row's samplesScored reached the sample's rank among that row's scores as read here.
 */
public final class LoadRunner {

    private final Map<String, Object> clientConfig;
    private final Topics topics;

    public LoadRunner(Map<String, Object> clientConfig, Topics topics) {
        this.clientConfig = clientConfig;
        this.topics = topics;
    }

    /** The former entry point: Magma episodes with the given share of right steps. */
    public LoadReport run(MagmaWorkload workload, String runId, long samples, double rate, double stepAccuracy,
                          Duration timeout, LongConsumer progress) {
        Workload w = new Workload() {
            @Override
            public String description() {
                return workload.description();
            }

            @Override
            public List<BenchmarkItem> items() {
                return workload.items();
            }

            @Override
            public GenerationEvent event(String run, long n) {
                return workload.event(run, n, stepAccuracy);
            }
        };
        return run(w, runId, samples, rate, timeout, progress);
    }

    /**
     * @param rate events per second, or 0 for as fast as possible
     */
    public LoadReport run(Workload workload, String runId, long samples, double rate, Duration timeout, LongConsumer progress) {
        return run(workload, runId, samples, rate, timeout, progress, (n, at) -> { });
    }

    /** Told when the n-th event (0-based) was handed to the producer, in epoch milliseconds. */
    public interface SendListener {
        void sent(long n, long epochMillis);
    }

    public LoadReport run(Workload workload, String runId, long samples, double rate, Duration timeout,
                          LongConsumer progress, SendListener sendListener) {
        Map<String, Object> producerConf = new HashMap<>(clientConfig);
        producerConf.put("acks", "all");
        producerConf.put("linger.ms", "5");
        producerConf.put("compression.type", "lz4");
        Map<String, Object> consumerConf = new HashMap<>(clientConfig);
        consumerConf.put("isolation.level", "read_committed");
        consumerConf.put("enable.auto.commit", "false");
        consumerConf.put("max.poll.records", "2000");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConf, new ByteArraySerializer(), new ByteArraySerializer());
             KafkaConsumer<byte[], byte[]> scoreConsumer = new KafkaConsumer<>(consumerConf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
             KafkaConsumer<byte[], byte[]> boardConsumer = new KafkaConsumer<>(consumerConf, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Serializer<BenchmarkItem> items = topics.benchmark.valueSerde().serializer();
            for (BenchmarkItem item : workload.items()) {
                producer.send(new ProducerRecord<>(topics.benchmark.name(),
                        SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8),
                        items.serialize(topics.benchmark.name(), item)));
            }
            producer.flush();
            // not for correctness (an event that comes first waits for its item) but for the figures: the
            // first events' latencies should be the scorer's, not the wait for the items' validation
            sleep(1500);
            assignAtEnd(scoreConsumer, topics.sampleScores.name());
            assignAtEnd(boardConsumer, topics.leaderboard.name());

            AtomicReference<Exception> sendError = new AtomicReference<>();
            AtomicLong publishedAt = new AtomicLong();
            Serializer<GenerationEvent> events = topics.generations.valueSerde().serializer();
            int generationPartitions = producer.partitionsFor(topics.generations.name()).size();
            long start = System.nanoTime();
            Thread publisher = new Thread(() -> {
                for (long n = 0; n < samples && sendError.get() == null; n++) {
                    if (rate > 0) {
                        long due = start + (long) (n * 1e9 / rate);
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                        }
                    }
                    GenerationEvent e = workload.event(runId, n);
                    sendListener.sent(n, e.getProducedAt().toEpochMilli());
                    producer.send(GenerationRecords.of(topics.generations.name(), generationPartitions, e,
                            events.serialize(topics.generations.name(), e)), (m, ex) -> {
                        if (ex != null) {
                            sendError.compareAndSet(null, ex);
                        }
                    });
                }
                producer.flush();
                publishedAt.set(System.nanoTime());
            }, "load-publisher");
            publisher.start();

            Tracker tracker = new Tracker(runId, (int) samples);
            long deadline = System.nanoTime() + timeout.toNanos();
            long scoredAt = 0;
            long boardAt = 0;
            while (boardAt == 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out: " + tracker.scored() + " of " + samples
                            + " samples scored, leaderboard complete: " + tracker.boardComplete());
                }
                if (sendError.get() != null) {
                    throw new IllegalStateException("publishing failed: " + sendError.get().getMessage(), sendError.get());
                }
                for (ConsumerRecord<byte[], byte[]> r : scoreConsumer.poll(Duration.ofMillis(scoredAt == 0 ? 50 : 0))) {
                    if (tracker.score(topics.sampleScores.keySerde().deserializer().deserialize(r.topic(), r.key()),
                            () -> topics.sampleScores.valueSerde().deserializer().deserialize(r.topic(), r.value()))) {
                        progress.accept(tracker.scored());
                    }
                }
                long now = System.currentTimeMillis();
                for (ConsumerRecord<byte[], byte[]> r : boardConsumer.poll(Duration.ofMillis(50))) {
                    LeaderboardKey key = topics.leaderboard.keySerde().deserializer().deserialize(r.topic(), r.key());
                    if (runId.equals(key.getRunId()) && !SampleKeys.ALL_TASKS.equals(key.getTask()) && r.value() != null) {
                        LeaderboardRow row = topics.leaderboard.valueSerde().deserializer().deserialize(r.topic(), r.value());
                        tracker.board(key, row.getSamplesScored(), now);
                    }
                }
                if (scoredAt == 0 && tracker.scored() == samples) {
                    scoredAt = System.nanoTime();
                }
                if (scoredAt != 0 && tracker.boardComplete()) {
                    boardAt = System.nanoTime();
                }
            }
            join(publisher);
            return new LoadReport(workload.description(), samples, (publishedAt.get() - start) / 1e9, (scoredAt - start) / 1e9,
                    (boardAt - start) / 1e9, tracker.meanPrimary(), tracker.scoreLatencies(), tracker.boardLatencies());
        }
    }

    private static void assignAtEnd(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
    }

    /** Which samples were scored, in which order per leaderboard row, and when each row reached each count. */
    static final class Tracker {
        private final String runId;
        private final Set<SampleKey> seen = new HashSet<>();
        private final long[] scoreLatency;
        private final long[] producedAt;
        private final LeaderboardKey[] rowOf;
        private final int[] rankOf;
        private final Map<LeaderboardKey, Integer> scoredPerRow = new HashMap<>();
        /** Per row: when (epoch ms) it first counted 1, 2, ... samples. */
        private final Map<LeaderboardKey, List<Long>> reached = new HashMap<>();
        private int scored;
        private double primarySum;
        private int primaryCount;

        Tracker(String runId, int samples) {
            this.runId = runId;
            this.scoreLatency = new long[samples];
            this.producedAt = new long[samples];
            this.rowOf = new LeaderboardKey[samples];
            this.rankOf = new int[samples];
        }

        /** A score record; true when it is the first score of a sample of this run. */
        boolean score(SampleKey key, java.util.function.Supplier<SampleScore> value) {
            if (!runId.equals(key.getRunId()) || seen.contains(key) || scored >= scoreLatency.length) {
                return false;
            }
            SampleScore s = value.get();
            seen.add(key);
            int i = scored++;
            producedAt[i] = s.getProducedAt().toEpochMilli();
            scoreLatency[i] = s.getScoredAt().toEpochMilli() - producedAt[i];
            rowOf[i] = new LeaderboardKey(key.getRunId(), key.getCheckpointId(), key.getTask());
            rankOf[i] = scoredPerRow.merge(rowOf[i], 1, Integer::sum);
            if (s.getPrimary() != null) {
                primarySum += s.getPrimary();
                primaryCount++;
            }
            return true;
        }

        void board(LeaderboardKey row, long count, long atMillis) {
            List<Long> times = reached.computeIfAbsent(row, k -> new ArrayList<>());
            while (times.size() < count) {
                times.add(atMillis);
            }
        }

        int scored() {
            return scored;
        }

        /** Mean primary score of the samples that have one (NaN when none). */
        double meanPrimary() {
            return primaryCount == 0 ? Double.NaN : primarySum / primaryCount;
        }

        boolean boardComplete() {
            for (var e : scoredPerRow.entrySet()) {
                if (reached.getOrDefault(e.getKey(), List.of()).size() < e.getValue()) {
                    return false;
                }
            }
            return scored > 0;
        }

        long[] scoreLatencies() {
            return java.util.Arrays.copyOf(scoreLatency, scored);
        }

        long[] boardLatencies() {
            long[] out = new long[scored];
            for (int i = 0; i < scored; i++) {
                out[i] = reached.get(rowOf[i]).get(rankOf[i] - 1) - producedAt[i];
            }
            return out;
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        sleep(millis, 0);
    }

    private static void sleep(long millis, int nanos) {
        try {
            Thread.sleep(millis, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
