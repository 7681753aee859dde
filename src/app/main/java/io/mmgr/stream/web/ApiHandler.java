package io.mmgr.stream.web;

import io.mmgr.stream.contract.SampleStatus;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.SamplePartitioner;
import io.mmgr.stream.leaderboard.ReliabilityFlags;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The REST API. Lists are gathered from every instance (each answers {@code scope=local} from its
 * own partitions); a single sample is read where its key lives, forwarded to the owning instance
 * when that is another one. Shapes are documented in docs/operations.md.
 */
final class ApiHandler implements HttpHandler {

    static final int DEFAULT_SAMPLE_LIMIT = 200;

    private final StoreQueries local;
    private final Cluster cluster;
    private final ArtifactEndpoint artifacts;
    private final ReliabilityFlags flags;
    private final ItemJson items = new ItemJson(TaskFamily.installed());
    private final Supplier<JudgeCostEndpoint.Mode> judgeMode;

    ApiHandler(StoreQueries local, Cluster cluster, ArtifactResolver artifacts, ReliabilityFlags flags) {
        this(local, cluster, artifacts, flags, () -> JudgeCostEndpoint.Mode.NONE);
    }

    /** @param judgeMode where this scorer's judge runs, as {@code /api/judge-cost} reports it */
    ApiHandler(StoreQueries local, Cluster cluster, ArtifactResolver artifacts, ReliabilityFlags flags,
               Supplier<JudgeCostEndpoint.Mode> judgeMode) {
        this.judgeMode = judgeMode;
        this.local = local;
        this.cluster = cluster;
        this.flags = flags;
        this.artifacts = new ArtifactEndpoint(local, cluster, artifacts);
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        try {
            if (!"GET".equals(ex.getRequestMethod())) {
                HttpExchanges.error(ex, 405, "only GET is supported");
                return;
            }
            String path = ex.getRequestURI().getPath();
            Map<String, String> q = HttpExchanges.query(ex);
            switch (path) {
                case "/api/runs" -> HttpExchanges.json(ex, 200, runs(ex, q));
                case "/api/leaderboard" -> HttpExchanges.json(ex, 200, gather(ex, path, q, () -> localRows(q)));
                case "/api/progress" -> HttpExchanges.json(ex, 200, progress(ex, q));
                case "/api/samples" -> HttpExchanges.json(ex, 200, samples(ex, path, q));
                case "/api/sample" -> sample(ex, q);
                case "/api/comparisons" -> HttpExchanges.json(ex, 200, gather(ex, path, q, () -> localComparisons(q)));
                case "/api/alerts" -> HttpExchanges.json(ex, 200, sortAlerts(gather(ex, path, q, () -> localAlerts(q))));
                case "/api/artifact" -> artifacts.handle(ex, q);
                case "/api/instances" -> HttpExchanges.json(ex, 200, instances());
                case "/api/judge-cost" -> HttpExchanges.json(ex, 200, judgeCost(ex, path, q));
                case "/api/report" -> report(ex, q);
                default -> HttpExchanges.error(ex, 404, "no such endpoint: " + path + " (see docs/operations.md, REST API)");
            }
        } catch (NotFound e) {
            HttpExchanges.error(ex, 404, e.getMessage());
        } catch (IllegalArgumentException e) {
            HttpExchanges.error(ex, 400, e.getMessage());
        } catch (Cluster.Unavailable e) {
            HttpExchanges.error(ex, 503, e.getMessage());
        } catch (InvalidStateStoreException e) {
            HttpExchanges.error(ex, 503, "the scorer's stores are not queryable right now (starting or rebalancing); retry");
        } catch (RuntimeException e) {
            HttpExchanges.internalError(ex, e);
        }
    }

    private static boolean localOnly(Map<String, String> q) {
        return "local".equals(q.get("scope"));
    }

    /** Names the instances a gathered answer lacks: {@code X-MMGR-Partial: host:port host:port}. */
    static final String PARTIAL = "X-MMGR-Partial";

    /**
     * This instance's answer, plus every other instance's local answer when the request is not itself
     * local. An instance that cannot answer (gone, and its session not yet expired; starting) leaves the
     * answer partial, not failed: what the live instances hold, with {@link #PARTIAL} naming the missing.
     */
    private ArrayNode gather(HttpExchange ex, String path, Map<String, String> q, Supplier<ArrayNode> mine) {
        ArrayNode out = mine.get();
        if (localOnly(q)) {
            return out;
        }
        for (HostInfo h : cluster.others()) {
            JsonNode theirs;
            try {
                theirs = cluster.get(h, path + "?" + queryString(q, "scope", "local"));
            } catch (Cluster.Unavailable e) {
                String missing = h.host() + ":" + h.port();
                String before = ex.getResponseHeaders().getFirst(PARTIAL);
                if (before == null || !List.of(before.split(" ")).contains(missing)) {
                    ex.getResponseHeaders().set(PARTIAL, before == null ? missing : before + " " + missing);
                }
                continue;
            }
            if (theirs != null) {
                theirs.forEach(out::add);
            }
        }
        return out;
    }

