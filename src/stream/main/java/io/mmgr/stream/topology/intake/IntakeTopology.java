package io.mmgr.stream.topology.intake;

import io.mmgr.stream.tasks.EventValidator;
import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.ParkedEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.contract.SamplePartitioner;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.registry.AvroSerdes;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Intake: deserialize and validate generation events, give each its benchmark item (waiting for it
 * when the event came first, see {@link ItemWaitProcessor}), plan the parts each sample needs, run its
 * light evaluations ({@link LightEvaluations}; their results go on the plan) and send the rest of the work
 * out: image and video evaluations to the worker's queues, the judge's part to the judge. Benchmark items are checked on their way into the global
 * table (through {@link Topics#benchmarkValid}) and human labels on their way into assembly. Every
 * input is held to the {@link io.mmgr.stream.limits.InputLimits} before anything is derived from it;
 * invalid records go to the dead-letter topic with their reason.
 */
public final class IntakeTopology {

    /** Suffix of the internal topic that carries plans to assembly, keyed by sample. */
    public static final String PLANS_REPARTITION = "sample-plans";

    private IntakeTopology() {
    }

    /**
     * What intake uses: the public topics, its own stores (the global table of valid benchmark items, which
     * other sub-flows are handed too, and the events parked for their item), the task plug-ins, the input
     * limits, the item wait, the serdes of its plan repartition, the partitions of the sample-keyed topics and
     * whether judge parts are planned.
     */
    public record Deps(Topics topics, Store<String, BenchmarkItem> benchmarkItems, Store<Long, ParkedEvent> parkedEvents,
                       TaskCatalog catalog, EvaluatorRegistry evaluators, InputCheck check, ItemWait itemWait,
                       AvroSerdes serdes, int partitions, boolean judgeEnabled) {
    }

    /**
     * Adds intake to the builder and returns the plans, keyed by sample, each in the task of its sample's
     * partition: assembly must be built on them in the same sub-topology.
     */
    public static KStream<SampleKey, SamplePlan> build(StreamsBuilder builder, Deps deps) {
        Topics topics = deps.topics();
        TaskCatalog catalog = deps.catalog();
        EvaluatorRegistry evaluators = deps.evaluators();
        // read by ItemWaitProcessor through its handle (any processor may read a global store)
        builder.globalTable(topics.benchmarkValid.name(),
                topics.benchmarkValid.consumed("benchmark-source"),
                deps.benchmarkItems().materialized());
        builder.addStateStore(deps.parkedEvents().persistent());

        EventReader reader = new EventReader(topics.generations.valueSerde().deserializer(), new EventValidator(catalog), deps.check());
        KStream<byte[], IntakeResult> parsed = builder
                .stream(topics.generations.name(),
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("intake-source"))
                .processValues(() -> new ParseProcessor(reader), Named.as("intake-parse"));

        var parsedRoutes = parsed.split(Named.as("intake-parsed-"))
                .branch((k, v) -> v instanceof IntakeResult.Rejected, Branched.as("rejected"))
                .defaultBranch(Branched.as("accepted"));

        KStream<byte[], IntakeResult> planned = parsedRoutes.get("intake-parsed-accepted")
                .process(() -> new ItemWaitProcessor(deps.benchmarkItems(), deps.parkedEvents(), reader,
                        deps.itemWait(), topics.benchmark, topics.deadLetter), Named.as("intake-await-item"),
                        deps.parkedEvents().name())
                .processValues(() -> new PlanProcessor(catalog, evaluators, deps.judgeEnabled()), Named.as("intake-plan"));

        var planRoutes = planned.split(Named.as("intake-planned-"))
                .branch((k, v) -> v instanceof IntakeResult.Rejected, Branched.as("rejected"))
                .defaultBranch(Branched.as("ok"));

        deadLetters(parsedRoutes.get("intake-parsed-rejected")
                .merge(planRoutes.get("intake-planned-rejected"), Named.as("intake-rejected-merge")), topics, "intake");

        KStream<SampleKey, IntakeResult.Planned> bySample = planRoutes.get("intake-planned-ok")
                .map((k, v) -> {
                    IntakeResult.Planned p = (IntakeResult.Planned) v;
                    return org.apache.kafka.streams.KeyValue.pair(p.key(), p);
                }, Named.as("intake-key-by-sample"));

        // light evaluations ran in intake-plan, their results travel on the plan; a failed one has its dead letter
        bySample.flatMap((k, p) -> p.deadLetters().stream().map(l -> KeyValue.pair(DeadLetters.recordKey(l), l)).toList(),
                        Named.as("intake-evaluation-dead-letter"))
                .to(topics.deadLetter.name(), topics.deadLetter.produced("intake-evaluation-dead-letter-sink"));
        // image and video requests to the queue of their cost class, so images never wait behind videos
        bySample.flatMapValues(IntakeResult.Planned::evaluations, Named.as("intake-evaluation-requests"))
                .to(new EvaluationQueues(topics, evaluators),
                        topics.evaluationRequests.produced("intake-evaluation-requests-sink", new SamplePartitioner<EvaluationRequest>()));
        bySample.flatMapValues(IntakeResult.Planned::judgeRequests, Named.as("intake-judge-requests"))
                .to(topics.judgeRequests.name(),
                        topics.judgeRequests.produced("intake-judge-requests-sink", new SamplePartitioner<JudgeRequest>()));
        // the live FID / FVD of the sample's row, when its benchmark item names reference statistics
        bySample.flatMap((k, p) -> FrechetSamples.of(p), Named.as("intake-frechet-samples"))
                .to(topics.frechetSamples.name(), topics.frechetSamples.produced("intake-frechet-samples-sink"));

        // a plan this task assembles goes straight on; the others to their sample's partition (see PlanPlacement)
        var placed = bySample.mapValues(IntakeResult.Planned::plan, Named.as("intake-plans"))
                .processValues(() -> new PlanPlacement(deps.partitions()), Named.as("intake-plan-placement"))
                .split(Named.as("intake-plan-"))
                .branch((k, v) -> v.local(), Branched.as("local"))
                .defaultBranch(Branched.as("elsewhere"));
        KStream<SampleKey, SamplePlan> moved = placed.get("intake-plan-elsewhere")
                .mapValues(PlanPlacement.Placed::plan, Named.as("intake-plan-to-move"))
                .repartition(Repartitioned.<SampleKey, SamplePlan>with(deps.serdes().forKeys(SampleKey.class),
                                deps.serdes().forValues(SamplePlan.class))
                        .withName(PLANS_REPARTITION)
                        .withNumberOfPartitions(deps.partitions())
                        .withStreamPartitioner(new SamplePartitioner<>()));
        return placed.get("intake-plan-local")
                .mapValues(PlanPlacement.Placed::plan, Named.as("intake-plan-here"))
                .merge(moved, Named.as("intake-plans-merge"));
    }

    /**
     * Benchmark items as published, checked (size, every field, identifiers) on their way to the validated
     * topic the global table reads: an invalid item becomes a dead letter instead of a table entry. Added
     * last to the builder, so that the other sub-topologies keep their numbers (and their tasks' state
     * directories) from before it existed.
     */
    public static void validateItems(StreamsBuilder builder, Deps deps) {
        Topics topics = deps.topics();
        var routes = builder.stream(topics.benchmark.name(),
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("intake-benchmark-source"))
                .process(() -> new ItemIntakeProcessor(topics.benchmark.valueSerde().deserializer(), deps.check()),
                        Named.as("intake-benchmark-check"))
                .split(Named.as("intake-benchmark-"))
                .branch((k, v) -> v instanceof IntakeResult.Rejected, Branched.as("rejected"))
                .defaultBranch(Branched.as("valid"));
        deadLetters(routes.get("intake-benchmark-rejected"), topics, "intake-benchmark");
        routes.get("intake-benchmark-valid")
                .mapValues(v -> ((IntakeResult.ValidItem) v).item(), Named.as("intake-benchmark-item"))
                .to(topics.benchmarkValid.name(), topics.benchmarkValid.produced("intake-benchmark-valid-sink"));
    }

    /**
     * Human labels as published, checked before assembly applies them (see {@link LabelIntakeProcessor});
     * returns the valid ones. The label count is read from assembly's per-sample store, which assembly hands
     * over ({@code assembly}): the check runs in assembly's sub-topology, on the sample's partition.
     */
    public static KStream<SampleKey, HumanLabel> labels(StreamsBuilder builder, Deps deps, Store<SampleKey, AssemblyState> assembly) {
        Topics topics = deps.topics();
        var routes = builder.stream(topics.humanLabels.name(),
                        Consumed.with(topics.humanLabels.keySerde(), Serdes.ByteArray()).withName("assembly-label-source"))
                .processValues(() -> new LabelIntakeProcessor(topics.humanLabels.valueSerde().deserializer(),
                        uncappedKeys(deps.serdes()), deps.check(), assembly), Named.as("intake-label-check"), assembly.name())
                .split(Named.as("intake-label-"))
                .branch((k, v) -> v instanceof IntakeResult.Rejected, Branched.as("rejected"))
                .defaultBranch(Branched.as("valid"));
        deadLetters(routes.get("intake-label-rejected"), topics, "intake-label");
        return routes.get("intake-label-valid").mapValues(v -> ((IntakeResult.ValidLabel) v).label(), Named.as("intake-label"));
    }

    /**
     * Sample keys serialized without the size cap: to measure a record's key as it was, not to write it
     * (a label's copy in its dead letter).
     */
    private static Serializer<SampleKey> uncappedKeys(AvroSerdes serdes) {
        return serdes.withSizeCap(AvroSerdes.SizeCap.NONE).forKeys(SampleKey.class).serializer();
    }

    /** Rejected records to the dead-letter topic, keyed by their original key (cut, like the letter's copy). */
    private static <K> void deadLetters(KStream<K, IntakeResult> rejected, Topics topics, String name) {
        rejected.map((k, v) -> {
            DeadLetter letter = ((IntakeResult.Rejected) v).letter();
            return KeyValue.pair(DeadLetters.recordKey(letter), letter);
        }, Named.as(name + "-dead-letter")).to(topics.deadLetter.name(), topics.deadLetter.produced(name + "-dead-letter-sink"));
    }
}
