package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Sub-topology numbers name the scorer's tasks and state directories, so they must not follow the order the
 * sub-flow steps happen to be listed in: whatever the order, the scorer describes as the committed
 * topology/scoring-topology.txt, numbers included.
 */
@Tag("topology")
class SubFlowOrderTest {

    @Test
    void permutingTheStepsLeavesTheDescribedTopologyAsCommitted() throws Exception {
        String committed = Files.readString(TopologyDescriptionTest.FILE, StandardCharsets.UTF_8);
        List<List<ScoringTopology.Step>> orders = new ArrayList<>();
        List<ScoringTopology.Step> reversed = new ArrayList<>(ScoringTopology.steps(TopologyDescriptionTest.defaultContext()));
        Collections.reverse(reversed);
        orders.add(reversed);
        Random random = new Random(32);
        for (int i = 0; i < 4; i++) {
            // fresh steps each time: what one sub-flow hands on is set once per build
            List<ScoringTopology.Step> shuffled = new ArrayList<>(ScoringTopology.steps(TopologyDescriptionTest.defaultContext()));
            Collections.shuffle(shuffled, random);
            orders.add(shuffled);
        }
        for (List<ScoringTopology.Step> order : orders) {
            assertThat(ScoringTopology.compose(order).describe().toString())
                    .as("described with the steps in the order %s", order.stream().map(ScoringTopology.Step::flow).toList())
                    .isEqualTo(committed);
        }
        // the reversed list starts with the last sub-flow: the order really was changed
        assertThat(orders.get(0).get(0).flow()).isEqualTo(ScoringTopology.SubFlow.JUDGE_COST);
    }

    @Test
    void everySubFlowIsBuiltExactlyOnce() {
        List<ScoringTopology.Step> steps = ScoringTopology.steps(TopologyDescriptionTest.defaultContext());
        assertThatThrownBy(() -> ScoringTopology.compose(steps.subList(0, steps.size() - 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("no step builds [JUDGE_COST]");
        List<ScoringTopology.Step> twice = new ArrayList<>(steps);
        twice.add(steps.get(0));
        assertThatThrownBy(() -> ScoringTopology.compose(twice))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("two steps build INTAKE");
    }

    @Test
    void aStreamReadBeforeItsSubFlowIsBuiltSaysWhich() {
        ScoringTopology.Handoff<String> plans = new ScoringTopology.Handoff<>("intake's plans");
        assertThatThrownBy(plans::get).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("intake's plans read before the sub-flow that makes it was built");
        plans.set("p");
        assertThat(plans.get()).isEqualTo("p");
    }
}
