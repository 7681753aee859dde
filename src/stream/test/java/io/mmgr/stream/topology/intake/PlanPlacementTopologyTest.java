package io.mmgr.stream.topology.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.topology.Fixtures;
import io.mmgr.stream.topology.TopologyFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Intake's plan placement on TopologyTestDriver, whose one task per sub-topology is partition 0: a plan for a
 * sample of partition 0 stays in the task, every other one takes the sample-plans repartition topic, and
 * either way each plan reaches assembly's input exactly once.
 */
@Tag("topology")
class PlanPlacementTopologyTest {

    static final int PARTITIONS = 6;

    @TempDir
    Path stateDir;

    TopologyFixture fx;

    @AfterEach
    void close() {
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void onlyPlansOfAnotherPartitionTakeTheRepartitionTopic() {
        Topic<SampleKey, SamplePlan>[] out = new Topic[1];
        fx = TopologyFixture.builder("t.", stateDir).settings(s -> s.withPartitions(PARTITIONS))
                .context(c -> c.check(new InputCheck(InputLimits.DEFAULTS)))
                .subFlows((builder, ctx) -> {
                    out[0] = new Topic<>("t.plans", ctx.serdes().forKeys(SampleKey.class),
                            ctx.serdes().forValues(SamplePlan.class));
                    IntakeTopology.build(builder, ctx.intakeDeps()).to(out[0].name(), out[0].produced("test-plans-sink"));
                    IntakeTopology.validateItems(builder, ctx.intakeDeps());
                });
        var benchmark = fx.input(fx.topics.benchmark);
        var generations = fx.rawInput(fx.topics.generations);
        List<SampleKey> sent = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String sample = "s" + i;
            benchmark.pipeInput(SampleKeys.itemKey("echo", sample), Fixtures.item("echo", sample, 1));
            var e = Fixtures.event("run", "c1", 1, "echo", sample, 0, Map.of("ok", 1.0, "quality", 0.5, "cost", 1.0));
            sent.add(SampleKeys.of(e));
            generations.pipeInput("k".getBytes(StandardCharsets.UTF_8),
                    fx.topics.generations.valueSerde().serializer().serialize(fx.topics.generations.name(), e));
        }
        Set<SampleKey> elsewhere = sent.stream().filter(k -> SampleKeys.partition(k, PARTITIONS) != 0)
                .collect(Collectors.toSet());
        assertThat(elsewhere).as("the sample set spans both cases").isNotEmpty().hasSizeLessThan(sent.size());

        List<SampleKey> planned = fx.output(out[0]).readKeyValuesToList().stream().map(kv -> kv.key).toList();
        assertThat(planned).as("every plan reaches assembly's input once").containsExactlyInAnyOrderElementsOf(sent);

        String repartition = fx.driver.producedTopicNames().stream()
                .filter(t -> t.endsWith(IntakeTopology.PLANS_REPARTITION + "-repartition")).findFirst().orElseThrow();
        var keys = fx.driver.createOutputTopic(repartition, new ByteArrayDeserializer(), new ByteArrayDeserializer())
                .readKeyValuesToList().stream()
                .map(kv -> kv.key).map(b -> fx.context.serdes().forKeys(SampleKey.class).deserializer().deserialize(repartition, b))
                .toList();
        assertThat(keys).as("only the plans another task assembles are moved")
                .containsExactlyInAnyOrderElementsOf(elsewhere);
    }
}
