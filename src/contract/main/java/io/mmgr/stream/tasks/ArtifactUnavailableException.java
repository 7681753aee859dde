package io.mmgr.stream.tasks;

/**
 * An artifact that cannot be had now but may be later: its store could not be reached, did not answer in time,
 * or answered with a server error. Unlike its parent, it does not fail the sample: the evaluation worker keeps
 * the sample's part PENDING with this reason and tries again ({@code evaluate.EvaluationWorker}).
 */
public class ArtifactUnavailableException extends ArtifactException {

    public ArtifactUnavailableException(String reason) {
        super(reason);
    }

    public ArtifactUnavailableException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
