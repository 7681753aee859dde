package io.mmgr.stream.tasks;

/**
 * A field error of one {@link EvalCase} that knows where the case came from: the CLI names the file and
 * {@link #line()} before the message ("FILE line N: ..."), as it does for the lines it parses itself.
 */
public final class EvalCaseException extends IllegalArgumentException {

    private final int line;

    public EvalCaseException(int line, String message) {
        super(message);
        this.line = line;
    }

    /** The case's 1-based line in its file; 0 when the case is not a line (the command's flags). */
    public int line() {
        return line;
    }
}
