package io.mmgr.stream.bench;

import java.util.List;
import java.util.Map;

/**
 * What a test asks of any scripted batch API, whichever protocol it speaks ({@link ScriptedVlmServer#batchApi}): the
 * counts behind the no-double-submission and no-double-billing checks, the batches created, and refused creations.
 * OpenAI's is {@link OpenAiBatches}; Gemini's and Anthropic's share {@link ScriptedBatches}.
 */
public interface ScriptedBatchApi {

    /** How many batches each custom id was created in. */
    Map<String, Integer> submitted();

    /** How many times each custom id was billed (answered in a batch's results). */
    Map<String, Integer> billed();

    int batchesCreated();

    /** The provider's ids of the batches created, in order. */
    List<String> batchIds();

    /** The next {@code n} batch creations are refused with the protocol's 429. */
    void refuseCreations(int n);

    /** Creations refused so far. */
    int refusedCreations();

    /**
     * While held, no batch ends, however it was scripted to run: each stays in progress (its polls say so) until
     * released, and then ends as scripted at its next status read. A test stops or kills a worker mid-batch this way
     * without racing the batch's end, and without a batch that runs for seconds.
     */
    void hold(boolean held);
}
