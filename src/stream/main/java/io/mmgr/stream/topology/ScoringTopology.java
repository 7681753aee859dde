package io.mmgr.stream.topology;

import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.contract.FailoverTiming;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.topology.assembly.AssemblyTopology;
import io.mmgr.stream.topology.comparison.ComparisonTopology;
import io.mmgr.stream.topology.frechet.FrechetTopology;
import io.mmgr.stream.topology.intake.IntakeTopology;
import io.mmgr.stream.topology.judgecost.JudgeCostTopology;
import io.mmgr.stream.topology.leaderboard.LeaderboardTopology;
import io.mmgr.stream.topology.status.CheckpointStatusTopology;
import java.nio.file.Path;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;

/**
 * The whole scorer: intake, deterministic evaluation, assembly, leaderboards (with the live FID / FVD), checkpoint
 * comparisons and checkpoint status. Each sub-flow has its own builder, handed the record of what it uses (see
 * {@link ScorerContext}) and the streams earlier sub-flows hand on; this class only wires them, in the order
 * {@link SubFlow} declares, and knows the Streams configuration.
 */
public final class ScoringTopology {

    /** The main consumer's {@code max.partition.fetch.bytes}: about a hundred events of one partition per turn. */
    public static final int CATCH_UP_SLICE_BYTES = 128 * 1024;

    /** The main consumer's {@code max.poll.records}: the work between two polls, a few partitions' slices. */
    public static final int CATCH_UP_POLL_RECORDS = 250;

    /** The global consumer's {@code fetch.max.wait.ms}: the wait a global store's restore pays at each partition's end. */
    static final int GLOBAL_FETCH_WAIT_MS = 100;

    private ScoringTopology() {
    }

    /**
     * The sub-flows in the order they are added to the builder, whatever order their steps are listed in.
     * Kafka Streams numbers sub-topologies by the first node added, and the numbers name the tasks (0_1, 3_0),
     * their state directories and their assignments: a new sub-flow goes last, none moves. A sub-flow that
     * reads what another hands on comes after it (assembly after intake, the leaderboard after the live
     * FID / FVD, comparison after assembly); the item check comes late only because it was added late.
     */
    public enum SubFlow {
        /** events in, plans out; the global table of benchmark items */
        INTAKE,
        /** in intake's sub-topology: plans, results, verdicts and checked labels into scores */
        ASSEMBLY,
        /** the live FID / FVD's own sub-topology, before the leaderboard that joins its table */
        FRECHET,
        /** the sample-score table and the rows built on it */
        LEADERBOARD,
        /** checkpoint comparisons and alerts, on assembly's scores */
        COMPARISON,
        /** benchmark items checked on their way into the global table */
        ITEM_CHECK,
        /** the answer to a checkpoint-done marker */
        CHECKPOINT_STATUS,
        /** the judge's spend (in assembly's sub-topology, on its verdicts) and the workers' projections (a global table) */
        JUDGE_COST
    }

    /** What one sub-flow adds to the builder (reading what earlier ones handed on). */
    record Step(SubFlow flow, Consumer<StreamsBuilder> build) {
    }

    /** The scorer's topology; {@code ctx} holds every dependency and setting of its sub-flows. */
    public static Topology build(ScorerContext ctx) {
        return compose(steps(ctx));
    }

    /** One step per sub-flow; what a sub-flow hands on goes through a {@link Handoff}, read by a later step. */
    static List<Step> steps(ScorerContext ctx) {
        Handoff<KStream<SampleKey, SamplePlan>> plans = new Handoff<>("intake's plans");
        Handoff<KStream<SampleKey, SampleScore>> scores = new Handoff<>("assembly's scores");
        Handoff<KTable<LeaderboardKey, FrechetStat>> distances = new Handoff<>("the live FID / FVD table");
        Handoff<KStream<SampleKey, JudgeVerdict>> verdicts = new Handoff<>("assembly's judge verdicts");
        IntakeTopology.Deps intake = ctx.intakeDeps();
        return List.of(
                new Step(SubFlow.INTAKE, b -> plans.set(IntakeTopology.build(b, intake))),
                // intake's label check counts a sample's annotators in assembly's store, which assembly hands it
                new Step(SubFlow.ASSEMBLY, b -> scores.set(AssemblyTopology.build(b, ctx.assemblyDeps(), plans.get(),
                        (labels, assembly) -> IntakeTopology.labels(labels, intake, assembly), verdicts::set))),
                new Step(SubFlow.FRECHET, b -> distances.set(FrechetTopology.build(b, ctx.frechetDeps()))),
                new Step(SubFlow.LEADERBOARD, b -> {
                    LeaderboardTopology.Deps leaderboard = ctx.leaderboardDeps();
                    LeaderboardTopology.build(b, leaderboard, LeaderboardTopology.scores(b, leaderboard), distances.get());
                }),
                new Step(SubFlow.COMPARISON, b -> ComparisonTopology.build(b, ctx.comparisonDeps(), scores.get())),
                new Step(SubFlow.ITEM_CHECK, b -> IntakeTopology.validateItems(b, intake)),
                new Step(SubFlow.CHECKPOINT_STATUS, b -> CheckpointStatusTopology.build(b, ctx.statusDeps())),
                new Step(SubFlow.JUDGE_COST, b -> JudgeCostTopology.build(b, ctx.judgeCostDeps(), verdicts.get())));
    }

