package io.mmgr.stream.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * A command run as {@code bin/mmgr} runs it, with what it printed. The eval commands print their JSON with
 * {@code System.out}, so standard output is captured for the run (tests of one class run one at a time).
 */
record CliRun(int exit, String out, String err) {

    static CliRun of(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true));
        var cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        int exit;
        try {
            exit = cl.execute(args);
        } finally {
            System.setOut(old);
        }
        return new CliRun(exit, buf.toString(), err.toString());
    }

    /** Standard output alone. */
    static String stdout(String... args) {
        return of(args).out();
    }
}
