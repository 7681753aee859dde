package io.mmgr.stream.topology.judgecost;

import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.avro.JudgeSpend;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Topics;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * The judge's cost per run x checkpoint, whichever process judges (docs/judge.md, "Cost up front"): the spend, summed
 * from the verdicts assembly reads (in assembly's sub-topology, by the verdicts' sample partitions; the REST API sums
 * the partitions), and the projection the judge workers publish, read whole by every instance as a global table.
 */
public final class JudgeCostTopology {

    private JudgeCostTopology() {
    }

    /** What it uses: the public topics and its two stores. */
    public record Deps(Topics topics, Store<String, JudgeSpend> spend, Store<String, JudgeProjection> projections) {
    }

    /** {@code verdicts}: the judge-verdicts stream assembly reads (a topic has one source in a topology). */
    public static void build(StreamsBuilder builder, Deps deps, KStream<SampleKey, JudgeVerdict> verdicts) {
        // cached: every verdict of a checkpoint updates one key, the changelog gets one record per commit
        builder.addStateStore(deps.spend().persistent().withCachingEnabled());
        verdicts.process(() -> new JudgeSpendProcessor(deps.spend()), Named.as("judge-spend"), deps.spend().name());
        Topics topics = deps.topics();
        builder.globalTable(topics.judgeProjections.name(), topics.judgeProjections.consumed("judge-projections-source"),
                deps.projections().materialized());
    }
}
