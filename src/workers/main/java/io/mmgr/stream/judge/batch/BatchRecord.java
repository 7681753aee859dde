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

    /** The longest note an ENDED record keeps, in JSON bytes: the lane's reasons are short, an exception's may not be. */
    public static final int NOTE_MAX_BYTES = 256;
    /**
     * What a provider's batch id may take in JSON bytes before the SUBMITTED record outgrows {@link #MAX_GROWTH}
     * (OpenAI's {@code batch_...}, Gemini's {@code batches/...} and Anthropic's {@code msgbatch_...} are under 64).
     */
    public static final int PROVIDER_ID_MAX_BYTES = 256;
    /**
     * The most a SUBMITTED or ENDED record adds to its SUBMITTING form ({@code ,"providerId":"..."} and the note), so
     * that a SUBMITTING record cut to the log's limit less this has later records that fit as well.
     */
    public static final int MAX_GROWTH = ",\"providerId\":".length() + PROVIDER_ID_MAX_BYTES + NOTE_MAX_BYTES;

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

    /** The ENDED record, its note cut to {@link #NOTE_MAX_BYTES} (it must fit wherever its SUBMITTING record did). */
    public BatchRecord ended(String why) {
        return new BatchRecord(localId, State.ENDED, providerId, protocol, since, requests, cut(why == null ? "" : why));
    }

    /**
     * What one request adds to the record's JSON: its custom id and request key as Jackson writes them (quoted,
     * escaped, UTF-8), the colon between them and the comma after. With {@link #fixedBytes()} this sums to the size of
     * {@link #toJson()} exactly.
     */
    public static int requestBytes(String customId, String requestKey) {
        return jsonBytes(customId) + 1 + jsonBytes(requestKey) + 1;
    }

    /**
     * The record's size without its requests, for a record with at least one: its JSON with an empty request map,
     * less the comma its last request does not have ({@link #requestBytes} counts one for each).
     */
    public int fixedBytes() {
        return new BatchRecord(localId, state, providerId, protocol, since, Map.of(), note).toJson().length - 1;
    }

    /** A string's size as the record's JSON holds it: quoted, escaped as Jackson escapes, in UTF-8. */
    static int jsonBytes(String s) {
        try {
            return JSON.writeValueAsBytes(s).length;
        } catch (IOException e) {
            throw new IllegalArgumentException("not writable as JSON: " + e.getMessage(), e);
        }
    }

    private static String cut(String note) {
        if (jsonBytes(note) <= NOTE_MAX_BYTES) {
            return note;
        }
        String more = "...";
        int budget = NOTE_MAX_BYTES - jsonBytes(more) + 2; // the quotes are counted once, in the whole
        StringBuilder kept = new StringBuilder();
        int used = 2;
        for (int i = 0; i < note.length(); ) {
            int cp = note.codePointAt(i);
            String one = new String(Character.toChars(cp));
            int size = jsonBytes(one) - 2;
            if (used + size > budget) {
                break;
            }
            kept.append(one);
            used += size;
            i += Character.charCount(cp);
        }
        return kept + more;
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
