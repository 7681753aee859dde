package io.mmgr.stream.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.tasks.ArtifactUnavailableException;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.SamplePartitioner;
import io.mmgr.stream.json.JsonAvro;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/artifact}: the bytes of an artifact an event recorded, named by where it was recorded
 * (a sample's score: run, checkpoint, task, sample, seed; or a benchmark item: task, item) and its
 * index there. The caller never chooses the Content-Type: model outputs are untrusted content, and a
 * served type of the caller's choosing (text/html, image/svg+xml) would run it as this origin's page.
 * Only the media types the dashboard shows are served, only with their recorded SHA-256, and always
 * with {@code nosniff} and a sandboxing policy.
 */
final class ArtifactEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(ArtifactEndpoint.class);

    /** What a browser shows as an image or a video without running anything. */
    static final Set<String> SERVED = Set.of("image/png", "image/jpeg", "video/mp4", "video/webm");

    private final StoreQueries local;
    private final Cluster cluster;
    private final ArtifactResolver artifacts;

    ArtifactEndpoint(StoreQueries local, Cluster cluster, ArtifactResolver artifacts) {
        this.local = local;
        this.cluster = cluster;
        this.artifacts = artifacts;
    }

    /** The link to artifact {@code index} of a sample's score. */
    static String sampleQuery(SampleKey k) {
        return "run=" + Json.enc(k.getRunId()) + "&checkpoint=" + Json.enc(k.getCheckpointId()) + "&task=" + Json.enc(k.getTask())
                + "&sample=" + Json.enc(k.getSampleId()) + "&seed=" + k.getSeed();
    }

    /** The link to artifact {@code index} of a benchmark item. */
    static String itemQuery(String task, String sampleId) {
        return "task=" + Json.enc(task) + "&item=" + Json.enc(sampleId);
    }

    void handle(HttpExchange ex, Map<String, String> q) throws IOException {
        ApiHandler.require(q, "task", "index");
        int index;
        try {
            index = Integer.parseInt(q.get("index"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter 'index' must be a number");
        }
        if (!q.containsKey("item")) {
            ApiHandler.require(q, "run", "checkpoint", "sample");
        }
        String where = q.containsKey("item") ? "item " + q.get("task") + "/" + q.get("item") : "sample " + SampleKeys.ref(ApiHandler.sampleKey(q));
        List<ArtifactRef> refs = recorded(q);
        if (index < 0 || index >= refs.size()) {
            throw new ApiHandler.NotFound(where + " has " + refs.size() + " artifact(s); there is no artifact " + index);
        }
        ArtifactRef ref = refs.get(index);
        String type = ref.getMediaType() == null ? "" : ref.getMediaType().split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!SERVED.contains(type)) {
            HttpExchanges.error(ex, 415, "artifact " + index + " of " + where + " is recorded as '" + ref.getMediaType()
                    + "'; only " + String.join(", ", SERVED.stream().sorted().toList()) + " are served");
            return;
        }
        if (ref.getSha256() == null || ref.getSha256().isBlank()) {
            HttpExchanges.error(ex, 422, "artifact " + index + " of " + where + " carries no sha256 digest; only artifacts "
                    + "whose bytes can be checked are served");
            return;
        }
        try {
            if (ref.getUri().startsWith("data:")) {
                send(ex, type, artifacts.read(ref));
            } else {
                // the resolver checked the digest of the file it returns
                send(ex, type, artifacts.file(ref));
            }
        } catch (ArtifactUnavailableException e) {
            String id = HttpExchanges.errorId();
            LOG.warn("artifact {} of {} not served for now (error id {}): {}", index, where, id, e.getMessage());
            HttpExchanges.error(ex, 503, "artifact " + index + " of " + where + " cannot be served now: its store does not "
                    + "answer; try again (error id " + id + ")");
        } catch (ArtifactException e) {
            // the resolver's reason names paths and I/O errors: for the log, with an id the caller can quote
            String id = HttpExchanges.errorId();
            LOG.warn("artifact {} of {} not served (error id {}): {}", index, where, id, e.getMessage());
            HttpExchanges.error(ex, 404, "artifact " + index + " of " + where + " cannot be served: missing, outside the "
                    + "scorer's artifact roots, over the size limit or not matching its recorded sha256 (error id " + id + ")");
        }
    }

    /** The references as the event recorded them: the score's (where its key lives) or the benchmark item's. */
    private List<ArtifactRef> recorded(Map<String, String> q) {
        if (q.containsKey("item")) {
            BenchmarkItem item = local.item(q.get("task"), q.get("item"))
                    .orElseThrow(() -> new ApiHandler.NotFound("no benchmark item " + q.get("task") + "/" + q.get("item")));
            return item.getArtifacts();
        }
        SampleKey key = ApiHandler.sampleKey(q);
        HostInfo owner = "local".equals(q.get("scope")) ? cluster.self()
                : cluster.owner(local.stores().sampleScores.name(), key, new SamplePartitioner<>());
        if (cluster.isSelf(owner)) {
            return local.sample(key).map(SampleScore::getArtifacts)
                    .orElseThrow(() -> new ApiHandler.NotFound("no score for " + SampleKeys.ref(key)));
        }
        // the owner's recorded references; the bytes are read here, under this instance's own roots and checks
        JsonNode answer = cluster.get(owner, "/api/sample?" + sampleQuery(key) + "&scope=local");
        if (answer == null) {
            throw new ApiHandler.NotFound("no score for " + SampleKeys.ref(key));
        }
        List<ArtifactRef> refs = new ArrayList<>();
        answer.path("score").path("artifacts").forEach(n -> refs.add(JsonAvro.read(n, ArtifactRef.class)));
        return refs;
    }

    private static void headers(HttpExchange ex, String type) {
        HttpExchanges.secure(ex);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("Content-Security-Policy", HttpExchanges.ARTIFACT_CSP);
        ex.getResponseHeaders().set("Content-Disposition", "inline");
        ex.getResponseHeaders().set("Cache-Control", "private, max-age=3600");
    }

    private static void send(HttpExchange ex, String type, byte[] bytes) throws IOException {
        headers(ex, type);
        ex.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
        ex.close();
    }

    private static void send(HttpExchange ex, String type, Path file) throws IOException {
        headers(ex, type);
        ex.sendResponseHeaders(200, Files.size(file));
        try (InputStream in = Files.newInputStream(file); OutputStream out = ex.getResponseBody()) {
            in.transferTo(out);
        }
        ex.close();
    }
}
