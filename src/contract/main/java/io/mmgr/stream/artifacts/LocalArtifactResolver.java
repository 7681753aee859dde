package io.mmgr.stream.artifacts;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactResolver;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Resolves {@code file:} URIs under configured roots and small inline {@code data:} URIs.
 * Paths are resolved to their real location first, so {@code ../} and symlinks cannot leave a root.
 */
public final class LocalArtifactResolver implements ArtifactResolver {

    /** Default size limit: large enough for a 360-frame 1080p MP4, small enough to bound memory. */
    public static final long DEFAULT_MAX_BYTES = 256L * 1024 * 1024;

    private final List<Path> roots;
    private final long maxBytes;
    private final Path spillDir;

    /**
     * @param roots    directories artifacts may live under
     * @param maxBytes artifacts larger than this are refused
     * @param spillDir where inline (data:) artifacts are written when a decoder needs a file
     */
    public LocalArtifactResolver(List<Path> roots, long maxBytes, Path spillDir) {
        this.roots = roots.stream().map(LocalArtifactResolver::realOrAbsolute).toList();
        this.maxBytes = maxBytes;
        this.spillDir = spillDir;
    }

    private static Path realOrAbsolute(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    @Override
    public byte[] read(ArtifactRef ref) throws ArtifactException {
        String uri = ref.getUri();
        if (uri.startsWith("data:")) {
            byte[] bytes = decodeData(uri);
            verify(ref, bytes);
            return bytes;
        }
        Path path = localPath(uri);
        byte[] bytes = readBounded(path);
        verify(ref, bytes);
        return bytes;
    }

    @Override
    public Path file(ArtifactRef ref) throws ArtifactException {
        String uri = ref.getUri();
        if (uri.startsWith("data:")) {
            byte[] bytes = read(ref);
            try {
                Files.createDirectories(spillDir);
                Path tmp = Files.createTempFile(spillDir, "inline-", suffixFor(ref.getMediaType()));
                Files.write(tmp, bytes);
                tmp.toFile().deleteOnExit();
                return tmp;
            } catch (IOException e) {
                throw new ArtifactException("cannot spill inline artifact: " + e.getMessage(), e);
            }
        }
        Path path = localPath(uri);
        if (ref.getSha256() != null) {
            verifyDigest(ref, digestOf(path));
        } else {
            checkSize(path);
        }
        return path;
    }

    private Path localPath(String uri) throws ArtifactException {
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            throw new ArtifactException("artifact URI is malformed: " + e.getMessage());
        }
        String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("file")) {
            throw new ArtifactException("artifact URI scheme '" + scheme + "' is not supported here (file: or data:)");
        }
        // file://host/path names a file on that host: only this machine's (no host, or localhost) is read
        String authority = parsed.getRawAuthority();
        if (authority != null && !authority.isEmpty() && !authority.equalsIgnoreCase("localhost")) {
            throw new ArtifactException("artifact URI names host '" + authority + "': file: URIs must have no host or "
                    + "'localhost' (file:///path)");
        }
        if (parsed.isOpaque() || parsed.getPath() == null || !parsed.getPath().startsWith("/")) {
            throw new ArtifactException("artifact URI must name an absolute path (file:///path): " + uri);
        }
        Path requested = Path.of(parsed.getPath()).normalize();
        Path real;
        try {
            real = requested.toRealPath();
        } catch (NoSuchFileException e) {
            throw new ArtifactException("artifact not found: " + uri);
        } catch (IOException e) {
            throw new ArtifactException("artifact cannot be read: " + uri + " (" + e.getMessage() + ")");
        }
        for (Path root : roots) {
            if (real.startsWith(root)) {
                if (!Files.isRegularFile(real)) {
                    throw new ArtifactException("artifact is not a regular file: " + uri);
                }
                return real;
            }
        }
        throw new ArtifactException("artifact " + uri + " is outside the configured artifact roots");
    }

    private void checkSize(Path path) throws ArtifactException {
        try {
            long size = Files.size(path);
            if (size > maxBytes) {
                throw new ArtifactException("artifact is " + size + " bytes, over the limit of " + maxBytes);
            }
            if (size == 0) {
                throw new ArtifactException("artifact is empty");
            }
        } catch (IOException e) {
            throw new ArtifactException("artifact cannot be read: " + e.getMessage(), e);
        }
    }

    private byte[] readBounded(Path path) throws ArtifactException {
        checkSize(path);
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new ArtifactException("artifact cannot be read: " + e.getMessage(), e);
        }
    }

    private byte[] decodeData(String uri) throws ArtifactException {
        int comma = uri.indexOf(',');
        if (comma < 0 || !uri.substring(0, comma).endsWith(";base64")) {
            throw new ArtifactException("inline artifact must be a base64 data: URI");
        }
        if ((uri.length() - comma) * 3L / 4 > maxBytes) {
            throw new ArtifactException("inline artifact is over the limit of " + maxBytes + " bytes");
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(uri.substring(comma + 1));
            if (bytes.length == 0) {
                throw new ArtifactException("artifact is empty");
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            throw new ArtifactException("inline artifact is not valid base64");
        }
    }

    private static void verify(ArtifactRef ref, byte[] bytes) throws ArtifactException {
        Digests.verify(ref, bytes);
    }

    private static void verifyDigest(ArtifactRef ref, String actual) throws ArtifactException {
        Digests.verify(ref, actual);
    }

    private String digestOf(Path path) throws ArtifactException {
        checkSize(path);
        try {
            return Digests.sha256(path);
        } catch (IOException e) {
            throw new ArtifactException("artifact cannot be read: " + e.getMessage(), e);
        }
    }

    static String suffixFor(String mediaType) {
        return switch (mediaType == null ? "" : mediaType) {
            case "image/png" -> ".png";
            case "image/jpeg" -> ".jpg";
            case "video/mp4" -> ".mp4";
            case "video/webm" -> ".webm";
            default -> ".bin";
        };
    }
}
