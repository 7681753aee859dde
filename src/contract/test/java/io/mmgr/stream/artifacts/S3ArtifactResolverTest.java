package io.mmgr.stream.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.it.FaultyTcpProxy;
import io.mmgr.stream.it.S3TestStore;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactUnavailableException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/**
 * s3:// artifacts against a real S3-compatible server (s3proxy, in this JVM, signed requests), read with the
 * credentials the standard AWS chain finds: what fails a sample for good (its reason), what only makes it wait
 * ({@link ArtifactUnavailableException}), and a store behind a proxy that answers slowly, then not at all, then again.
 */
@Tag("integration")
class S3ArtifactResolverTest {

    static final long LIMIT = 64 * 1024;
    static final String BUCKET = "outputs";
    /** Generous for the reads that must succeed (a loaded 2-core machine); short for the proxy's faults. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final Duration FAULT_TIMEOUT = Duration.ofSeconds(1);

    @TempDir
    static Path dir;
    static S3TestStore store;
    static AutoCloseable credentials;
    static byte[] payload;
    static String digest;
    static S3ArtifactResolver resolver;

    @BeforeAll
    static void start() throws Exception {
        store = new S3TestStore();
        credentials = store.asJvmCredentials();
        store.createBucket(BUCKET);
        payload = new byte[20_000];
        new Random(3).nextBytes(payload);
        digest = store.put(BUCKET, "run-1/ckpt-1/out.png", payload);
        store.put(BUCKET, "big.bin", new byte[(int) LIMIT + 1]);
        store.put(S3TestStore.DENIED_BUCKET, "out.png", payload);
        resolver = new S3ArtifactResolver(settings(store.endpoint(), TIMEOUT), LIMIT, dir.resolve("spill"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (credentials != null) {
            credentials.close();
        }
        if (store != null) {
            store.close();
        }
    }

    static S3Settings settings(URI endpoint, Duration timeout) {
        return S3Settings.defaults().withEndpoint(endpoint).withPathStyle(true).withTimeout(timeout);
    }

    static ArtifactRef ref(String uri, String sha256) {
        return ArtifactRef.newBuilder().setRole("output").setUri(uri).setSha256(sha256).setMediaType("image/png").build();
    }

    @Test
    void anObjectIsReadAndCheckedAgainstItsDigestAsBytesAndAsAFile() throws Exception {
        ArtifactRef ref = ref("s3://" + BUCKET + "/run-1/ckpt-1/out.png", digest);
        assertThat(resolver.read(ref)).isEqualTo(payload);
        Path file = resolver.file(ref);
        assertThat(Files.readAllBytes(file)).isEqualTo(payload);
        assertThat(file.getFileName().toString()).isEqualTo("sha256-" + digest + ".png");
        // the scorer's router sends s3 to it; the offline one (no SDK needed) names what it accepts instead
        Path root = Files.createDirectories(dir.resolve("root"));
        var scorer = CompositeArtifactResolver.standard(List.of(root), LIMIT, dir.resolve("spill"), List.of(),
                Duration.ofSeconds(1), settings(store.endpoint(), TIMEOUT));
        assertThat(scorer.read(ref)).isEqualTo(payload);
        assertThatThrownBy(() -> CompositeArtifactResolver.standard(List.of(root), LIMIT, dir.resolve("spill"), List.of(),
                Duration.ofSeconds(1)).read(ref)).hasMessageContaining("scheme 's3' is not supported");
    }

    @Test
    void aMissingObjectOrBucketFailsTheSampleWithItsReason() {
        assertThatThrownBy(() -> resolver.read(ref("s3://" + BUCKET + "/run-1/nothing.png", digest)))
                .isExactlyInstanceOf(ArtifactException.class)
                .hasMessage("artifact not found: s3://outputs/run-1/nothing.png (no such key)");
        assertThatThrownBy(() -> resolver.read(ref("s3://no-such-bucket/out.png", digest)))
                .isExactlyInstanceOf(ArtifactException.class)
                .hasMessage("artifact not found: s3://no-such-bucket/out.png (no such bucket 'no-such-bucket')");
    }

    @Test
    void aWrongOrMissingDigestFailsTheSample() {
        String wrong = "0".repeat(64);
        assertThatThrownBy(() -> resolver.read(ref("s3://" + BUCKET + "/run-1/ckpt-1/out.png", wrong)))
                .isExactlyInstanceOf(ArtifactException.class)
                .hasMessageContaining("digest mismatch").hasMessageContaining("actual " + digest);
        assertThatThrownBy(() -> resolver.file(ref("s3://" + BUCKET + "/run-1/ckpt-1/out.png", wrong)))
                .isExactlyInstanceOf(ArtifactException.class).hasMessageContaining("digest mismatch");
        assertThat(dir.resolve("spill").toFile().list((d, name) -> name.startsWith("s3-"))).as("no partial download left").isEmpty();
        assertThatThrownBy(() -> resolver.read(ref("s3://" + BUCKET + "/run-1/ckpt-1/out.png", null)))
                .isExactlyInstanceOf(ArtifactException.class).hasMessageContaining("declares no sha256");
    }

    @Test
    void aDeniedBucketFailsTheSampleWithTheStoresAnswer() {
        assertThatThrownBy(() -> resolver.read(ref("s3://" + S3TestStore.DENIED_BUCKET + "/out.png", digest)))
                .isExactlyInstanceOf(ArtifactException.class)
                .hasMessageStartingWith("artifact s3://denied-bucket/out.png: access denied (HTTP 403 AccessDenied)");
    }

    @Test
    void anObjectOverTheLimitIsRefusedFromItsDeclaredLength() {
        assertThatThrownBy(() -> resolver.read(ref("s3://" + BUCKET + "/big.bin", digest)))
                .isExactlyInstanceOf(ArtifactException.class)
                .hasMessage("artifact s3://outputs/big.bin is " + (LIMIT + 1) + " bytes, over the limit of " + LIMIT);
    }

    @Test
    void malformedReferencesAreRefusedBeforeAnyRequest() {
        for (String uri : List.of("s3://bucket", "s3://bucket/", "s3://user:pw@bucket/key", "s3:///key", "s3://b/key")) {
            assertThatThrownBy(() -> resolver.read(ref(uri, digest))).as(uri)
                    .isExactlyInstanceOf(ArtifactException.class).hasMessageContaining("s3://BUCKET/KEY");
        }
    }

    @Test
    void aStoreThatAnswersSlowlyThenNotAtAllThenAgainMakesTheReadWaitThenSucceed() throws Exception {
        ArtifactRef ref = ref("s3://" + BUCKET + "/run-1/ckpt-1/out.png", digest);
        try (FaultyTcpProxy proxy = new FaultyTcpProxy(store.port())) {
            S3ArtifactResolver behind = new S3ArtifactResolver(settings(URI.create("http://127.0.0.1:" + proxy.port()),
                    FAULT_TIMEOUT), LIMIT, dir.resolve("spill"));
            assertThat(behind.read(ref)).isEqualTo(payload);

            proxy.delay(FAULT_TIMEOUT.multipliedBy(3));
            assertThatThrownBy(() -> behind.read(ref)).isExactlyInstanceOf(ArtifactUnavailableException.class)
                    .hasMessage("artifact s3://outputs/run-1/ckpt-1/out.png: the store did not answer within 1 s; trying again");

            proxy.silent();
            assertThatThrownBy(() -> behind.read(ref)).isExactlyInstanceOf(ArtifactUnavailableException.class)
                    .hasMessageContaining("did not answer within 1 s");

            proxy.refuse();
            assertThatThrownBy(() -> behind.read(ref)).isExactlyInstanceOf(ArtifactUnavailableException.class)
                    .hasMessageContaining("cannot be reached");

            proxy.pass();
            assertThat(behind.read(ref)).isEqualTo(payload);
        }
    }

    @Test
    void settingsRefuseAnEndpointWithCredentialsOrWithoutAHost() {
        assertThatThrownBy(() -> S3Settings.defaults().withEndpoint(URI.create("http://key:secret@minio:9000")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not carry credentials");
        assertThatThrownBy(() -> S3Settings.defaults().withEndpoint(URI.create("minio:9000")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http(s) URL with a host");
        assertThat(S3Settings.defaults().withRegion("eu-west-1").effectiveRegion()).isEqualTo("eu-west-1");
    }
}
