package io.mmgr.stream.contract;

import java.util.Optional;

/**
 * The key of one part's metric in a sample's metrics, {@code <part>.<metric>} on the wire (Avro maps,
 * topics, the API), e.g. {@code judge.cross_wall}, {@code maze-pixel.layout_iou}. A metric name never
 * holds a dot; a part may ({@code human:<labeler>} takes the labeler's id as it is), so the key splits at
 * its last dot.
 */
public record MetricKey(String part, String name) {

    public static final char SEPARATOR = '.';

    public MetricKey {
        if (part == null || part.isBlank()) {
            throw new IllegalArgumentException("a metric key needs a part, got " + (part == null ? "none" : "'" + part + "'"));
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a metric key needs a metric name, got "
                    + (name == null ? "none" : "'" + name + "'") + " (part '" + part + "')");
        }
        if (name.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("metric name '" + name + "' of part '" + part + "' may not contain '"
                    + SEPARATOR + "'");
        }
    }

    public static MetricKey of(String part, String name) {
        return new MetricKey(part, name);
    }

    /**
     * The wire key of a part's metric as it arrived, unchecked: assembly keys every metric of every part,
     * and a human label's metric names are the labeler's own (intake does not refuse a dot in them), so a
     * sample must not fail here. Gates and readers use {@link #of} and {@link #parse}.
     */
    public static String wire(String part, String name) {
        return part + SEPARATOR + name;
    }

    /** Reads a wire key; fails with the reason when it is not {@code <part>.<metric>}. */
    public static MetricKey parse(String key) {
        return tryParse(key).orElseThrow(() -> new IllegalArgumentException(
                "metric key " + (key == null ? "null" : "'" + key + "'") + " is not <part>.<metric>"));
    }

    /** Reads a wire key, or empty when it is not {@code <part>.<metric>} (a bare or blank name). */
    public static Optional<MetricKey> tryParse(String key) {
        if (key == null) {
            return Optional.empty();
        }
        int dot = key.lastIndexOf(SEPARATOR);
        if (dot <= 0 || dot == key.length() - 1) {
            return Optional.empty();
        }
        String part = key.substring(0, dot);
        String name = key.substring(dot + 1);
        if (part.isBlank() || name.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new MetricKey(part, name));
    }

    /** Whether this is a metric of {@code part}. */
    public boolean isOf(String part) {
        return this.part.equals(part);
    }

    /** The wire form, {@code <part>.<metric>}. */
    @Override
    public String toString() {
        return wire(part, name);
    }
}
