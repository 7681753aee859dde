package io.mmgr.stream.web;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.mmgr.stream.judge.CostLedger;
import io.mmgr.stream.judge.CostProjection;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * {@code GET /api/judge-cost?run=R}: the judge's spend and projected cost per checkpoint of a run, for the
 * dashboard's checkpoint list. Only an in-process judge ({@code run} without --judge-external) has its ledger
 * here; an external judge worker keeps its own, so the answer says where to look instead of guessing.
 * These figures are this process's: like /metrics, not gathered from other instances.
 */
final class JudgeCostEndpoint implements HttpHandler {

    /** Where the figures come from. */
    enum Mode {
        IN_PROCESS("in-process"), EXTERNAL("external"), NONE("none");

        final String wire;

        Mode(String wire) {
            this.wire = wire;
        }
    }

    static final String EXTERNAL_NOTE = "judge cost: see the judge worker's /metrics";

    private final Mode mode;
    private final CostLedger ledger;
    /** The engine's projection; null until it has one. */
    private final Supplier<CostProjection> projection;

    private JudgeCostEndpoint(Mode mode, CostLedger ledger, Supplier<CostProjection> projection) {
        this.mode = mode;
        this.ledger = ledger;
        this.projection = projection;
    }

    static JudgeCostEndpoint inProcess(CostLedger ledger, Supplier<CostProjection> projection) {
        return new JudgeCostEndpoint(Mode.IN_PROCESS, ledger, projection);
    }

    static JudgeCostEndpoint external() {
        return new JudgeCostEndpoint(Mode.EXTERNAL, null, () -> null);
    }

    static JudgeCostEndpoint none() {
        return new JudgeCostEndpoint(Mode.NONE, null, () -> null);
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        if (!"GET".equals(ex.getRequestMethod())) {
            HttpExchanges.error(ex, 405, "only GET is supported");
            return;
        }
        String run = HttpExchanges.query(ex).get("run");
        if (run == null || run.isBlank()) {
            HttpExchanges.error(ex, 400, "name the run: /api/judge-cost?run=RUN");
            return;
        }
        HttpExchanges.json(ex, 200, body(run));
    }

    ObjectNode body(String run) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("run", run);
        out.put("judge", mode.wire);
        ArrayNode list = out.putArray("checkpoints");
        if (mode == Mode.EXTERNAL) {
            out.put("note", EXTERNAL_NOTE);
        }
        if (mode != Mode.IN_PROCESS) {
            return out;
        }
        CostProjection p = projection.get();
        String prefix = run + " / ";
        // the ledger knows checkpoints that spent; the projection also those planned but not yet sent
        Map<String, CostLedger.Totals> spent = new TreeMap<>();
        ledger.checkpoints().forEach((k, t) -> {
            if (k.startsWith(prefix)) {
                spent.put(k.substring(prefix.length()), t);
            }
        });
        TreeSet<String> checkpoints = new TreeSet<>(spent.keySet());
        if (p != null) {
            checkpoints.addAll(p.checkpoints(run));
        }
        for (String checkpoint : checkpoints) {
            CostLedger.Totals t = ledger.checkpoint(run, checkpoint);
            ObjectNode c = list.addObject();
            c.put("checkpoint", checkpoint);
            c.put("calls", t.calls());
            c.put("inputTokens", t.inputTokens());
            c.put("outputTokens", t.outputTokens());
            c.put("spentUsd", t.costUsd());
            if (p != null) {
                c.put("plannedRequests", p.requests(run, checkpoint));
                c.put("projectedUsd", p.projectedUsd(run, checkpoint));
            } else {
                c.putNull("plannedRequests");
                c.putNull("projectedUsd");
            }
        }
        return out;
    }
}
