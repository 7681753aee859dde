package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The JSON reader for provider answers, shared by the realtime clients and the batch lane's result lines. */
public final class ProviderJson {

    /**
     * Reads provider envelopes within limits no real answer comes near (answers are one string inside a
     * few levels of objects, with tens of tokens around it): the document and its strings no longer
     * than the body limit, 64 levels, 10,000 tokens, 1,000-character names and 100-digit numbers. A
     * hostile body then fails fast as malformed instead of exhausting the stack or the heap.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxDocumentLength(ProviderClient.MAX_BODY_BYTES)
                    .maxStringLength(ProviderClient.MAX_BODY_BYTES)
                    .maxNestingDepth(64)
                    .maxTokenCount(10_000)
                    .maxNameLength(1_000)
                    .maxNumberLength(100)
                    .build())
            .build()).build();

    private ProviderJson() {
    }
}
