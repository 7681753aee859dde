package io.mmgr.stream.judge.batch;

import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderCodec;
import java.time.Duration;
import java.util.concurrent.Executor;

/** The batch protocol of a realtime client's provider: one case per protocol that has a batch API here. */
public final class BatchProtocols {

    /** The protocols {@link #of} has a case for (kept beside it). */
    private static final java.util.Set<JudgeProtocol> SPOKEN = java.util.EnumSet.of(JudgeProtocol.OPENAI, JudgeProtocol.GEMINI,
            JudgeProtocol.ANTHROPIC);

    private BatchProtocols() {
    }

    public static boolean speaks(JudgeProtocol p) {
        return SPOKEN.contains(p);
    }

    /** The protocols with a batch lane, for messages. */
    public static String names() {
        return SPOKEN.stream().map(JudgeProtocol::id).collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * @param client  the realtime client, whose body building and answer parsing the batch lines reuse
     * @param timeout the limit of one control call (create, poll, a results file's first byte)
     * @param reader  where results files are read (blocking reads: never a stream or consumer thread)
     */
    public static BatchProtocol of(ProviderClient client, Duration timeout, Executor reader) {
        if (!(client instanceof ProviderCodec codec)) {
            throw new IllegalArgumentException("the batch lane needs an HTTP provider client, not " + client.getClass().getSimpleName());
        }
        BatchHttp http = new BatchHttp(codec, timeout, reader);
        return switch (codec.protocol()) {
            case OPENAI -> new OpenAiBatchProtocol(http);
            case GEMINI -> new GeminiBatchProtocol(http);
            case ANTHROPIC -> new AnthropicBatchProtocol(http);
            default -> throw new IllegalArgumentException("the batch lane does not speak the " + codec.protocol()
                    + " protocol (it speaks " + names() + "); use --judge-lane realtime");
        };
    }
}
