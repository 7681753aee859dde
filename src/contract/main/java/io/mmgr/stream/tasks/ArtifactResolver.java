package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.ArtifactRef;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Turns claim-check references into verified bytes; the implementations are in io.mmgr.stream.artifacts. */
public interface ArtifactResolver {

    /** The artifact's bytes, at most the configured limit, checked against its SHA-256 when one is given. */
    byte[] read(ArtifactRef ref) throws ArtifactException;

    /** A local file with the artifact's verified bytes, for decoders that want a path (video). */
    Path file(ArtifactRef ref) throws ArtifactException;

    /** The first artifact with the given role, e.g. {@code output}, {@code solution}. */
    static Optional<ArtifactRef> find(List<ArtifactRef> artifacts, String role) {
        return artifacts.stream().filter(a -> role.equals(a.getRole())).findFirst();
    }
}
