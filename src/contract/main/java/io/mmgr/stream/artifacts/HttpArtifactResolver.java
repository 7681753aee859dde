package io.mmgr.stream.artifacts;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactResolver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Downloads {@code http:} / {@code https:} artifacts from hosts on an allowlist (none by default),
 * within a size limit and a deadline. Redirects are not followed: they could lead off the allowlist.
 * A declared {@code Content-Length} over the limit is refused before the body is read; a body that
 * grows past it, or outlasts the deadline, is cancelled.
 */
public final class HttpArtifactResolver implements ArtifactResolver {

    /** Default time for one download, connection to last byte. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** An allowlist entry: a host name (any port) or {@code host:port}. */
    public record AllowedHost(String host, int port) {

        public static AllowedHost parse(String entry) {
            String e = entry.trim().toLowerCase(Locale.ROOT);
            if (e.isEmpty() || e.contains("/") || e.contains("@")) {
                throw new IllegalArgumentException("allowlist entry '" + entry + "' must be HOST or HOST:PORT");
            }
            int colon = e.lastIndexOf(':');
            // a bracketed IPv6 literal keeps its colons
            if (colon > 0 && e.indexOf(']') < colon) {
                try {
                    return new AllowedHost(e.substring(0, colon), Integer.parseInt(e.substring(colon + 1)));
                } catch (NumberFormatException ex) {
                    throw new IllegalArgumentException("allowlist entry '" + entry + "' has a bad port");
                }
            }
            return new AllowedHost(e, -1);
        }

        boolean admits(String uriHost, int effectivePort) {
            return host.equals(uriHost.toLowerCase(Locale.ROOT)) && (port < 0 || port == effectivePort);
        }

        @Override
        public String toString() {
            return port < 0 ? host : host + ":" + port;
        }
    }

    private final List<AllowedHost> allowed;
    private final long maxBytes;
    private final Duration timeout;
    private final Path spillDir;
    private final HttpClient http;

    /**
     * @param allowed  hosts artifacts may be downloaded from
     * @param maxBytes larger artifacts are refused
     * @param timeout  deadline of one download
     * @param spillDir where downloads go when a decoder wants a file
     */
    public HttpArtifactResolver(List<AllowedHost> allowed, long maxBytes, Duration timeout, Path spillDir) {
        this.allowed = List.copyOf(allowed);
        this.maxBytes = maxBytes;
        this.timeout = timeout;
        this.spillDir = spillDir;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    public List<AllowedHost> allowed() {
        return allowed;
    }

    @Override
    public byte[] read(ArtifactRef ref) throws ArtifactException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        download(ref, out);
        byte[] bytes = out.toByteArray();
        Digests.verify(ref, bytes);
        return bytes;
    }

    @Override
    public Path file(ArtifactRef ref) throws ArtifactException {
        return Spill.file(spillDir, "http-", ref, out -> download(ref, out));
    }

