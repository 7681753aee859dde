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
    static ObjectNode row(LeaderboardRow r) {
        ObjectNode o = JsonAvro.toJson(r);
        ArrayNode flags = o.putArray("flags");
        for (ReliabilityFlags.Flag f : ReliabilityFlags.of(r)) {
            flags.addObject().put("code", f.code()).put("level", f.level()).put("text", f.text());
        }
        return o;
    }

    /** Artifact references with a link this server serves them from. */
    static ArrayNode artifacts(List<ArtifactRef> refs) {
        ArrayNode a = MAPPER.createArrayNode();
        if (refs == null) {
            return a;
        }
        for (ArtifactRef ref : refs) {
            ObjectNode o = JsonAvro.toJson(ref);
            o.put("href", link(ref));
            a.add(o);
        }
        return a;
    }

    static String link(ArtifactRef ref) {
        StringBuilder b = new StringBuilder("/api/artifact?uri=").append(enc(ref.getUri()))
                .append("&mediaType=").append(enc(ref.getMediaType()));
        if (ref.getSha256() != null) {
            b.append("&sha256=").append(enc(ref.getSha256()));
        }
        return b.toString();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
