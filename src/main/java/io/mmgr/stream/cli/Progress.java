package io.mmgr.stream.cli;

import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicLong;

/** A progress bar on stderr for long commands; silent when nothing is expected. */
public final class Progress {

    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final long total;
    private final String what;
    private final AtomicLong done = new AtomicLong();
    private final long started = System.nanoTime();
    private volatile long lastPrint;
    private volatile long lastShown = -1;

    public Progress(PrintWriter err, long total, String what) {
        this.err = err;
        this.total = total;
        this.what = what;
    }

    public void step() {
        long n = done.incrementAndGet();
        long now = System.nanoTime();
        if (now - lastPrint > 100_000_000L || n == total) {
            lastPrint = now;
            print(n);
        }
    }

    private synchronized void print(long n) {
        lastShown = n;
        int filled = total == 0 ? WIDTH : (int) (WIDTH * n / total);
        double secs = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
        err.printf("\r[%s%s] %d/%d %s  %.0f/s", "#".repeat(filled), " ".repeat(WIDTH - filled), n, total, what, n / secs);
        err.flush();
    }

    public void finish() {
        if (total > 0) {
            if (lastShown != done.get()) {
                print(done.get());
            }
            err.println();
            err.flush();
        }
    }
}
