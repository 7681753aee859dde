package io.mmgr.stream.evaluate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the CPU priority of the calling thread (Linux: its nice value, by {@code renice} on the
 * thread's id), so that when the cores are busy the light work and the stream threads get them first
 * and image and video decoding takes what is left. Raising a nice value needs no privilege. Java's
 * own thread priorities do nothing on Linux by default, hence this. Best effort: elsewhere, or without
 * {@code renice}, the thread runs at the process's priority.
 */
final class ThreadNiceness {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadNiceness.class);
    private static final Path SELF = Path.of("/proc/thread-self");

    private ThreadNiceness() {
    }

    /** Adds {@code increment} to this thread's nice value (at most 19); returns the new value, or -1 when it could not. */
    static int lower(int increment) {
        try {
            if (!Files.exists(SELF)) {
                return -1;
            }
            String tid = Files.readSymbolicLink(SELF).getFileName().toString();
            int now = current();
            int target = Math.min(19, now + increment);
            Process p = new ProcessBuilder("renice", "-n", Integer.toString(target), "-p", tid)
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return -1;
            }
            return current();
        } catch (Exception e) {
            LOG.debug("could not lower the priority of {}", Thread.currentThread().getName(), e);
            return -1;
        }
    }

    /** This thread's nice value (field 19 of its stat line, after the parenthesised name). */
    static int current() throws java.io.IOException {
        String stat = Files.readString(SELF.resolve("stat"), StandardCharsets.US_ASCII);
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[16]);
    }
}
