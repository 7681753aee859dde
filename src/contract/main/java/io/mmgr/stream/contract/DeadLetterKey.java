package io.mmgr.stream.contract;

import java.util.Arrays;

/**
 * The key of a dead letter: the original record's key, cut, so that a dead letter fits whatever key its
 * record had. Here beside {@link Topics}, whose dead-letter topic writes it.
 */
public final class DeadLetterKey {

    /** Bytes of the original key a dead letter keeps (as its record key and its copy). */
    public static final int KEPT_BYTES = 1 << 10;

    private DeadLetterKey() {
    }

    /** {@code key} cut to {@link #KEPT_BYTES}. */
    public static byte[] of(byte[] key) {
        return key == null || key.length <= KEPT_BYTES ? key : Arrays.copyOf(key, KEPT_BYTES);
    }
}
