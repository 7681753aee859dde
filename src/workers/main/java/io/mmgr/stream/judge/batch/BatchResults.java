package io.mmgr.stream.judge.batch;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.judge.protocol.ProviderCodec;
import io.mmgr.stream.judge.protocol.ProviderException;
import java.net.http.HttpHeaders;
import java.util.Map;

/** One batch result read as the realtime lane reads the same answer: by the realtime client's parser and failure classes. */
final class BatchResults {

    private static final HttpHeaders NO_HEADERS = HttpHeaders.of(Map.of(), (a, b) -> true);

    private BatchResults() {
    }

    /** A successful result's body: the answer, or the refusal or malformed failure the realtime parser finds in it. */
    static BatchOutcome answered(ProviderCodec codec, String customId, JsonNode body) {
        try {
            return new BatchOutcome.Answered(customId, codec.answer(body));
        } catch (ProviderException e) {
            return new BatchOutcome.Failed(customId, e);
        }
    }

    /**
     * An error result, classified as the realtime call answered {@code status} with {@code errorBody} would be: final when
     * the provider answered this request (its own 4xx), else retried (5xx, 429), as in the realtime lane.
     */
    static BatchOutcome failed(ProviderCodec codec, String customId, int status, JsonNode errorBody) {
        return new BatchOutcome.Failed(customId, codec.failure(status, NO_HEADERS, codec.redact(errorBody.toString())));
    }
}
