package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.SamplePartitioner;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.tasks.TaskCatalog;
import java.util.function.Consumer;
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

    /** What assembly uses: the public topics, its per-sample store and the task catalog (each task's gate). */
    public record Deps(Topics topics, Store<SampleKey, AssemblyState> assembly, TaskCatalog catalog) {
    }

    /**
     * The human labels assembly applies, checked by a step that is handed assembly's store (it counts a
     * sample's annotators there) once the store is on the builder: intake's label check in the scorer.
     */
    @FunctionalInterface
    public interface LabelCheck {
        KStream<SampleKey, HumanLabel> checked(StreamsBuilder builder, Store<SampleKey, AssemblyState> assembly);
    }

    public static KStream<SampleKey, SampleScore> build(StreamsBuilder builder, Deps deps,
                                                        KStream<SampleKey, SamplePlan> plans, LabelCheck labels) {
        return build(builder, deps, plans, labels, v -> { });
    }

    /** As above, handing the verdicts it reads to {@code verdictsTo} (the judge's spend; a topic has one source). */
    public static KStream<SampleKey, SampleScore> build(StreamsBuilder builder, Deps deps, KStream<SampleKey, SamplePlan> plans,
                                                        LabelCheck labels, Consumer<KStream<SampleKey, JudgeVerdict>> verdictsTo) {
        Topics topics = deps.topics();
        Store<SampleKey, AssemblyState> store = deps.assembly();
        builder.addStateStore(store.persistent());

        KStream<SampleKey, JudgeVerdict> verdicts = builder.stream(topics.judgeVerdicts.name(),
                topics.judgeVerdicts.consumed("assembly-verdict-source"));
        verdictsTo.accept(verdicts);
        KStream<SampleKey, Arrival> arrivals = plans
                .mapValues(p -> (Arrival) new Arrival.Plan(p), Named.as("assembly-plan-arrived"))
                .merge(builder.stream(topics.cvResults.name(), topics.cvResults.consumed("assembly-cv-source"))
                                .mapValues(r -> (Arrival) new Arrival.Part(Parts.of(r)), Named.as("assembly-cv-arrived")),
                        Named.as("assembly-merge-cv"))
                .merge(verdicts.mapValues(v -> (Arrival) new Arrival.Part(Parts.of(v)), Named.as("assembly-verdict-arrived")),
                        Named.as("assembly-merge-verdicts"))
                .merge(labels.checked(builder, store)
                                .mapValues(l -> (Arrival) new Arrival.Part(Parts.of(l)), Named.as("assembly-label-arrived")),
                        Named.as("assembly-merge-labels"));

        ScoreAssembler assembler = new ScoreAssembler(deps.catalog());
        KStream<SampleKey, SampleScore> scores = arrivals.processValues(() -> new AssemblyProcessor(assembler, store),
                Named.as("assembly-assemble"), store.name());
        scores.to(topics.sampleScores.name(),
                topics.sampleScores.produced("sample-scores-sink", new SamplePartitioner<SampleScore>()));
        return scores;
    }
}
