package io.mmgr.stream.tasks;


/**
 * An artifact that cannot be used: outside the roots, missing, too large, or not matching its digest. An
 * {@link EvaluationException}, so the sample fails with this reason (a failure that may pass, a store that
 * cannot be reached, is the subclass {@link ArtifactUnavailableException}: the sample waits instead). It sits
 * beside the SPI that throws it, so that the resolvers (io.mmgr.stream.artifacts) depend on the SPI and not the
 * reverse.
 */
public class ArtifactException extends EvaluationException {

    public ArtifactException(String reason) {
        super(reason);
    }

    public ArtifactException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
