package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * When each committed sample score arrived, per partition of the score topic and per task, read as a
 * read_committed consumer sees them: the gaps around a fault are read from it. A partition that nobody scores
 * shows as a stall; one whose scorer died shows until its partitions are taken over.
 */
public final class ScoreTimeline implements AutoCloseable {

    /** One score record: when it was read, where it is, when it was written, its task. */
    record Arrival(long atMillis, int partition, long offset, long timestamp, String task) {
    }

    /**
     * The longest stall of scoring after a fault.
     *
     * @param lastBefore  the last score read before the fault (epoch ms; 0 when none)
     * @param firstAfter  the first score read after the fault, on any partition
     * @param stallMillis the longest time any one partition went without a score, counted from the fault, or from
     *                    the partition's last score before it, until its next; the window's end when none came
     * @param partition   which partition that was
     * @param open        whether that partition still had no score at the window's end: the stall is then at least
     *                    {@code stallMillis}, the window being all that was watched
     */
    public record Gap(long faultAt, long lastBefore, long firstAfter, long stallMillis, int partition, boolean open, long stallFrom) {
        public String describe() {
            // "none" rather than NaN: a task with few samples (the judged ones) may have had no score in the window;
            // where the stall began says what it followed (the fault itself, or a rebalance seconds later)
            return String.format(Locale.ROOT, "last score %s before, first %s after; longest partition stall %s%.1f s (p%d, from +%.1f s%s)",
                    lastBefore == 0 ? "none" : seconds(faultAt - lastBefore), firstAfter == 0 ? "none" : seconds(firstAfter - faultAt),
                    open ? "at least " : "", stallMillis / 1000.0, partition, Math.max(0, stallFrom - faultAt) / 1000.0,
                    open ? ", no score yet at the window's end" : "");
        }

        private static String seconds(long millis) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
    }

    /** A partition silent this long at a window's end is still stalled there. */
    static final long OPEN_AFTER_MILLIS = 5_000;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Topics topics;
    private final List<Arrival> arrivals = new ArrayList<>();
    private final int partitions;
    private final Thread thread;
    private volatile boolean running = true;

    public ScoreTimeline(Map<String, Object> clientConfig, Topics topics) {
        this(clientConfig, topics, true);
    }