    static String queryString(Map<String, String> q, String extraKey, String extraValue) {
        Map<String, String> all = new LinkedHashMap<>(q);
        all.put(extraKey, extraValue);
        StringBuilder b = new StringBuilder();
        all.forEach((k, v) -> b.append(b.length() == 0 ? "" : "&").append(Json.enc(k)).append('=').append(Json.enc(v)));
        return b.toString();
    }

    private ArrayNode localRows(Map<String, String> q) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        List<LeaderboardRow> rows = local.rows(q.get("run"), q.get("checkpoint"), q.get("task"));
        rows.sort(Comparator.comparing(LeaderboardRow::getRunId).thenComparingLong(LeaderboardRow::getTrainingStep)
                .thenComparing(LeaderboardRow::getCheckpointId).thenComparing(LeaderboardRow::getTask));
        rows.forEach(r -> a.add(Json.row(r, flags)));
        return a;
    }

    /** Runs with their checkpoints (from the all-tasks rows), ordered by training step. */
    private JsonNode runs(HttpExchange ex, Map<String, String> q) {
        Map<String, String> star = new LinkedHashMap<>(q);
        star.put("task", SampleKeys.ALL_TASKS);
        ArrayNode rows = gather(ex, "/api/leaderboard", star, () -> localRows(star));
        Map<String, List<JsonNode>> byRun = new TreeMap<>();
        rows.forEach(r -> byRun.computeIfAbsent(r.get("runId").asText(), k -> new ArrayList<>()).add(r));
        ArrayNode out = Json.MAPPER.createArrayNode();
        byRun.forEach((run, list) -> {
            list.sort(Comparator.comparingLong((JsonNode r) -> r.get("trainingStep").asLong())
                    .thenComparing(r -> r.get("checkpointId").asText()));
            ObjectNode o = out.addObject().put("runId", run);
            o.put("model", list.get(list.size() - 1).get("model").asText(null));
            ArrayNode cks = o.putArray("checkpoints");
            for (JsonNode r : list) {
                ObjectNode c = cks.addObject();
                for (String f : List.of("checkpointId", "trainingStep", "samplesExpected", "samplesScored",
                        "samplesPending", "samplesFailed", "primaryRate", "primaryCiLow", "primaryCiHigh", "updatedAt")) {
                    c.set(f, r.get(f));
                }
            }
        });
        return out;
    }

    /** A checkpoint's progress per task: expected, scored, pending, failed, partial. */
    private JsonNode progress(HttpExchange ex, Map<String, String> q) {
        require(q, "run", "checkpoint");
        Map<String, String> filter = new LinkedHashMap<>();
        filter.put("run", q.get("run"));
        filter.put("checkpoint", q.get("checkpoint"));
        keepScope(q, filter);
        ArrayNode rows = gather(ex, "/api/leaderboard", filter, () -> localRows(filter));
        ObjectNode out = Json.MAPPER.createObjectNode().put("runId", q.get("run")).put("checkpointId", q.get("checkpoint"));
        ArrayNode tasks = out.putArray("tasks");
        // every task of the benchmark, from the first sample on: those not started yet show 0 of their count
        Map<String, Long> benchmark = new TreeMap<>(local.benchmarkTasks());
        long step = 0;
        for (JsonNode r : rows) {
            boolean all = SampleKeys.ALL_TASKS.equals(r.get("task").asText());
            ObjectNode p = all ? out.putObject("total") : tasks.addObject();
            for (String f : List.of("task", "trainingStep", "samplesExpected", "samplesScored", "samplesPending",
                    "samplesFailed", "samplesPartial")) {
                p.set(f, r.get(f));
            }
            benchmark.remove(r.get("task").asText());
            step = r.get("trainingStep").asLong();
            p.put("fraction", fraction(r.get("samplesScored").asLong(), r.get("samplesExpected").asLong()));
        }
        if (!rows.isEmpty()) {
            for (Map.Entry<String, Long> e : benchmark.entrySet()) {
                tasks.addObject().put("task", e.getKey()).put("trainingStep", step).put("samplesExpected", e.getValue())
                        .put("samplesScored", 0).put("samplesPending", 0).put("samplesFailed", 0).put("samplesPartial", 0)
                        .put("fraction", 0.0);
            }
        }
        if (rows.isEmpty()) {
            throw new NotFound("no scores yet for run '" + q.get("run") + "', checkpoint '" + q.get("checkpoint") + "'");
        }
        return out;
    }

    /** A local request stays local in the lists it is made from. */
    private static void keepScope(Map<String, String> q, Map<String, String> filter) {
        if (localOnly(q)) {
            filter.put("scope", "local");
        }
    }

    private static double fraction(long scored, long expected) {
        return expected == 0 ? 0.0 : Math.min(1.0, scored / (double) expected);
    }

    private JsonNode samples(HttpExchange ex, String path, Map<String, String> q) {
        require(q, "run", "checkpoint", "task");
        int limit = q.containsKey("limit") ? Integer.parseInt(q.get("limit")) : DEFAULT_SAMPLE_LIMIT;
        String status = q.get("status");
        String outcome = q.get("outcome");
        Predicate<SampleScore> filter = s -> (status == null || status.isEmpty() || status.equalsIgnoreCase(s.getStatus()))
                && (outcome == null || outcome.isEmpty()
                        || ("fail".equals(outcome) ? s.getPrimary() == null || s.getPrimary() < 1.0 : s.getPrimary() != null && s.getPrimary() == 1.0));
        ArrayNode all = gather(ex, path, q, () -> {
            ArrayNode a = Json.MAPPER.createArrayNode();
            for (SampleScore s : local.samples(q.get("run"), q.get("checkpoint"), q.get("task"), filter, limit)) {
                a.add(summary(s));
            }
            return a;
        });
        List<JsonNode> list = new ArrayList<>();
        all.forEach(list::add);
        // worst first: failures before passes, then by sample id
        list.sort(Comparator.comparingDouble((JsonNode n) -> n.get("primary").isNull() ? -1 : n.get("primary").asDouble())
                .thenComparing(n -> n.get("sampleId").asText()).thenComparingInt(n -> n.get("seed").asInt()));
        ArrayNode out = Json.MAPPER.createArrayNode();
        list.stream().limit(limit).forEach(out::add);
        return out;
    }

    private static ObjectNode summary(SampleScore s) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("runId", s.getRunId()).put("checkpointId", s.getCheckpointId()).put("task", s.getTask())
                .put("sampleId", s.getSampleId()).put("seed", s.getSeed()).put("status", s.getStatus())
                .put("primarySource", s.getPrimarySource());
        if (s.getPrimary() == null) {
            o.putNull("primary");
        } else {
            o.put("primary", s.getPrimary());
        }
        ArrayNode failed = o.putArray("failedChecks");
        s.getFailedChecks().forEach(failed::add);
        return o;
    }

    private void sample(HttpExchange ex, Map<String, String> q) throws IOException {
        require(q, "run", "checkpoint", "task", "sample");
        SampleKey key = sampleKey(q);
        JsonNode answer;
        if (localOnly(q)) {
            answer = localSample(key);
        } else {
            // the score table lives where assembly put the sample: partitioned by its fields (SampleKeys)
            HostInfo owner = cluster.owner(local.stores().sampleScores.name(), key, new SamplePartitioner<>());
            answer = cluster.isSelf(owner) ? localSample(key) : cluster.get(owner, "/api/sample?" + queryString(q, "scope", "local"));
            if (answer instanceof ObjectNode o && !cluster.isSelf(owner)) {
                o.put("answeredBy", owner.host() + ":" + owner.port());
            }
        }
        if (answer == null) {
            HttpExchanges.error(ex, 404, "no score for " + SampleKeys.ref(key));
            return;
        }
        HttpExchanges.json(ex, 200, answer);
    }

    /** The full score, with links to the generation's artifacts and the benchmark item (the reference). */
    private JsonNode localSample(SampleKey key) {
        SampleScore s = local.sample(key).orElse(null);
        if (s == null) {
            return null;
        }
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.set("score", JsonAvro.toJson(s));
        o.set("artifacts", Json.artifacts(s.getArtifacts(), ArtifactEndpoint.sampleQuery(key)));
        BenchmarkItem item = local.item(key.getTask(), key.getSampleId()).orElse(null);
        if (item != null) {
            ObjectNode it = items.of(item);
            it.set("artifacts", Json.artifacts(item.getArtifacts(), ArtifactEndpoint.itemQuery(key.getTask(), key.getSampleId())));
            o.set("item", it);
        }
        o.set("why", why(s));
        o.put("answeredBy", cluster.self().host() + ":" + cluster.self().port());
        return o;
    }

    /** Why a sample did not pass, in words: failed and missing checks, errors, parts not available. */
    static ArrayNode why(SampleScore s) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        if (SampleStatus.FAILED.is(s.getStatus())) {
            s.getErrors().forEach((part, msg) -> a.add("part " + part + " failed: " + msg));
        }
        s.getFailedChecks().forEach(c -> a.add("check failed: " + c));
        // one word each, as everywhere: "unavailable" cannot arrive (e.g. no judge configured), "pending" is still coming
        String word = SampleStatus.PENDING.is(s.getStatus()) ? "pending" : "unavailable";
        s.getMissingChecks().forEach(c -> a.add("check " + word + ": " + c));
        s.getPending().forEach((part, msg) -> a.add("part " + part + " " + word + ": " + msg));
        if (a.isEmpty() && s.getPrimary() != null && s.getPrimary() < 1.0) {
            a.add("primary " + s.getPrimary() + " (" + s.getPrimarySource() + ")");
        }
        return a;
    }

    private ArrayNode localComparisons(Map<String, String> q) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (CheckpointComparison c : local.comparisons(q.get("run"), q.get("task"))) {
            if (q.get("checkpoint") == null || q.get("checkpoint").equals(c.getCheckpointId())) {
                a.add(JsonAvro.toJson(c));
            }
        }
        return a;
    }

    private ArrayNode localAlerts(Map<String, String> q) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (Alert al : local.alerts(q.get("run"))) {
            a.add(JsonAvro.toJson(al));
        }
        return a;
    }

    private static ArrayNode sortAlerts(ArrayNode alerts) {
        List<JsonNode> list = new ArrayList<>();
        alerts.forEach(list::add);
        list.sort(Comparator.comparing((JsonNode n) -> n.get("raisedAt").asText()).reversed());
        ArrayNode out = Json.MAPPER.createArrayNode();
        list.forEach(out::add);
        return out;
    }

    /** The run's static report page (io.mmgr.stream.report.ReportPage), from every instance's rows, comparisons and alerts. */
    private void report(HttpExchange ex, Map<String, String> q) throws IOException {
        require(q, "run");
        Map<String, String> filter = new LinkedHashMap<>();
        filter.put("run", q.get("run"));
        keepScope(q, filter);
        List<LeaderboardRow> rows = new ArrayList<>();
        gather(ex, "/api/leaderboard", filter, () -> localRows(filter)).forEach(n -> {
            ObjectNode o = ((ObjectNode) n).deepCopy();
            o.remove("flags"); // added for the dashboard, not part of the record
            rows.add(JsonAvro.read(o, LeaderboardRow.class));
        });
        List<CheckpointComparison> comparisons = new ArrayList<>();
        gather(ex, "/api/comparisons", filter, () -> localComparisons(filter))
                .forEach(n -> comparisons.add(JsonAvro.read(n, CheckpointComparison.class)));
        List<Alert> alerts = new ArrayList<>();
        gather(ex, "/api/alerts", filter, () -> localAlerts(filter)).forEach(n -> alerts.add(JsonAvro.read(n, Alert.class)));
        String html = io.mmgr.stream.report.ReportPage.html(q.get("run"), q.get("checkpoint"), rows, comparisons, alerts,
                java.time.Instant.now());
        String name = ("mmgr-report-" + q.get("run") + (q.get("checkpoint") == null ? "" : "-" + q.get("checkpoint")))
                .replaceAll("[^A-Za-z0-9._-]", "_") + ".html";
        ex.getResponseHeaders().set("Content-Disposition", "inline; filename=\"" + name + "\"");
        ex.getResponseHeaders().set("Content-Security-Policy", io.mmgr.stream.report.ReportPage.CSP + "; frame-ancestors 'none'");
        HttpExchanges.send(ex, 200, "text/html; charset=utf-8", html.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Every instance's judge spend rows added per checkpoint, with the workers' projections ({@link JudgeCostEndpoint}). */
    private JsonNode judgeCost(HttpExchange ex, String path, Map<String, String> q) {
        require(q, "run");
        String run = q.get("run");
        ArrayNode rows = gather(ex, path, q, () -> JudgeCostEndpoint.localRows(local.judgeSpend(run)));
        return localOnly(q) ? rows : JudgeCostEndpoint.merge(run, judgeMode.get(), rows, local.judgeProjections(run));
    }

    private JsonNode instances() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("self", cluster.self().host() + ":" + cluster.self().port());
        ArrayNode others = o.putArray("others");
        cluster.others().forEach(h -> others.add(h.host() + ":" + h.port()));
        return o;
    }

    /** The sample a request names: run, checkpoint, task, sample and seed (0 when not given). */
    static SampleKey sampleKey(Map<String, String> q) {
        return new SampleKey(q.get("run"), q.get("checkpoint"), q.get("task"), q.get("sample"),
                q.containsKey("seed") ? Integer.parseInt(q.get("seed")) : 0);
    }

    static void require(Map<String, String> q, String... names) {
        for (String n : names) {
            if (q.get(n) == null || q.get(n).isEmpty()) {
                throw new IllegalArgumentException("parameter '" + n + "' is required");
            }
        }
    }

    /** 404 with a message. */
    static final class NotFound extends IllegalArgumentException {
        NotFound(String message) {
            super(message);
        }
    }
}
