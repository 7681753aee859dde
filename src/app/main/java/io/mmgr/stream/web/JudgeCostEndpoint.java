package io.mmgr.stream.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.avro.JudgeSpend;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /api/judge-cost?run=R}: the judge's spend and projected cost per checkpoint of a run, for the dashboard's
 * checkpoint list, the same whichever process judges (in-process or {@code mmgr judge-worker}). The spend is summed
 * from the verdicts in the scorer's judge-spend store, which each instance holds for its partitions: the answer
 * gathers every instance's rows ({@code scope=local}) and adds them. The projection is the sum of the judge workers'
 * records in the global judge-projections table, which every instance holds whole.
 */
final class JudgeCostEndpoint {

    /** Where this scorer's judge runs (the figures come from the topics either way). */
    enum Mode {
        IN_PROCESS("in-process"), EXTERNAL("external"), NONE("none");

        final String wire;

        Mode(String wire) {
            this.wire = wire;
        }
    }

    private JudgeCostEndpoint() {
    }

    /** This instance's answer to {@code scope=local}: its spend rows, one per checkpoint. */
    static ArrayNode localRows(Map<String, JudgeSpend> spend) {
        ArrayNode rows = Json.MAPPER.createArrayNode();
        spend.forEach((checkpoint, s) -> rows.addObject().put("checkpoint", checkpoint).put("verdicts", s.getVerdicts())
                .put("calls", s.getCalls()).put("inputTokens", s.getInputTokens()).put("outputTokens", s.getOutputTokens())
                .put("spentUsd", s.getCostUsd()));
        return rows;
    }

    /** Running sums of one checkpoint. */
    private static final class Sum {
        long verdicts;
        long calls;
        long inputTokens;
        long outputTokens;
        double spentUsd;
        long plannedRequests;
        double projectedUsd;
        int workers;
    }

    /**
     * The answer: every instance's spend rows ({@code rows}, as gathered) added per checkpoint, beside the sum of the
     * workers' projections; a checkpoint planned but not spent yet shows spend 0, one without a projection shows null.
     */
    static ObjectNode merge(String run, Mode mode, JsonNode rows, List<JudgeProjection> projections) {
        Map<String, Sum> byCheckpoint = new TreeMap<>();
        for (JsonNode r : rows) {
            Sum s = byCheckpoint.computeIfAbsent(r.get("checkpoint").asText(), k -> new Sum());
            s.verdicts += r.get("verdicts").asLong();
            s.calls += r.get("calls").asLong();
            s.inputTokens += r.get("inputTokens").asLong();
            s.outputTokens += r.get("outputTokens").asLong();
            s.spentUsd += r.get("spentUsd").asDouble();
        }
        for (JudgeProjection p : projections) {
            Sum s = byCheckpoint.computeIfAbsent(p.getCheckpointId(), k -> new Sum());
            s.plannedRequests += p.getPlannedRequests();
            s.projectedUsd += p.getProjectedUsd();
            s.workers++;
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("run", run);
        out.put("judge", mode.wire);
        ArrayNode list = out.putArray("checkpoints");
        byCheckpoint.forEach((checkpoint, s) -> {
            ObjectNode c = list.addObject();
            c.put("checkpoint", checkpoint).put("verdicts", s.verdicts).put("calls", s.calls).put("inputTokens", s.inputTokens)
                    .put("outputTokens", s.outputTokens).put("spentUsd", s.spentUsd);
            if (s.workers == 0) {
                c.putNull("plannedRequests");
                c.putNull("projectedUsd");
            } else {
                c.put("plannedRequests", s.plannedRequests).put("projectedUsd", s.projectedUsd);
            }
            c.put("projectingWorkers", s.workers);
        });
        return out;
    }
}
