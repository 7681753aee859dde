package io.mmgr.stream.app;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * When each start-up step of this process ended, in seconds since the JVM started: how a restart's
 * time splits between the JVM, the embedded broker, the topology and Kafka Streams. Logged once the
 * scorer runs ({@code start-up: ...}); {@code bin/mmgr bench restart} reads that line.
 */
public final class StartupTimeline {

    /** One step: its name and when it ended. */
    public record Step(String name, long endMillis) {
    }

    private final long jvmStartMillis;
    private final List<Step> steps = new ArrayList<>();

    private StartupTimeline(long jvmStartMillis) {
        this.jvmStartMillis = jvmStartMillis;
    }

    /** A timeline starting when this JVM started; the first step is the JVM reaching this call. */
    public static StartupTimeline sinceJvmStart() {
        StartupTimeline t = new StartupTimeline(ManagementFactory.getRuntimeMXBean().getStartTime());
        t.mark("jvm");
        return t;
    }

    /** Records that the step {@code name} ended now. */
    public synchronized void mark(String name) {
        steps.add(new Step(name, System.currentTimeMillis()));
    }

    public synchronized List<Step> steps() {
        return List.copyOf(steps);
    }

    /** {@code jvm 0.9 s, broker 12.3 s (+11.4), ...}: each step's end since the JVM started, and its own length. */
    public synchronized String summary() {
        StringBuilder b = new StringBuilder();
        long previous = jvmStartMillis;
        for (Step s : steps) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(String.format(Locale.ROOT, "%s %.1f s (+%.1f)", s.name(), (s.endMillis() - jvmStartMillis) / 1000.0,
                    (s.endMillis() - previous) / 1000.0));
            previous = Math.max(previous, s.endMillis());
        }
        return b.toString();
    }
}
