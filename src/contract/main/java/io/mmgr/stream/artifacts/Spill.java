package io.mmgr.stream.artifacts;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.tasks.ArtifactException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/** Downloads for decoders that want a file: written to the spill directory, verified, kept under their digest. */
final class Spill {

    /** Writes the artifact's bytes to {@code out} and returns their SHA-256. */
    @FunctionalInterface
    interface Download {
        String into(OutputStream out) throws ArtifactException, IOException;
    }

    private Spill() {
    }

    /** The verified download as a file; {@code prefix} names its temporary file (http-, s3-). */
    static Path file(Path spillDir, String prefix, ArtifactRef ref, Download download) throws ArtifactException {
        try {
            Files.createDirectories(spillDir);
            Path tmp = Files.createTempFile(spillDir, prefix, LocalArtifactResolver.suffixFor(ref.getMediaType()));
            tmp.toFile().deleteOnExit();
            try {
                String digest;
                try (OutputStream out = Files.newOutputStream(tmp)) {
                    digest = download.into(out);
                }
                Digests.verify(ref, digest);
            } catch (ArtifactException | IOException e) {
                Files.deleteIfExists(tmp);
                throw e;
            }
            if (ref.getSha256() == null) {
                return tmp;
            }
            // content-addressed, so a video scored again reuses its download
            Path named = spillDir.resolve("sha256-" + ref.getSha256().toLowerCase(Locale.ROOT)
                    + LocalArtifactResolver.suffixFor(ref.getMediaType()));
            Files.move(tmp, named, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            named.toFile().deleteOnExit();
            return named;
        } catch (IOException e) {
            throw new ArtifactException("cannot store downloaded artifact: " + e.getMessage(), e);
        }
    }
}
