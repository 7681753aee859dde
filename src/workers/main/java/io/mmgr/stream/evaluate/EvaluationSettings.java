package io.mmgr.stream.evaluate;

import io.mmgr.stream.contract.CostClass;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/**
 * How the evaluation worker runs each cost class.
 *
 * @param threads         runner threads per class
 * @param deadlines       how long one evaluation may take before its sample is FAILED with the reason
 * @param queuedPerThread records taken in per runner thread before the class's partitions pause
 * @param maxPollRecords  records per poll of the worker's consumer
 * @param maxPollInterval the worker consumer's {@code max.poll.interval.ms}: only its loop thread counts,
 *                        which never evaluates, so this guards against a hung loop, not slow work
 * @param commitInterval  how often results and offsets are written
 */
public record EvaluationSettings(Map<CostClass, Integer> threads, Map<CostClass, Duration> deadlines,
                                 Map<CostClass, Integer> queuedPerThread, int maxPollRecords, Duration maxPollInterval,
                                 Duration commitInterval) {

    private static final Map<CostClass, Integer> DEFAULT_THREADS = Map.of(CostClass.LIGHT, 2, CostClass.IMAGE, 2, CostClass.VIDEO, 1);
    // light work reads no artifact; an image may wait up to 60 s for an http artifact; videos decode for long
    private static final Map<CostClass, Duration> DEFAULT_DEADLINES = Map.of(CostClass.LIGHT, Duration.ofSeconds(30),
            CostClass.IMAGE, Duration.ofMinutes(2), CostClass.VIDEO, Duration.ofMinutes(5));
    private static final Map<CostClass, Integer> DEFAULT_QUEUED = Map.of(CostClass.LIGHT, 500, CostClass.IMAGE, 4, CostClass.VIDEO, 2);

    public static final EvaluationSettings DEFAULT = new EvaluationSettings(DEFAULT_THREADS, DEFAULT_DEADLINES, DEFAULT_QUEUED,
            100, Duration.ofSeconds(60), Duration.ofMillis(100));

    public EvaluationSettings {
        threads = complete(threads, DEFAULT_THREADS);
        deadlines = complete(deadlines, DEFAULT_DEADLINES);
        queuedPerThread = complete(queuedPerThread, DEFAULT_QUEUED);
        threads.forEach((c, n) -> {
            if (n < 1) {
                throw new IllegalArgumentException(c.label() + " evaluations need at least one thread, got " + n);
            }
        });
        deadlines.forEach((c, d) -> {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(c.label() + " evaluation deadline must be positive, got " + d);
            }
        });
        if (maxPollRecords < 1) {
            throw new IllegalArgumentException("max poll records must be at least 1");
        }
    }

    /** Every class present: the given values over the defaults. */
    private static <V> Map<CostClass, V> complete(Map<CostClass, V> given, Map<CostClass, V> defaults) {
        Map<CostClass, V> out = new EnumMap<>(defaults);
        if (given != null) {
            out.putAll(given);
        }
        return Map.copyOf(out);
    }

    /** The most records of a class taken in (running and waiting) before its partitions pause. */
    public int bound(CostClass c) {
        return threads.get(c) * queuedPerThread.get(c);
    }

    public EvaluationSettings withThreads(Map<CostClass, Integer> t) {
        return new EvaluationSettings(merge(threads, t), deadlines, queuedPerThread, maxPollRecords, maxPollInterval, commitInterval);
    }

    public EvaluationSettings withDeadlines(Map<CostClass, Duration> d) {
        return new EvaluationSettings(threads, merge(deadlines, d), queuedPerThread, maxPollRecords, maxPollInterval, commitInterval);
    }

    public EvaluationSettings withPolling(int records, Duration interval) {
        return new EvaluationSettings(threads, deadlines, queuedPerThread, records, interval, commitInterval);
    }

    private static <V> Map<CostClass, V> merge(Map<CostClass, V> base, Map<CostClass, V> over) {
        Map<CostClass, V> out = new EnumMap<>(base);
        out.putAll(over);
        return out;
    }

    /** {@code light=2,video=1}: threads per class (the others keep their value). */
    public static Map<CostClass, Integer> parseThreads(String spec) {
        return parse(spec, v -> {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + v + "' is not a thread count");
            }
        });
    }

    /** {@code light=PT30S,video=PT10M} (ISO-8601 durations): deadlines per class. */
    public static Map<CostClass, Duration> parseDeadlines(String spec) {
        return parse(spec, v -> {
            try {
                return Duration.parse(v);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + v + "' is not an ISO-8601 duration such as PT30S or PT5M");
            }
        });
    }

    private static <V> Map<CostClass, V> parse(String spec, Function<String, V> value) {
        Map<CostClass, V> out = new EnumMap<>(CostClass.class);
        if (spec == null || spec.isBlank()) {
            return out;
        }
        for (String part : spec.split(",")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected CLASS=VALUE (light, image or video), got '" + part.trim() + "'");
            }
            out.put(CostClass.parse(part.substring(0, eq)), value.apply(part.substring(eq + 1).trim()));
        }
        return out;
    }
}