    /** Builds the steps in {@link SubFlow}'s order, one step for every sub-flow. */
    static Topology compose(Collection<Step> steps) {
        Map<SubFlow, Step> byFlow = new EnumMap<>(SubFlow.class);
        for (Step s : steps) {
            if (byFlow.put(s.flow(), s) != null) {
                throw new IllegalArgumentException("two steps build " + s.flow());
            }
        }
        Set<SubFlow> missing = EnumSet.allOf(SubFlow.class);
        missing.removeAll(byFlow.keySet());
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("no step builds " + missing);
        }
        StreamsBuilder builder = new StreamsBuilder();
        byFlow.values().forEach(s -> s.build().accept(builder));   // an EnumMap iterates in declaration order
        Properties optimization = new Properties();
        optimization.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, LeaderboardTopology.OPTIMIZATION);
        return builder.build(optimization);
    }

    /** A stream or table one sub-flow hands to a later one: set once, read after. */
    static final class Handoff<T> {
        private final String what;
        private T value;

        Handoff(String what) {
            this.what = what;
        }

        void set(T v) {
            if (value != null) {
                throw new IllegalStateException(what + " handed on twice");
            }
            value = Objects.requireNonNull(v, what);
        }

        T get() {
            if (value == null) {
                throw new IllegalStateException(what + " read before the sub-flow that makes it was built: see ScoringTopology.SubFlow");
            }
            return value;
        }
    }

    /** Streams configuration: exactly-once, dead-letter safety nets, then the user's overrides (Kafka's default record limits). */
    public static Properties streamsConfig(ScorerSettings settings, String bootstrapServers, String registryUrl,
                                           Path stateDir, String deadLetterTopic) {
        return streamsConfig(settings, bootstrapServers, registryUrl, stateDir, deadLetterTopic, RecordCaps.kafkaDefaults());
    }

    /**
     * The same, for topics whose record limits are {@code caps} (read from the broker at start): the
     * producer may send records up to the largest, each checked against its own topic when serialized.
     */
    public static Properties streamsConfig(ScorerSettings settings, String bootstrapServers, String registryUrl,
                                           Path stateDir, String deadLetterTopic, RecordCaps caps) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, settings.streamThreads());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) settings.replicationFactor());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandlers.Deserialization.class);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandlers.Processing.class);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandlers.Production.class);
        p.put(RecordCaps.CONFIG, caps);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), caps.largest());
        p.put(DeadLetterHandlers.TOPIC, deadLetterTopic);
        p.put(DeadLetterHandlers.REGISTRY_URL, registryUrl);
        // A scorer is read live: commit (and so publish) often. Under exactly-once a record is read downstream
        // only once its transaction commits, so each of the four hops from event to task row waits half an
        // interval on average: 50 ms instead of 100 lowered event -> dashboard p50 by about 150 ms at 1,000
        // samples/s (docs/benchmarks.md: Per-sample cost), and with the linger below cost no throughput
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 50);
        // Never hold a task back for an empty input partition: no sub-flow relies on cross-topic time order
        // (assembly keeps parts that come before their plan, the other joins re-evaluate on every input).
        // The default (0) also makes Kafka Streams 4.4 format a log line with String.format for every
        // empty partition of every multi-input task on every loop, whether logged or not: about a sixth
        // of the stream threads' CPU in a JFR profile of `bench load --workload light`
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, -1L);
        // KIP-892: stores hold uncommitted writes in a buffer and keep their changelog offsets themselves, so
        // after a crash (kill -9, power loss) a store is known to hold exactly what was committed and is
        // kept; without it, exactly-once wipes every store of an uncleanly stopped instance and rebuilds it
        // from its changelog
        p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, true);
        p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, StoreFlushing.class);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // Restores read a partition to its end and go on to the next: with the default 500 ms fetch wait,
        // the fetch left waiting at the end of each partition held the global thread half a second per
        // benchmark-items partition (read_committed: the end is a commit marker), and start() waits for it.
        // The global consumer keeps its wait after the start, though, when it only idles: 100 ms (not 20) costs a
        // start at most a tenth of a second per partition and an idle scorer a fifth of the fetches
        p.put(StreamsConfig.globalConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), GLOBAL_FETCH_WAIT_MS);
        p.put(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 20);
        // A stream thread polls again only once every task's buffer is empty (or half of max.poll.interval.ms, 150 s,
        // has passed), and a poll hands out one partition's fetched data to its end before the next partition's.
        // After a broker failover each input partition has a backlog: with Kafka's 1 MiB per partition and Streams'
        // 1,000 records per poll, the thread worked through one partition's megabyte while the others' tasks sat
        // with nothing buffered, and their scores stopped for 30-150 s (docs/operations.md, "Failover timing").
        // Smaller slices hand every backlogged partition a turn within a few hundred records; a record larger than
        // the slice is still fetched (Kafka returns it alone when it comes first)
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), CATCH_UP_SLICE_BYTES);
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), CATCH_UP_POLL_RECORDS);
        // Records of a transaction are invisible until its commit, which flushes the producer: sending them
        // sooner buys no latency. Lingering past the commit interval sends one batch per partition at each
        // commit instead of one every 5 ms (Kafka Streams' own default is 100 as well)
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 100);
        // a member lost for good frees its partitions in seconds, and a broker failover does not time transactions
        // out (docs/operations.md, "Failover timing")
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                (int) FailoverTiming.SESSION_TIMEOUT.toMillis());
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
                (int) FailoverTiming.HEARTBEAT_INTERVAL.toMillis());
        p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
                (int) FailoverTiming.TRANSACTION_TIMEOUT.toMillis());
        p.putAll(settings.kafkaOverrides());
        // the topology is built with it (ScoringTopology#build); the runtime must agree
        p.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, LeaderboardTopology.OPTIMIZATION);
        return p;
    }
}