    /** Checks the URI against the allowlist; returns it parsed. */
    URI admit(String uri) throws ArtifactException {
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            throw new ArtifactException("artifact URI is malformed: " + e.getMessage());
        }
        String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ArtifactException("artifact URI scheme '" + scheme + "' is not http(s)");
        }
        if (parsed.getHost() == null) {
            throw new ArtifactException("artifact URI " + redacted(parsed) + " has no host");
        }
        if (parsed.getRawUserInfo() != null) {
            // credentials in artifact URIs would end up in dead letters and logs
            throw new ArtifactException("artifact URI " + redacted(parsed) + " carries credentials; they are not accepted");
        }
        int port = parsed.getPort() >= 0 ? parsed.getPort() : scheme.equals("https") ? 443 : 80;
        for (AllowedHost a : allowed) {
            if (a.admits(parsed.getHost(), port)) {
                return parsed;
            }
        }
        throw new ArtifactException("artifact host '" + parsed.getHost() + ":" + port + "' is not on the http allowlist "
                + (allowed.isEmpty() ? "(empty: pass --artifact-http-allow HOST[:PORT] to allow one)" : allowed.toString()));
    }

    private static String redacted(URI u) {
        return (u.getScheme() == null ? "" : u.getScheme() + "://") + (u.getHost() == null ? "" : u.getHost())
                + (u.getPort() >= 0 ? ":" + u.getPort() : "") + (u.getRawPath() == null ? "" : u.getRawPath());
    }

    /** Streams the body into {@code out}, bounded in size and time; returns its SHA-256. */
    private String download(ArtifactRef ref, OutputStream out) throws ArtifactException {
        URI uri = admit(ref.getUri());
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
        BoundedBody body = new BoundedBody(uri, out);
        var response = http.sendAsync(request, body::start);
        try {
            return response.get(timeout.toNanos(), TimeUnit.NANOSECONDS).body();
        } catch (TimeoutException e) {
            body.abort();
            response.cancel(true);
            throw new ArtifactException("artifact " + uri + " timed out after " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof ArtifactException a) {
                throw a;
            }
            if (cause instanceof java.net.http.HttpTimeoutException) {
                throw new ArtifactException("artifact " + uri + " timed out after " + timeout.toMillis() + " ms", cause);
            }
            throw new ArtifactException("artifact " + uri + " cannot be downloaded: " + cause, cause);
        } catch (InterruptedException e) {
            body.abort();
            Thread.currentThread().interrupt();
            throw new ArtifactException("interrupted while downloading " + uri, e);
        }
    }

    /**
     * Receives the body: refuses a bad status or an over-long declared length before any byte,
     * stops (cancelling the transfer) once the body grows past the limit, and digests as it writes.
     */
    private final class BoundedBody implements HttpResponse.BodySubscriber<String> {
        private final URI uri;
        private final OutputStream out;
        private final CompletableFuture<String> result = new CompletableFuture<>();
        private final MessageDigest md = Digests.sha256();
        private Flow.Subscription subscription;
        private ArtifactException refusal;
        private long total;
        private boolean done;

        BoundedBody(URI uri, OutputStream out) {
            this.uri = uri;
            this.out = out;
        }

        HttpResponse.BodySubscriber<String> start(HttpResponse.ResponseInfo info) {
            int status = info.statusCode();
            if (status != 200) {
                refusal = new ArtifactException("artifact " + uri + " answered HTTP " + status
                        + (status / 100 == 3 ? " (redirects are not followed)" : ""));
            } else {
                OptionalLong declared = info.headers().firstValueAsLong("content-length");
                if (declared.isPresent() && declared.getAsLong() > maxBytes) {
                    refusal = new ArtifactException("artifact is " + declared.getAsLong()
                            + " bytes, over the limit of " + maxBytes);
                }
            }
            return this;
        }

        @Override
        public synchronized void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (refusal != null) {
                fail(refusal);
            } else {
                s.request(1);
            }
        }

        @Override
        public synchronized void onNext(List<ByteBuffer> items) {
            if (done) {
                return;
            }
            try {
                for (ByteBuffer b : items) {
                    total += b.remaining();
                    if (total > maxBytes) {
                        fail(new ArtifactException("artifact is over the limit of " + maxBytes + " bytes (download stopped)"));
                        return;
                    }
                    byte[] chunk = new byte[b.remaining()];
                    b.get(chunk);
                    md.update(chunk);
                    out.write(chunk);
                }
            } catch (IOException e) {
                fail(new ArtifactException("cannot store downloaded artifact: " + e.getMessage(), e));
                return;
            }
            subscription.request(1);
        }

        @Override
        public synchronized void onError(Throwable t) {
            if (!done) {
                done = true;
                result.completeExceptionally(t);
            }
        }

        @Override
        public synchronized void onComplete() {
            if (done) {
                return;
            }
            done = true;
            if (total == 0) {
                result.completeExceptionally(new ArtifactException("artifact is empty"));
            } else {
                result.complete(HexFormat.of().formatHex(md.digest()));
            }
        }

        @Override
        public CompletionStage<String> getBody() {
            return result;
        }

        /** After a timeout: no more writes, and the transfer is cancelled. */
        synchronized void abort() {
            if (!done) {
                fail(new ArtifactException("artifact " + uri + " timed out"));
            }
        }

        private void fail(ArtifactException e) {
            done = true;
            if (subscription != null) {
                subscription.cancel();
            }
            result.completeExceptionally(e);
        }
    }
}
