package io.mmgr.stream.artifacts;

import io.mmgr.stream.tasks.EvaluationException;

/** An artifact that cannot be used: outside the roots, missing, too large, or not matching its digest. */
public class ArtifactException extends EvaluationException {

    public ArtifactException(String reason) {
        super(reason);
    }

    public ArtifactException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
