package io.mmgr.stream.artifacts;

import io.mmgr.stream.avro.ArtifactRef;
import java.nio.file.Path;

/** References to files the project writes itself (benchmark generators, the demo). */
public final class ArtifactRefs {

    private ArtifactRefs() {
    }

    /** A {@code file:} reference with the bytes' digest and size; width and height when known (else null). */
    public static ArtifactRef file(String role, Path file, byte[] bytes, String mediaType, Integer width, Integer height) {
        return ArtifactRef.newBuilder()
                .setRole(role)
                .setUri(file.toAbsolutePath().normalize().toUri().toString())
                .setSha256(Digests.sha256(bytes))
                .setMediaType(mediaType)
                .setSizeBytes((long) bytes.length)
                .setWidth(width)
                .setHeight(height)
                .build();
    }
}
