package io.mmgr.stream.artifacts;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactResolver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Routes each reference to the resolver of its URI scheme: {@code file:} and {@code data:} to the
 * local one, {@code http:} and {@code https:} to the allowlisted downloader, {@code s3:} to the object
 * store reader when one is configured. Any other scheme is refused with the list of what is accepted.
 */
public final class CompositeArtifactResolver implements ArtifactResolver {

    private final Map<String, ArtifactResolver> byScheme;

    public CompositeArtifactResolver(Map<String, ArtifactResolver> byScheme) {
        this.byScheme = new LinkedHashMap<>();
        byScheme.forEach((scheme, resolver) -> this.byScheme.put(scheme.toLowerCase(Locale.ROOT), resolver));
    }

    /**
     * Files under {@code roots}, inline data, and http(s) from {@code httpAllow} hosts (none: every http URI is
     * refused), all under one size limit; no s3 (what the offline eval commands read).
     */
    public static CompositeArtifactResolver standard(List<Path> roots, long maxBytes, Path spillDir,
                                                     List<HttpArtifactResolver.AllowedHost> httpAllow, Duration httpTimeout) {
        return new CompositeArtifactResolver(fileAndHttp(roots, maxBytes, spillDir, httpAllow, httpTimeout));
    }

    /**
     * The scorer's resolver: as {@link #standard(List, long, Path, List, Duration)}, and {@code s3://} objects read as
     * {@code s3} says (the deployable carries the AWS SDK this needs).
     */
    public static CompositeArtifactResolver standard(List<Path> roots, long maxBytes, Path spillDir,
                                                     List<HttpArtifactResolver.AllowedHost> httpAllow, Duration httpTimeout,
                                                     S3Settings s3) {
        Map<String, ArtifactResolver> routes = fileAndHttp(roots, maxBytes, spillDir, httpAllow, httpTimeout);
        routes.put("s3", new S3ArtifactResolver(s3, maxBytes, spillDir));
        return new CompositeArtifactResolver(routes);
    }

    private static Map<String, ArtifactResolver> fileAndHttp(List<Path> roots, long maxBytes, Path spillDir,
                                                       List<HttpArtifactResolver.AllowedHost> httpAllow, Duration httpTimeout) {
        LocalArtifactResolver local = new LocalArtifactResolver(roots, maxBytes, spillDir);
        HttpArtifactResolver http = new HttpArtifactResolver(httpAllow, maxBytes, httpTimeout, spillDir);
        Map<String, ArtifactResolver> routes = new LinkedHashMap<>();
        routes.put("file", local);
        routes.put("data", local);
        routes.put("http", http);
        routes.put("https", http);
        return routes;
    }

    @Override
    public byte[] read(ArtifactRef ref) throws ArtifactException {
        return route(ref).read(ref);
    }

    @Override
    public Path file(ArtifactRef ref) throws ArtifactException {
        return route(ref).file(ref);
    }

    private ArtifactResolver route(ArtifactRef ref) throws ArtifactException {
        String uri = ref.getUri();
        int colon = uri == null ? -1 : uri.indexOf(':');
        String scheme = colon <= 0 ? "" : uri.substring(0, colon).toLowerCase(Locale.ROOT);
        ArtifactResolver resolver = byScheme.get(scheme);
        if (resolver == null) {
            throw new ArtifactException("artifact URI scheme '" + scheme + "' is not supported (accepted: "
                    + String.join(", ", byScheme.keySet()) + ")");
        }
        return resolver;
    }
}
