package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.SamplePartitioner;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.topology.intake.IntakeTopology;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * Score assembly: plans (with the results of the light evaluations intake ran), deterministic results
 * from the evaluation worker (image and video), judge verdicts and human labels meet per sample in a
 * changelogged store; the task's gate turns them into the sample score.
 */
public final class AssemblyTopology {

    private AssemblyTopology() {
    }

    public static KStream<SampleKey, SampleScore> build(StreamsBuilder builder, ScorerContext ctx,
                                                        KStream<SampleKey, SamplePlan> plans) {
        Topics topics = ctx.topics();
        String store = ctx.stores().assembly.name();
        builder.addStateStore(ctx.stores().assembly.persistent());

        KStream<SampleKey, Arrival> arrivals = plans
                .mapValues(p -> (Arrival) new Arrival.Plan(p), Named.as("assembly-plan-arrived"))
                .merge(builder.stream(topics.cvResults.name(), topics.cvResults.consumed("assembly-cv-source"))
                                .mapValues(r -> (Arrival) new Arrival.Part(Parts.of(r)), Named.as("assembly-cv-arrived")),
                        Named.as("assembly-merge-cv"))
                .merge(builder.stream(topics.judgeVerdicts.name(), topics.judgeVerdicts.consumed("assembly-verdict-source"))
                                .mapValues(v -> (Arrival) new Arrival.Part(Parts.of(v)), Named.as("assembly-verdict-arrived")),
                        Named.as("assembly-merge-verdicts"))
                .merge(IntakeTopology.labels(builder, ctx)
                                .mapValues(l -> (Arrival) new Arrival.Part(Parts.of(l)), Named.as("assembly-label-arrived")),
                        Named.as("assembly-merge-labels"));

        ScoreAssembler assembler = new ScoreAssembler(ctx.catalog());
        KStream<SampleKey, SampleScore> scores = arrivals.processValues(() -> new AssemblyProcessor(assembler, store),
                Named.as("assembly-assemble"), store);
        scores.to(topics.sampleScores.name(),
                topics.sampleScores.produced("sample-scores-sink", new SamplePartitioner<SampleScore>()));
        return scores;
    }
}
