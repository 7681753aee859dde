package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.topology.SamplePartitioner;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.Topics;
import io.mmgr.stream.topology.intake.IntakeTopology;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;

/**
 * Score assembly: plans, deterministic results, judge verdicts and human labels meet per sample in a
 * changelogged store; the task's gate turns them into the sample score.
 */
public final class AssemblyTopology {

    public static final String STORE = "sample-assembly";

    private AssemblyTopology() {
    }

    public static KStream<SampleKey, SampleScore> build(StreamsBuilder builder, ScorerContext ctx,
                                                        KStream<SampleKey, SamplePlan> plans) {
        Topics topics = ctx.topics();
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE),
                ctx.serdes().forKeys(SampleKey.class), ctx.serdes().forValues(AssemblyState.class)));

        KStream<SampleKey, Arrival> arrivals = plans
                .mapValues(p -> (Arrival) new Arrival.Plan(p), Named.as("assembly-plan-arrived"))
                .merge(builder.stream(topics.cvResults.name(), topics.cvResults.consumed("assembly-cv-source"))
                                .mapValues(r -> (Arrival) new Arrival.Part(Parts.of(r)), Named.as("assembly-cv-arrived")),
                        Named.as("assembly-merge-cv"))
                .merge(builder.stream(topics.judgeVerdicts.name(), topics.judgeVerdicts.consumed("assembly-verdict-source"))
                                .mapValues(v -> (Arrival) new Arrival.Part(Parts.of(v)), Named.as("assembly-verdict-arrived")),
                        Named.as("assembly-merge-verdicts"))
                .merge(IntakeTopology.labels(builder, ctx, STORE)
                                .mapValues(l -> (Arrival) new Arrival.Part(Parts.of(l)), Named.as("assembly-label-arrived")),
                        Named.as("assembly-merge-labels"));

        ScoreAssembler assembler = new ScoreAssembler(ctx.catalog());
        KStream<SampleKey, SampleScore> scores = arrivals.processValues(() -> new AssemblyProcessor(assembler, STORE),
                Named.as("assembly-assemble"), STORE);
        scores.to(topics.sampleScores.name(),
                topics.sampleScores.produced("sample-scores-sink", new SamplePartitioner<SampleScore>()));
        return scores;
    }
}
