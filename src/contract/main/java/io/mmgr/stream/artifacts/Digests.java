package io.mmgr.stream.artifacts;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.tasks.ArtifactException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of artifact bytes and the check against the digest a reference declares. */
public final class Digests {

    private Digests() {
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    static String sha256(Path path) throws IOException {
        MessageDigest md = sha256();
        try (InputStream in = Files.newInputStream(path)) {
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** Nothing to check when the reference declares no digest. */
    static void verify(ArtifactRef ref, byte[] bytes) throws ArtifactException {
        if (ref.getSha256() != null) {
            verify(ref, sha256(bytes));
        }
    }

    static void verify(ArtifactRef ref, String actualHex) throws ArtifactException {
        if (ref.getSha256() != null && !actualHex.equalsIgnoreCase(ref.getSha256())) {
            throw new ArtifactException("artifact digest mismatch for " + ref.getUri()
                    + ": declared " + ref.getSha256() + ", actual " + actualHex);
        }
    }
}
