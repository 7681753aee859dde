package io.mmgr.stream.bench;

/** A steady rate of sends: the n-th is due n / rate seconds after the start, however late the ones before it were. */
public final class Pace {

    private Pace() {
    }

    /**
     * Sleeps until the {@code n}-th send (0-based) of a load started at {@code startNanos} is due; false when the
     * thread was interrupted meanwhile (its flag set again).
     */
    public static boolean await(long startNanos, long n, double rate) {
        long wait = startNanos + (long) (n * 1e9 / rate) - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
