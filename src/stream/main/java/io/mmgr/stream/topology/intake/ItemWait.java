package io.mmgr.stream.topology.intake;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * How long, and how many, valid generation events may wait in intake for their benchmark item (see
 * {@link ItemWaitProcessor}). Set with {@code -P mmgr.intake.<name>=N} (or a line of
 * {@code MMGR_KAFKA_PROPERTIES}), like the scorer's other {@code mmgr.*} settings;
 * docs/configuration.md lists them.
 *
 * @param timeout   how long an event waits for its item before it is dead-lettered
 * @param maxEvents events that may wait at once in one partition of the generations topic; a further
 *                  event without its item is dead-lettered at once
 * @param maxBytes  their key and value bytes, likewise
 */
public record ItemWait(Duration timeout, int maxEvents, long maxBytes) {

    public static final String PREFIX = "mmgr.intake.";
    public static final String WAIT_MS = PREFIX + "item-wait-ms";
    public static final String MAX_EVENTS = PREFIX + "parked-events";
    public static final String MAX_BYTES = PREFIX + "parked-bytes";

    /**
     * Five minutes cover an item published just before its events (a few hundred ms to pass the item's
     * checks), a scorer catching up on a backlog of both, and the item's path held up on a cluster under
     * faults: with a minute, three-broker runs dead-lettered 2-70 valid judged samples whose items were
     * held up by a broker's failover or a scorer joining (stalls of 44-82 s). An event whose item never
     * comes costs only the wait; 10,000 events or 64 MiB per partition bound the disk (and changelog) a
     * stream of them can take, and past that each is dead-lettered at once.
     */
    public static final ItemWait DEFAULTS = new ItemWait(Duration.ofMinutes(5), 10_000, 64L << 20);

    public ItemWait {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException(WAIT_MS + " must not be negative");
        }
        if (maxEvents < 0 || maxBytes < 0) {
            throw new IllegalArgumentException(MAX_EVENTS + " and " + MAX_BYTES + " must not be negative");
        }
    }

    /**
     * From the {@code mmgr.intake.*} settings (other keys are ignored), the defaults for those not given.
     * An unknown {@code mmgr.intake.} name or a value that is not a whole number is an error, so that a
     * typo does not leave a default in force.
     */
    public static ItemWait of(Map<String, ?> settings) {
        Set<String> known = Set.of(WAIT_MS, MAX_EVENTS, MAX_BYTES);
        for (String k : settings.keySet()) {
            if (k.startsWith(PREFIX) && !known.contains(k)) {
                throw new IllegalArgumentException("unknown setting " + k + " (known: " + WAIT_MS + ", " + MAX_EVENTS
                        + ", " + MAX_BYTES + ")");
            }
        }
        long waitMs = number(settings, WAIT_MS, DEFAULTS.timeout.toMillis());
        long events = number(settings, MAX_EVENTS, DEFAULTS.maxEvents);
        if (events > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(MAX_EVENTS + " must be at most " + Integer.MAX_VALUE);
        }
        return new ItemWait(Duration.ofMillis(waitMs), (int) events, number(settings, MAX_BYTES, DEFAULTS.maxBytes));
    }

    private static long number(Map<String, ?> settings, String name, long fallback) {
        Object v = settings.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Long.parseLong(String.valueOf(v).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, not '" + v + "'");
        }
    }
}
