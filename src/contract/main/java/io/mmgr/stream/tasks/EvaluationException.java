package io.mmgr.stream.tasks;

/** A generation that cannot be evaluated; the message is the user-facing reason. */
public class EvaluationException extends Exception {

    public EvaluationException(String reason) {
        super(reason);
    }

    public EvaluationException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
