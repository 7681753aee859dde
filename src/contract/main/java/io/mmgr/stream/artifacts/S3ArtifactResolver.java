package io.mmgr.stream.artifacts;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.tasks.ArtifactUnavailableException;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;

/**
 * Reads {@code s3://bucket/key} artifacts with the AWS SDK for Java v2, from AWS or any S3-compatible store
 * ({@link S3Settings}), within the size limit and the read timeout, and checks each against its SHA-256, which an
 * s3 reference must declare (an object in a bucket can be replaced under the same key).
 *
 * <p>What fails the sample (final, with the reason): no digest, a wrong one, a missing object or bucket, access
 * denied (HTTP 403), an object over the limit (refused from its declared length, or stopped once it grows past
 * it: never read further). What only makes it wait ({@link ArtifactUnavailableException}: the evaluation worker
 * tries again): a store that cannot be reached, does not answer within the timeout, or answers with a server
 * error or a throttle (5xx, 429).
 *
 * <p>The SDK is an optional dependency of this module (only the deployable needs it): nothing of it is loaded
 * before the first s3 read ({@link S3Store}).
 */
public final class S3ArtifactResolver implements ArtifactResolver {

    private final S3Settings settings;
    private final long maxBytes;
    private final Path spillDir;
    private volatile S3Store store;

    /**
     * @param settings where objects are read and how long a read may take
     * @param maxBytes larger artifacts are refused
     * @param spillDir where downloads go when a decoder wants a file
     */
    public S3ArtifactResolver(S3Settings settings, long maxBytes, Path spillDir) {
        this.settings = settings;
        this.maxBytes = maxBytes;
        this.spillDir = spillDir;
    }

    public S3Settings settings() {
        return settings;
    }

    @Override
    public byte[] read(ArtifactRef ref) throws ArtifactException {
        S3Location where = admit(ref);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String digest = store().download(where, maxBytes, out);
        Digests.verify(ref, digest);
        return out.toByteArray();
    }

    @Override
    public Path file(ArtifactRef ref) throws ArtifactException {
        S3Location where = admit(ref);
        S3Store s = store();
        return Spill.file(spillDir, "s3-", ref, out -> s.download(where, maxBytes, out));
    }

    private static S3Location admit(ArtifactRef ref) throws ArtifactException {
        S3Location where = S3Location.parse(ref.getUri());
        if (ref.getSha256() == null) {
            throw new ArtifactException("artifact " + where + " declares no sha256: s3 artifacts must, since an object can be "
                    + "replaced under the same key");
        }
        return where;
    }

    /** The client, made at the first read (a scorer that reads no s3 artifact never loads the SDK). */
    private S3Store store() throws ArtifactException {
        S3Store s = store;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (store == null) {
                try {
                    store = new S3Store(settings);
                } catch (NoClassDefFoundError e) {
                    throw new ArtifactException("s3:// artifacts need the AWS SDK for Java v2 (software.amazon.awssdk:s3) on "
                            + "the class path; this build of the tool has none");
                } catch (RuntimeException e) {
                    // a setting the SDK refuses: the operator can fix it, so the samples wait rather than fail
                    throw new ArtifactUnavailableException("the S3 client cannot be set up (" + settings.describe() + "): "
                            + e.getMessage(), e);
                }
            }
            return store;
        }
    }
}
