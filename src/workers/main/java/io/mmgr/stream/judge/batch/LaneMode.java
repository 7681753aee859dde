package io.mmgr.stream.judge.batch;

import java.util.Locale;

/** Which lane judge requests take: {@code --judge-lane}. */
public enum LaneMode {
    /** Every request is a realtime call (the default: nothing changes for existing users). */
    REALTIME,
    /** Every request waits for a batch, at the batch price. */
    BATCH,
    /** Realtime what the quota serves within the latency target, the rest in batches ({@link LaneChooser}). */
    AUTO;

    public static LaneMode parse(String value) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        for (LaneMode m : values()) {
            if (m.name().toLowerCase(Locale.ROOT).equals(v)) {
                return m;
            }
        }
        throw new IllegalArgumentException("judge lane must be realtime, batch or auto, not '" + value + "'");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
