package io.mmgr.stream.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.tasks.ArtifactException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scheme router, the http downloader against a loopback server, and the local resolver's edges. */
@Tag("unit")
class ArtifactResolversTest {

    static final long LIMIT = 64 * 1024;

    @TempDir
    static Path dir;
    static HttpServer server;
    static String base;
    static byte[] payload;
    static final AtomicLong bytesServedForHuge = new AtomicLong();
    static final AtomicLong okRequests = new AtomicLong();
    static final CountDownLatch release = new CountDownLatch(1);
    static CompositeArtifactResolver resolver;

    @BeforeAll
    static void start() throws IOException {
        payload = new byte[10_000];
        new Random(1).nextBytes(payload);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-http");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/ok.bin", ex -> {
            okRequests.incrementAndGet();
            ex.sendResponseHeaders(200, payload.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(payload);
            }
        });
        server.createContext("/declared-huge.bin", ex -> {
            // declares 2 GB; the client must refuse from the header and never ask for the body
            ex.getResponseHeaders().add("Content-Length", String.valueOf(2L << 30));
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < 4096; i++) {
                    out.write(new byte[1 << 16]);
                    bytesServedForHuge.addAndGet(1 << 16);
                }
            } catch (IOException closedByClient) {
                // expected
            }
        });
        server.createContext("/chunked-huge.bin", ex -> {
            ex.sendResponseHeaders(200, 0); // chunked: no length declared
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < 1024; i++) {
                    out.write(new byte[8192]);
                }
            } catch (IOException closedByClient) {
                // expected once the limit is passed
            }
        });
        server.createContext("/stall.bin", ex -> {
            ex.sendResponseHeaders(200, 100);
            OutputStream out = ex.getResponseBody();
            out.write(new byte[10]);
            out.flush();
            try {
                release.await();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.createContext("/redirect.bin", ex -> {
            ex.getResponseHeaders().add("Location", "http://example.org/elsewhere.bin");
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        server.createContext("/empty.bin", ex -> {
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.createContext("/missing.bin", ex -> {
            ex.sendResponseHeaders(404, -1);
            ex.close();
        });
        server.start();
        int port = server.getAddress().getPort();
        base = "http://127.0.0.1:" + port;
        Path root = Files.createDirectories(dir.resolve("root"));
        resolver = CompositeArtifactResolver.standard(List.of(root), LIMIT, dir.resolve("spill"),
                List.of(HttpArtifactResolver.AllowedHost.parse("127.0.0.1:" + port)), Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        release.countDown();
        server.stop(0);
    }

    static ArtifactRef ref(String uri, String sha) {
        return ArtifactRef.newBuilder().setRole("output").setUri(uri).setSha256(sha).setMediaType("application/octet-stream").build();
    }

    @Test
    void allowlistedDownloadsAreVerifiedAgainstTheirDigest() throws Exception {
        String sha = Digests.sha256(payload);
        assertThat(resolver.read(ref(base + "/ok.bin", sha))).isEqualTo(payload);
        Path file = resolver.file(ref(base + "/ok.bin", sha));
        assertThat(Files.readAllBytes(file)).isEqualTo(payload);
        assertThat(file.getFileName().toString()).contains(sha);
        assertThatThrownBy(() -> resolver.read(ref(base + "/ok.bin", "0".repeat(64))))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("digest mismatch");
        assertThatThrownBy(() -> resolver.file(ref(base + "/ok.bin", "0".repeat(64))))
                .hasMessageContaining("digest mismatch");
    }

    @Test
    void hostsOffTheAllowlistAreRefusedWithoutAConnection() {
        int port = server.getAddress().getPort();
        long before = okRequests.get();
        // same server, other spelling of the host: not on the list
        assertThatThrownBy(() -> resolver.read(ref("http://localhost:" + port + "/ok.bin", null)))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("'localhost:" + port + "' is not on the http allowlist");
        // same host, other port
        assertThatThrownBy(() -> resolver.read(ref("http://127.0.0.1:" + (port + 1) + "/ok.bin", null)))
                .hasMessageContaining("is not on the http allowlist");
        assertThatThrownBy(() -> resolver.read(ref("https://example.org/x.png", null)))
                .hasMessageContaining("'example.org:443' is not on the http allowlist");
        HttpArtifactResolver none = new HttpArtifactResolver(List.of(), LIMIT, Duration.ofSeconds(1), dir);
        assertThatThrownBy(() -> none.read(ref(base + "/ok.bin", null)))
                .hasMessageContaining("--artifact-http-allow");
        assertThatThrownBy(() -> resolver.read(ref("http://user:hunter2@127.0.0.1:" + port + "/ok.bin", null)))
                .hasMessageContaining("carries credentials").hasMessageNotContaining("hunter2");
        assertThat(okRequests.get()).isEqualTo(before);
    }

    @Test
    void sizeAndTimeAreBounded() {
        assertThatThrownBy(() -> resolver.read(ref(base + "/declared-huge.bin", null)))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("is 2147483648 bytes, over the limit of " + LIMIT);
        assertThat(bytesServedForHuge.get()).isLessThan(2L << 30);
        assertThatThrownBy(() -> resolver.read(ref(base + "/chunked-huge.bin", null)))
                .hasMessageContaining("over the limit of " + LIMIT + " bytes (download stopped)");
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> resolver.file(ref(base + "/stall.bin", null)))
                .hasMessageContaining("timed out after 2000 ms");
        // the deadline held (generously: the point is that a stalled server cannot hold a stream thread)
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void redirectsErrorsAndEmptyBodiesAreReported() {
        assertThatThrownBy(() -> resolver.read(ref(base + "/redirect.bin", null)))
                .hasMessageContaining("answered HTTP 302 (redirects are not followed)");
        assertThatThrownBy(() -> resolver.read(ref(base + "/missing.bin", null))).hasMessageContaining("answered HTTP 404");
        assertThatThrownBy(() -> resolver.read(ref(base + "/empty.bin", null))).hasMessageContaining("artifact is empty");
    }

    @Test
    void unknownSchemesAreRefusedWithWhatIsAccepted() {
        assertThatThrownBy(() -> resolver.read(ref("ftp://example.org/a.png", null)))
                .isInstanceOf(ArtifactException.class)
                .hasMessageContaining("scheme 'ftp' is not supported (accepted: file, data, http, https)");
        assertThatThrownBy(() -> resolver.read(ref("no-scheme-at-all", null))).hasMessageContaining("scheme '' is not supported");
    }

    @Test
    void localFilesAreBoundedAndConfinedToTheirRoots() throws Exception {
        Path root = dir.resolve("root");
        Path sparse = root.resolve("two-gigabytes.bin");
        try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
            f.setLength(2L << 30); // sparse: no disk, no reading
        }
        assertThatThrownBy(() -> resolver.read(ref(sparse.toUri().toString(), null)))
                .hasMessageContaining("is 2147483648 bytes, over the limit of " + LIMIT);
        assertThatThrownBy(() -> resolver.file(ref(sparse.toUri().toString(), "0".repeat(64))))
                .hasMessageContaining("over the limit");
        Path empty = Files.createFile(root.resolve("empty.png"));
        assertThatThrownBy(() -> resolver.read(ref(empty.toUri().toString(), null))).hasMessageContaining("artifact is empty");

        Path outside = Files.writeString(dir.resolve("secret.txt"), "outside", StandardCharsets.UTF_8);
        Path link = Files.createSymbolicLink(root.resolve("link.png"), outside);
        assertThatThrownBy(() -> resolver.read(ref(link.toUri().toString(), null)))
                .hasMessageContaining("outside the configured artifact roots");
        assertThatThrownBy(() -> resolver.read(ref(root.toUri() + "../secret.txt", null)))
                .hasMessageContaining("outside the configured artifact roots");
        assertThatThrownBy(() -> resolver.read(ref("file:///etc/passwd", null)))
                .hasMessageContaining("outside the configured artifact roots");
    }

    @Test
    void fileUrisWithAHostOtherThanLocalhostAreRefused() throws Exception {
        Path root = dir.resolve("root");
        Path inside = Files.write(root.resolve("hosted.bin"), payload);
        String path = inside.toAbsolutePath().toString();
        // the same readable file under the roots: only the host differs
        assertThat(resolver.read(ref("file://" + path, Digests.sha256(payload)))).isEqualTo(payload);
        assertThat(resolver.read(ref("file://localhost" + path, Digests.sha256(payload)))).isEqualTo(payload);
        assertThatThrownBy(() -> resolver.read(ref("file://evil.example.com" + path, null)))
                .isInstanceOf(ArtifactException.class)
                .hasMessageContaining("names host 'evil.example.com'");
        assertThatThrownBy(() -> resolver.read(ref("file://user@127.0.0.1" + path, null)))
                .hasMessageContaining("names host 'user@127.0.0.1'");
        assertThatThrownBy(() -> resolver.read(ref("file:hosted.bin", null)))
                .hasMessageContaining("must name an absolute path");
    }
}
