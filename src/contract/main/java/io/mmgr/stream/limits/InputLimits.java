package io.mmgr.stream.limits;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The size limits of every input record (generation events, benchmark items, human labels): the one
 * place they are defined. Each can be changed with {@code -P mmgr.limits.<name>=N} (or a line of
 * {@code MMGR_KAFKA_PROPERTIES}), like the scorer's other {@code mmgr.*} settings; the "Input limits"
 * table of docs/configuration.md lists them.
 *
 * <p>The defaults are chosen so that every record the scorer derives from a within-limits input fits a
 * topic with Kafka's default {@code max.message.bytes} (1 MiB) with room to spare: an evaluation or
 * judge request carries a whole event and a whole item (at most {@link #eventBytes} + {@link #itemBytes}
 * + a few hundred bytes = 512 KiB), a sample's assembly state its plan (bounded by the event) and its
 * parts, a plan on its way to assembly the results of the light parts intake evaluated (no more than the
 * state holds), a score the event's artifacts and at most {@link #labelsPerSample} human labels' metrics
 * ({@link #worstCaseDerivedBytes()} adds these up; the scorer compares it with the topics' limit at start).
 *
 * @param eventBytes          a serialized GenerationEvent (Confluent wire format), checked before it is read
 * @param itemBytes           a serialized BenchmarkItem
 * @param labelBytes          a serialized HumanLabel
 * @param idBytes             identifiers and names: run, checkpoint, task, sample, event, model, annotator, modality,
 *                            artifact role, media type, digest, UI element and op, item benchmark/version/difficulty, and
 *                            every map key (attribute, value, feature and metric names)
 * @param textBytes           free text: prompts, textual answers and ground truth, the judge's context, notes, typed UI
 *                            values, maze lattice rows
 * @param uriBytes            an artifact's {@code file:} or {@code http(s):} URI
 * @param inlineArtifactBytes an artifact's inline {@code data:} URI
 * @param attributeBytes      a value of a string map (event and item attributes, ground-truth extras)
 * @param mapEntries          entries of any map (attributes, values, features, extras)
 * @param labelMetrics        metrics in one human label
 * @param artifacts           artifacts of one event or item
 * @param steps               UI steps and robot trials (predicted and gold)
 * @param points              elements of any other array: trajectories, paths, polygons, grids, feature vectors, boxes
 * @param labelsPerSample     human labels (distinct annotators) kept per sample; a further annotator's label is
 *                            dead-lettered
 */
public record InputLimits(int eventBytes, int itemBytes, int labelBytes, int idBytes, int textBytes, int uriBytes,
                          int inlineArtifactBytes, int attributeBytes, int mapEntries, int labelMetrics, int artifacts,
                          int steps, int points, int labelsPerSample) {

    /** Prefix of the settings. */
    public static final String PREFIX = "mmgr.limits.";

    public static final InputLimits DEFAULTS = new InputLimits(
            256 << 10, 256 << 10, 16 << 10, 256, 64 << 10, 4 << 10, 192 << 10, 4 << 10, 256, 32, 64, 1_000, 10_000, 16);

    /** Setting names, in the order of the record's components. */
    static final String[] NAMES = {"event-bytes", "item-bytes", "label-bytes", "id-bytes", "text-bytes", "uri-bytes",
            "inline-artifact-bytes", "attribute-bytes", "map-entries", "label-metrics", "artifacts", "steps", "points",
            "labels-per-sample"};

    public InputLimits {
        int[] values = {eventBytes, itemBytes, labelBytes, idBytes, textBytes, uriBytes, inlineArtifactBytes,
                attributeBytes, mapEntries, labelMetrics, artifacts, steps, points, labelsPerSample};
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 1) {
                throw new IllegalArgumentException(PREFIX + NAMES[i] + " must be at least 1, not " + values[i]);
            }
        }
    }

    /**
     * The limits from {@code mmgr.limits.*} settings (other keys are ignored), the defaults for those not
     * given. An unknown {@code mmgr.limits.} name or a value that is not a positive integer is an error,
     * so a typo does not silently leave a default in force.
     */
    public static InputLimits of(Map<String, ?> settings) {
        Map<String, Integer> given = new LinkedHashMap<>();
        Set<String> known = Set.of(NAMES);
        settings.forEach((k, v) -> {
            if (k.startsWith(PREFIX)) {
                String name = k.substring(PREFIX.length());
                if (!known.contains(name)) {
                    throw new IllegalArgumentException("unknown setting " + k + " (known: " + String.join(", ", NAMES) + ")");
                }
                try {
                    given.put(name, Integer.parseInt(String.valueOf(v).trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(k + " must be a whole number of bytes or items, not '" + v + "'");
                }
            }
        });
        int[] d = DEFAULTS.values();
        int[] out = new int[NAMES.length];
        for (int i = 0; i < NAMES.length; i++) {
            out[i] = given.getOrDefault(NAMES[i], d[i]);
        }
        return new InputLimits(out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8], out[9], out[10],
                out[11], out[12], out[13]);
    }

    private int[] values() {
        return new int[] {eventBytes, itemBytes, labelBytes, idBytes, textBytes, uriBytes, inlineArtifactBytes,
                attributeBytes, mapEntries, labelMetrics, artifacts, steps, points, labelsPerSample};
    }

    /** Every limit by its setting name, in the order of docs/configuration.md. */
    public Map<String, Integer> asMap() {
        Map<String, Integer> out = new LinkedHashMap<>();
        int[] v = values();
        for (int i = 0; i < NAMES.length; i++) {
            out.put(NAMES[i], v[i]);
        }
        return out;
    }

    /** The setting that changes the limit named {@code name}, for reasons: {@code mmgr.limits.id-bytes}. */
    public static String setting(String name) {
        return PREFIX + name;
    }

    /**
     * An upper bound of the largest record the scorer derives from within-limits inputs, keys included.
     * Evaluation and judge requests: a whole event and item (re-encoded under the reader's schema: at most
     * a few bytes more per field the writer's schema lacked) plus ids and a digest. Sample scores and the
     * assembly state: the event's artifacts, the sample's identifiers, the kept human labels (each metric
     * named {@code human:<annotator>.<metric>}), and the parts' own output, which the evaluators and the
     * judge bound themselves (allowed for with {@link #PART_OUTPUT_ALLOWANCE}).
     */
    public long worstCaseDerivedBytes() {
        long ids = 8L * idBytes + 1_024;
        long request = (long) eventBytes + itemBytes + ids + 1_024;
        long perLabel = labelBytes + (long) labelMetrics * (idBytes + 16) + 2L * idBytes;
        long state = eventBytes + ids + (long) labelsPerSample * perLabel + PART_OUTPUT_ALLOWANCE;
        return Math.max(request, state);
    }

    /** What deterministic results and a judge verdict may add to a sample's state and score (metrics, diagnostics, reasons). */
    static final long PART_OUTPUT_ALLOWANCE = 128 << 10;

    /** A limit's value in a reason: bytes with their KiB, counts as they are. */
    static String show(long n, boolean bytes) {
        if (!bytes || n < 10_240) {
            return bytes ? n + " bytes" : String.valueOf(n);
        }
        return String.format(Locale.ROOT, "%d bytes (%.0f KiB)", n, n / 1024.0);
    }
}
