package io.mmgr.stream.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * The build's class-data-sharing training run (pom.xml, cds-class-list): one JVM that goes through the
 * two paths whose start-up cost users wait for, so that {@code -XX:DumpLoadedClassList} lists the
 * classes of both in one file for the static dump:
 * <ul>
 *   <li>{@code eval maze --batch} over a small corpus of every maze style (short batches);</li>
 *   <li>a small {@code bench load} with the dashboard: the embedded broker, registry and scorer that
 *       {@code run} starts (a kill -9 restart spends a third of its CPU loading and compiling them,
 *       docs/operations.md: Restarts), light and heavy samples scored end to end.</li>
 * </ul>
 * A failed step is reported and the next one still runs: a shorter class list only makes a smaller archive.
 */
public final class CdsTraining {

    private CdsTraining() {
    }

    /** {@code CdsTraining CASES.jsonl SCORES.jsonl}: the maze corpus to score and where its scores go. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: CdsTraining CASES.jsonl SCORES.jsonl");
            System.exit(2);
        }
        int failed = 0;
        try (PrintStream scores = new PrintStream(Files.newOutputStream(Path.of(args[1])), true, StandardCharsets.UTF_8)) {
            failed += step(List.of("eval", "maze", "--batch", args[0]), scores);
        }
        failed += step(List.of("bench", "load", "--workload", "both", "--samples", "300", "--items", "50",
                "--heavy-samples", "8", "--heavy-items", "4", "--raw-records", "5000",
                "--dashboard", "--warmup", "PT0S", "--timeout", "PT3M"), System.out);
        // System.exit, not halt: the JVM writes out the class list on its way down, and threads a
        // command may leave behind (HTTP client pools) must not hold the build.
        System.exit(failed == 0 ? 0 : 3);
    }

    /** Runs one command with its standard output on {@code out}; 1 if it failed, else 0. */
    private static int step(List<String> command, PrintStream out) {
        PrintStream stdout = System.out;
        System.setOut(out);
        int rc;
        try {
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out, true));
            rc = cl.execute(command.toArray(String[]::new));
        } finally {
            System.setOut(stdout);
        }
        System.err.printf("cds training: %s -> exit %d%n", String.join(" ", command), rc);
        return rc == 0 ? 0 : 1;
    }
}
