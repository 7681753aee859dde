package io.mmgr.stream.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.leaderboard.ReliabilityFlags;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The JSON shapes of the REST API and the live feed (documented in docs/operations.md). */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    /** A leaderboard row as in the topic, plus its reliability flags. */
    static ObjectNode row(LeaderboardRow r, ReliabilityFlags reliability) {
        ObjectNode o = JsonAvro.toJson(r);
        ArrayNode flags = o.putArray("flags");
        for (ReliabilityFlags.Flag f : reliability.of(r)) {
            flags.addObject().put("code", f.code()).put("level", f.level()).put("text", f.text());
        }
        return o;
    }

    /**
     * Artifact references with the link this server serves each from: where they were recorded
     * ({@code recordedAt}, a query naming a score or an item) and their index there.
     */
    static ArrayNode artifacts(List<ArtifactRef> refs, String recordedAt) {
        ArrayNode a = MAPPER.createArrayNode();
        if (refs == null) {
            return a;
        }
        for (int i = 0; i < refs.size(); i++) {
            ObjectNode o = JsonAvro.toJson(refs.get(i));
            o.put("href", link(recordedAt, i));
            a.add(o);
        }
        return a;
    }

    static String link(String recordedAt, int index) {
        return "/api/artifact?" + recordedAt + "&index=" + index;
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
