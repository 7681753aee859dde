package io.mmgr.stream.it;

import org.junit.jupiter.api.Assumptions;

/**
 * Tests that drive Debian packages (.ci/run installs them). In CI ({@code CI=true}, as .ci/run sets)
 * or with {@code -D<property>=true} a missing package fails the test; elsewhere, on a newcomer's
 * machine that ran only the test command, the test is skipped with a message saying what to install.
 */
public final class SystemPackages {

    private SystemPackages() {
    }

    /** Whether the command runs and exits 0 (e.g. a tool's version flag): the tool is installed. */
    public static boolean runs(String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            return p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    public static void require(boolean present, String message, String requiredProperty) {
        if (present) {
            return;
        }
        if ("true".equalsIgnoreCase(System.getenv("CI")) || Boolean.getBoolean(requiredProperty)) {
            throw new AssertionError(message);
        }
        Assumptions.abort(message);
    }
}
