package io.mmgr.stream.judge.protocol;

import java.util.concurrent.CompletableFuture;

/** A VLM endpoint. Implementations complete the future exceptionally with a {@link ProviderException}. */
public interface ProviderClient {

    /**
     * The largest response body read from a provider, in bytes; a longer body is cut off and the call
     * fails as malformed. Eight times what the largest output cap a provider offers (65,536 tokens at
     * about four characters each) can produce, so no real answer comes near it, yet a runaway or
     * hostile answer costs at most this much memory per call in flight.
     */
    int MAX_BODY_BYTES = 2 << 20;

    /** Sends one call; cancelling the future abandons the HTTP exchange. */
    default CompletableFuture<ProviderReply> send(ProviderCall call) {
        return send(call, () -> { });
    }

    /**
     * Sends one call; {@code onWire} runs when the request body starts to leave (after the connection
     * is up), which is when a provider starts counting it.
     */
    CompletableFuture<ProviderReply> send(ProviderCall call, Runnable onWire);

    /** Whether inline video parts are accepted (else videos are sent as frames). */
    boolean acceptsVideo();

    JudgeProtocol protocol();
}
