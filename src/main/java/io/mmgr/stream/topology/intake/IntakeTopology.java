package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.topology.SampleKeys;
import io.mmgr.stream.topology.SamplePartitioner;
import io.mmgr.stream.topology.Topics;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Intake: deserialize and validate generation events, join their benchmark item, plan the parts
 * each sample needs and send the work out. Invalid records go to the dead-letter topic with their reason.
 */
public final class IntakeTopology {

    /** The global store of benchmark items, keyed {@code <task>/<sampleId>}. */
    public static final String BENCHMARK_STORE = "benchmark-items";
    /** Suffix of the internal topic that carries plans to assembly, keyed by sample. */
    public static final String PLANS_REPARTITION = "sample-plans";

    private IntakeTopology() {
    }

    /** Adds intake to the builder and returns the plans, keyed and partitioned by sample. */
    public static KStream<SampleKey, SamplePlan> build(StreamsBuilder builder, Topics topics, TaskCatalog catalog,
                                                       EvaluatorRegistry evaluators, boolean judgeEnabled,
                                                       int partitions, Serde<SampleKey> keySerde, Serde<SamplePlan> planSerde) {
        GlobalKTable<String, BenchmarkItem> items = builder.globalTable(topics.benchmark.name(),
                topics.benchmark.consumed("benchmark-source"),
                Materialized.<String, BenchmarkItem, org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as(BENCHMARK_STORE)
                        .withKeySerde(topics.benchmark.keySerde())
                        .withValueSerde(topics.benchmark.valueSerde()));

        EventValidator validator = new EventValidator(catalog);
        KStream<byte[], IntakeResult> parsed = builder
                .stream(topics.generations.name(),
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("intake-source"))
                .processValues(() -> new ParseProcessor(topics.generations.valueSerde().deserializer(), validator),
                        Named.as("intake-parse"));

        var parsedRoutes = parsed.split(Named.as("intake-parsed-"))
                .branch((k, v) -> v instanceof IntakeResult.Rejected, Branched.as("rejected"))
                .defaultBranch(Branched.as("accepted"));

        KStream<byte[], IntakeResult> planned = parsedRoutes.get("intake-parsed-accepted")
                .leftJoin(items,
                        (k, v) -> {
                            GenerationEvent e = ((IntakeResult.Accepted) v).event();
                            return SampleKeys.itemKey(e.getTask(), e.getSampleId());
                        },
                        (v, item) -> (IntakeResult) ((IntakeResult.Accepted) v).withItem(item),
                        Named.as("intake-join-benchmark"))
                .processValues(() -> new PlanProcessor(catalog, evaluators, judgeEnabled, topics.benchmark.name()),
                        Named.as("intake-plan"));

        var planRoutes = planned.split(Named.as("intake-planned-"))
                .branch((k, v) -> v instanceof IntakeResult.Rejected, Branched.as("rejected"))
                .defaultBranch(Branched.as("ok"));

        parsedRoutes.get("intake-parsed-rejected")
                .merge(planRoutes.get("intake-planned-rejected"), Named.as("intake-rejected-merge"))
                .mapValues(v -> ((IntakeResult.Rejected) v).letter(), Named.as("intake-dead-letter"))
                .to(topics.deadLetter.name(), topics.deadLetter.produced("intake-dead-letter-sink"));

        KStream<SampleKey, IntakeResult.Planned> bySample = planRoutes.get("intake-planned-ok")
                .map((k, v) -> {
                    IntakeResult.Planned p = (IntakeResult.Planned) v;
                    return org.apache.kafka.streams.KeyValue.pair(p.key(), p);
                }, Named.as("intake-key-by-sample"));

        // each request to the queue of its cost class, so cheap work never waits behind images or videos
        bySample.flatMapValues(IntakeResult.Planned::evaluations, Named.as("intake-evaluation-requests"))
                .to(new EvaluationQueues(topics, evaluators),
                        topics.evaluationRequests.produced("intake-evaluation-requests-sink", new SamplePartitioner<EvaluationRequest>()));
        bySample.flatMapValues(IntakeResult.Planned::judgeRequests, Named.as("intake-judge-requests"))
                .to(topics.judgeRequests.name(),
                        topics.judgeRequests.produced("intake-judge-requests-sink", new SamplePartitioner<JudgeRequest>()));

        return bySample.mapValues(IntakeResult.Planned::plan, Named.as("intake-plans"))
                .repartition(Repartitioned.<SampleKey, SamplePlan>with(keySerde, planSerde)
                        .withName(PLANS_REPARTITION)
                        .withNumberOfPartitions(partitions)
                        .withStreamPartitioner(new SamplePartitioner<>()));
    }
}
