package io.mmgr.stream.judge.protocol;

import java.util.concurrent.CompletableFuture;

/** A VLM endpoint. Implementations complete the future exceptionally with a {@link ProviderException}. */
public interface ProviderClient {

    /** Sends one call; cancelling the future abandons the HTTP exchange. */
    CompletableFuture<ProviderReply> send(ProviderCall call);

    /** Whether inline video parts are accepted (else videos are sent as frames). */
    boolean acceptsVideo();

    /** {@code openai} or {@code gemini}. */
    String protocol();
}