    /**
     * @param committed read_committed (what readers see), or read_uncommitted: every record written, those of aborted
     *                  transactions too ({@link #abortedSince})
     */
    public ScoreTimeline(Map<String, Object> clientConfig, Topics topics, boolean committed) {
        Map<String, Object> conf = new HashMap<>(clientConfig);
        conf.put("isolation.level", committed ? "read_committed" : "read_uncommitted");
        conf.put("enable.auto.commit", "false");
        conf.put("reconnect.backoff.max.ms", "500");
        this.consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.topics = topics;
        String topic = topics.sampleScores.name();
        List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        this.partitions = parts.size();
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        this.thread = new Thread(this::run, "score-timeline");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        var keys = topics.sampleScores.keySerde().deserializer();
        while (running) {
            try {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                    SampleKey key = keys.deserialize(r.topic(), r.key());
                    long now = System.currentTimeMillis();
                    synchronized (arrivals) {
                        arrivals.add(new Arrival(now, r.partition(), r.offset(), r.timestamp(), key.getTask()));
                    }
                }
            } catch (org.apache.kafka.common.errors.WakeupException e) {
                return;
            } catch (RuntimeException e) {
                // a broker failover: the consumer finds the new leaders by itself; the next poll goes on
            }
        }
    }

    /** Scores read so far. */
    public int count() {
        synchronized (arrivals) {
            return arrivals.size();
        }
    }

    /** Waits until {@code more} scores were read after {@code since} (epoch ms); false on timeout. */
    public boolean awaitScores(long since, int more, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (countSince(since, null) >= more) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** Scores read at or after {@code since} (epoch ms), of one task or (null) all. */
    public int countSince(long since, String task) {
        synchronized (arrivals) {
            return (int) arrivals.stream().filter(a -> a.atMillis() >= since && (task == null || task.equals(a.task()))).count();
        }
    }

    /**
     * Records this (read_uncommitted) timeline read that {@code committed} did not: written in transactions that were
     * aborted, by the time they were written (epoch ms).
     */
    public List<Long> abortedSince(ScoreTimeline committed) {
        java.util.Set<Long> seen = new java.util.HashSet<>();
        synchronized (committed.arrivals) {
            committed.arrivals.forEach(a -> seen.add(((long) a.partition() << 48) | a.offset()));
        }
        synchronized (arrivals) {
            return arrivals.stream().filter(a -> !seen.contains(((long) a.partition() << 48) | a.offset()))
                    .map(Arrival::timestamp).toList();
        }
    }

    /**
     * Partitions that have had scores of the task (null: any) but none both after {@code faultOver} and within
     * {@code quiet} before now (epoch ms): a score from just before a fault is recent for a while after it, and must
     * not count as the partition scoring again.
     */
    public int silentPartitions(long faultOver, Duration quiet, String task) {
        synchronized (arrivals) {
            return silent(arrivals, faultOver, System.currentTimeMillis(), quiet, task);
        }
    }

    /** {@link #silentPartitions} over {@code arrivals}, at {@code now}. */
    static int silent(List<Arrival> arrivals, long faultOver, long now, Duration quiet, String task) {
        long since = Math.max(faultOver, now - quiet.toMillis());
        Map<Integer, Long> last = new HashMap<>();
        arrivals.stream().filter(a -> task == null || task.equals(a.task()))
                .forEach(a -> last.merge(a.partition(), a.atMillis(), Math::max));
        return (int) last.values().stream().filter(t -> t < since).count();
    }

    /**
     * The gap around a fault at {@code faultAt}, looking {@code window} past it, over the given task's scores (null:
     * all). Partitions that got no score of that task at all in the run are left out (a task's samples need not
     * reach every partition).
     */
    public Gap gap(long faultAt, Duration window, String task) {
        List<Arrival> all;
        synchronized (arrivals) {
            all = arrivals.stream().filter(a -> task == null || task.equals(a.task())).toList();
        }
        return gap(all, partitions, faultAt, Math.min(System.currentTimeMillis(), faultAt + window.toMillis()));
    }

    /**
     * The longest time in a window [{@code at}, {@code end}] (epoch ms) without an arrival: between two arrivals (or
     * from {@code at} to the first), and apart, from the last arrival (or {@code at}) to {@code end}; each with where it
     * began. Score partitions and the judge provider's calls alike.
     */
    record Silence(long between, long betweenFrom, long tail, long tailFrom) {
        /** @param sorted arrival times in ascending order; those outside the window are ignored */
        static Silence in(List<Long> sorted, long at, long end) {
            long prev = at;
            long between = 0;
            long from = at;
            for (long t : sorted) {
                if (t < at) {
                    continue;
                }
                if (t > end) {
                    break;
                }
                if (t - prev > between) {
                    between = t - prev;
                    from = prev;
                }
                prev = t;
            }
            return new Silence(between, from, end - prev, prev);
        }

        /** The longer of the two silences: between arrivals, or the tail when it is longer. */
        long longest() {
            return Math.max(between, tail);
        }

        /** Where {@link #longest} began. */
        long longestFrom() {
            return tail > between ? tailFrom : betweenFrom;
        }
    }

    /** The gap over {@code arrivals} around a fault at {@code faultAt}, watched until {@code end} (epoch ms). */
    static Gap gap(List<Arrival> arrivals, int partitions, long faultAt, long end) {
        long lastBefore = 0;
        long firstAfter = 0;
        long worst = -1;
        int worstPartition = -1;
        boolean worstOpen = false;
        long worstFrom = faultAt;
        for (int p = 0; p < partitions; p++) {
            final int part = p;
            List<Long> times = arrivals.stream().filter(a -> a.partition() == part).map(Arrival::atMillis).sorted().toList();
            if (times.isEmpty()) {
                continue;
            }
            for (long t : times) {
                if (t < faultAt) {
                    lastBefore = Math.max(lastBefore, t);
                } else if (t <= end && (firstAfter == 0 || t < firstAfter)) {
                    firstAfter = t;
                }
            }
            Silence s = Silence.in(times, faultAt, end);
            long stall = s.longest();
            long from = s.longestFrom();
            // no score since the last one: the stall runs to the window's end, and on past it for all we know (a
            // window that ends with every partition scored within a few seconds leaves none open this long)
            boolean open = s.tail() >= s.between() && s.tail() > OPEN_AFTER_MILLIS;
            if (stall > worst) {
                worst = stall;
                worstPartition = p;
                worstOpen = open;
                worstFrom = from;
            }
        }
        return new Gap(faultAt, lastBefore, firstAfter, Math.max(0, worst), worstPartition, worstOpen, worstFrom);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5000);
        consumer.close(Duration.ofSeconds(5));
    }
}
