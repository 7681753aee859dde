package io.mmgr.stream.tasks;

/** A judge's answer that cannot be used: not JSON, a metric missing, a value out of its range. */
public final class RubricAnswerException extends Exception {

    public RubricAnswerException(String message) {
        super(message);
    }
}
