package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.bench.ScorerProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the scorers and the judge worker logged in a time window, from the {@code mmgr.log} each keeps in its data
 * directory (Kafka's lines and ours, each with its date): rebalances (the scorer's own line for each Kafka Streams
 * state change), stream threads replaced, and transactions aborted or fenced.
 */
final class ProcessLogs {

    /** The scorer's line when Kafka Streams leaves RUNNING for a rebalance (RunCommand). */
    static final Pattern REBALANCE = Pattern.compile("Kafka Streams state RUNNING -> REBALANCING");
    /** ScorerApp's uncaught-exception handler. */
    static final Pattern THREAD_REPLACED = Pattern.compile("stream thread failed; replacing it");
    /** A transaction that did not commit: aborted by the client, timed out or fenced by the coordinator. */
    static final Pattern ABORTED = Pattern.compile("transaction aborted|[Aa]bort(ing|ed)? (the )?(open )?transaction|"
            + "ProducerFenced|InvalidTxnState|InvalidProducerEpoch|TaskMigratedException|fenced");

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    /** Counts per kind of line, over every process given. */
    record Counts(int rebalances, int threadsReplaced, int aborts) {
        String describe() {
            return rebalances + " rebalances, " + threadsReplaced + " stream threads replaced, " + aborts
                    + " transaction aborts or fencings logged";
        }
    }

    private ProcessLogs() {
    }

    static Counts between(Collection<ScorerProcess> processes, long fromMillis, long toMillis) {
        int rebalances = 0;
        int replaced = 0;
        int aborts = 0;
        for (ScorerProcess p : processes) {
            for (String line : lines(p.dataDir())) {
                long at = stamp(line);
                if (at < fromMillis || at > toMillis) {
                    continue;
                }
                rebalances += REBALANCE.matcher(line).find() ? 1 : 0;
                replaced += THREAD_REPLACED.matcher(line).find() ? 1 : 0;
                aborts += ABORTED.matcher(line).find() ? 1 : 0;
            }
        }
        return new Counts(rebalances, replaced, aborts);
    }

    /** The scorer's line when Kafka Streams is back to RUNNING after a rebalance. */
    static final Pattern RUNNING_AGAIN = Pattern.compile("Kafka Streams state REBALANCING -> RUNNING");

    /** When {@code process} first logged a line matching {@code pattern} at or after {@code fromMillis} (epoch ms), or -1. */
    static long firstAfter(ScorerProcess process, Pattern pattern, long fromMillis) {
        for (String line : lines(process.dataDir())) {
            long at = stamp(line);
            if (at >= fromMillis && pattern.matcher(line).find()) {
                return at;
            }
        }
        return -1;
    }

    /**
     * mmgr.log where the process keeps one (the scorer), else its console logs of every start (the judge worker's
     * lines go to the console alone).
     */
    private static List<String> lines(Path dataDir) {
        List<String> out = new java.util.ArrayList<>();
        try (var files = Files.list(dataDir)) {
            List<Path> logs = Files.exists(dataDir.resolve("mmgr.log")) ? List.of(dataDir.resolve("mmgr.log"))
                    : files.filter(f -> f.getFileName().toString().matches("[a-z-]+-\\d+\\.log")).sorted().toList();
            for (Path f : logs) {
                out.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // a log being rotated or a directory not there yet: nothing to count
        }
        return out;
    }

    /** The line's time (epoch ms), or -1 for a line without one (a stack trace's); a console line has no date: today's. */
    private static long stamp(String line) {
        try {
            if (line.length() >= 23 && line.charAt(4) == '-' && Character.isDigit(line.charAt(0))) {
                return LocalDateTime.parse(line.substring(0, 23), STAMP).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
            }
            if (line.length() >= 12 && line.charAt(2) == ':' && Character.isDigit(line.charAt(0))) {
                return java.time.LocalTime.parse(line.substring(0, 12)).atDate(java.time.LocalDate.now())
                        .atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
            }
        } catch (java.time.format.DateTimeParseException e) {
            // not a stamp
        }
        return -1;
    }
}
