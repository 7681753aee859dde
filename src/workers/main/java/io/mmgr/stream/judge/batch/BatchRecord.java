package io.mmgr.stream.judge.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A batch as the lane records it in the compacted batches topic, keyed by its local id; the latest record counts.
 *
 * @param localId    ours: the worker's id and a random part
 * @param state      SUBMITTING (written before the create call), SUBMITTED (with the provider id), ENDED
 * @param providerId the provider's batch id; null while SUBMITTING
 * @param protocol   the protocol it was created with (a worker skips batches of another protocol)
 * @param since      when it was first recorded
 * @param requests   custom id to request key (the judge's cache key), for every request in it
 * @param note       why it ended, or ""
 */
public record BatchRecord(String localId, State state, String providerId, String protocol, Instant since,
                          Map<String, String> requests, String note) {

    public enum State { SUBMITTING, SUBMITTED, ENDED }

    private static final ObjectMapper JSON = new ObjectMapper();

    public BatchRecord {
        Objects.requireNonNull(localId);
        Objects.requireNonNull(state);
        Objects.requireNonNull(since);
        requests = Map.copyOf(requests);
        note = note == null ? "" : note;
    }

    public BatchRecord submitted(String id) {
        return new BatchRecord(localId, State.SUBMITTED, id, protocol, since, requests, "");
    }

    public BatchRecord ended(String why) {
        return new BatchRecord(localId, State.ENDED, providerId, protocol, since, requests, why);
    }

    public LocalBatch local() {
        return new LocalBatch(localId, since, requests.size());
    }

    public byte[] toJson() {
        ObjectNode n = JSON.createObjectNode().put("localId", localId).put("state", state.name()).put("protocol", protocol)
                .put("since", since.toString()).put("note", note);
        if (providerId != null) {
            n.put("providerId", providerId);
        }
        ObjectNode r = n.putObject("requests");
        requests.forEach(r::put);
        try {
            return JSON.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static BatchRecord fromJson(byte[] bytes) throws IOException {
        JsonNode n = JSON.readTree(bytes);
        Map<String, String> requests = new LinkedHashMap<>();
        n.path("requests").fields().forEachRemaining(e -> requests.put(e.getKey(), e.getValue().asText()));
        JsonNode pid = n.get("providerId");
        return new BatchRecord(n.path("localId").asText(), State.valueOf(n.path("state").asText()),
                pid == null || pid.isNull() ? null : pid.asText(), n.path("protocol").asText(), Instant.parse(n.path("since").asText()),
                requests, n.path("note").asText(""));
    }
}
