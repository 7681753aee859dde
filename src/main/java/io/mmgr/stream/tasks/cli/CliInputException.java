package io.mmgr.stream.tasks.cli;

/** Bad input to an {@code eval} command; {@code mmgr} (cli.Main) prints the message (no stack trace) and exits 2. */
public final class CliInputException extends RuntimeException {

    public CliInputException(String message) {
        super(message);
    }
}
