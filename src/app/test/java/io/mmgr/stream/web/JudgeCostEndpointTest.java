package io.mmgr.stream.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.avro.JudgeSpend;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/judge-cost}'s merge: every instance's spend rows added per checkpoint, the judge workers' projections
 * added beside them, a checkpoint planned but not spent yet and one spent without a projection.
 */
@Tag("unit")
class JudgeCostEndpointTest {

    static JudgeProjection projection(String checkpoint, String worker, long requests, double usd) {
        return JudgeProjection.newBuilder().setRunId("r").setCheckpointId(checkpoint).setWorker(worker).setPlannedRequests(requests)
                .setJudges(2).setSamples(3).setLaneFactor(1.0).setPerCallUsd(usd / (requests * 6.0)).setProjectedUsd(usd)
                .setUpdatedAt(Instant.ofEpochMilli(1_700_000_000_000L)).build();
    }

    static JsonNode checkpoint(JsonNode body, String id) {
        for (JsonNode c : body.get("checkpoints")) {
            if (c.get("checkpoint").asText().equals(id)) {
                return c;
            }
        }
        throw new AssertionError("no checkpoint " + id + " in " + body);
    }

    @Test
    void twoInstancesSpendAndTwoWorkersProjectionsAddUpPerCheckpoint() {
        Map<String, JudgeSpend> a = new TreeMap<>(Map.of(
                "c1", new JudgeSpend(3L, 4L, 3000L, 200L, 0.0060),
                "c2", new JudgeSpend(1L, 1L, 1000L, 70L, 0.0019)));
        Map<String, JudgeSpend> b = Map.of("c1", new JudgeSpend(2L, 2L, 2000L, 150L, 0.0041));
        ArrayNode rows = JudgeCostEndpoint.localRows(a);
        JudgeCostEndpoint.localRows(b).forEach(rows::add);
        assertThat(rows).hasSize(3);

        JsonNode body = JudgeCostEndpoint.merge("r", JudgeCostEndpoint.Mode.EXTERNAL, rows, List.of(
                projection("c1", "w1", 30, 0.36), projection("c1", "w2", 20, 0.24), projection("c3", "w1", 10, 0.12)));

        assertThat(body.get("run").asText()).isEqualTo("r");
        assertThat(body.get("judge").asText()).isEqualTo("external");
        assertThat(body.has("note")).as("no pointer elsewhere: the figures are here").isFalse();
        assertThat(body.get("checkpoints")).extracting(c -> c.get("checkpoint").asText()).containsExactly("c1", "c2", "c3");

        JsonNode c1 = checkpoint(body, "c1");
        assertThat(c1.get("verdicts").asLong()).isEqualTo(5);
        assertThat(c1.get("calls").asLong()).isEqualTo(6);
        assertThat(c1.get("inputTokens").asLong()).isEqualTo(5000);
        assertThat(c1.get("outputTokens").asLong()).isEqualTo(350);
        assertThat(c1.get("spentUsd").asDouble()).isCloseTo(0.0101, within(1e-12));
        assertThat(c1.get("plannedRequests").asLong()).isEqualTo(50);
        assertThat(c1.get("projectedUsd").asDouble()).isCloseTo(0.60, within(1e-12));
        assertThat(c1.get("projectingWorkers").asInt()).isEqualTo(2);

        JsonNode c2 = checkpoint(body, "c2");
        assertThat(c2.get("spentUsd").asDouble()).isCloseTo(0.0019, within(1e-12));
        assertThat(c2.get("plannedRequests").isNull()).as("no worker has projected c2").isTrue();
        assertThat(c2.get("projectedUsd").isNull()).isTrue();

        JsonNode c3 = checkpoint(body, "c3");
        assertThat(c3.get("spentUsd").asDouble()).as("planned, nothing sent yet").isEqualTo(0.0);
        assertThat(c3.get("calls").asLong()).isZero();
        assertThat(c3.get("projectedUsd").asDouble()).isCloseTo(0.12, within(1e-12));
    }

    @Test
    void aRunWithNothingJudgedHasNoCheckpoints() {
        JsonNode body = JudgeCostEndpoint.merge("r", JudgeCostEndpoint.Mode.NONE, Json.MAPPER.createArrayNode(), List.of());
        assertThat(body.get("judge").asText()).isEqualTo("none");
        assertThat(body.get("checkpoints")).isEmpty();
    }
}
