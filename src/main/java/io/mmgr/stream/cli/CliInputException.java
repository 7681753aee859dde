package io.mmgr.stream.cli;

/** Bad input to an {@code eval} command; {@link Main} prints the message (no stack trace) and exits 2. */
public final class CliInputException extends RuntimeException {

    public CliInputException(String message) {
        super(message);
    }
}
