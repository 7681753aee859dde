package io.mmgr.stream.cli;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.artifacts.CompositeArtifactResolver;
import io.mmgr.stream.artifacts.HttpArtifactResolver;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** Where artifacts may come from: the same options for the scorer and the judge worker. */
public final class ArtifactOptions {

    @Option(names = "--artifact-root", split = ",", defaultValue = "${env:MMGR_ARTIFACT_ROOTS}",
            description = "directory file: artifacts may live under (repeatable or comma-separated; default: the working "
                    + "directory; env MMGR_ARTIFACT_ROOTS)")
    List<Path> roots = new ArrayList<>();

    @Option(names = "--artifact-http-allow", split = ",", defaultValue = "${env:MMGR_ARTIFACT_HTTP_ALLOW}", paramLabel = "HOST[:PORT]",
            description = "host http(s) artifacts may be downloaded from (repeatable or comma-separated; default: none, "
                    + "every http URI is refused; env MMGR_ARTIFACT_HTTP_ALLOW)")
    List<String> httpAllow = new ArrayList<>();

    @Option(names = "--max-artifact-bytes", defaultValue = "${env:MMGR_MAX_ARTIFACT_BYTES:-" + LocalArtifactResolver.DEFAULT_MAX_BYTES + "}",
            description = "largest artifact accepted (default: ${DEFAULT-VALUE}; env MMGR_MAX_ARTIFACT_BYTES)")
    long maxBytes;

    /** The roots given, or the working directory. */
    List<Path> roots() {
        return roots.isEmpty() ? List.of(Path.of("").toAbsolutePath()) : roots;
    }

    /** The allowlisted hosts, or a usage error naming the malformed one. */
    List<HttpArtifactResolver.AllowedHost> allowedHosts(CommandLine cl) {
        List<HttpArtifactResolver.AllowedHost> hosts = new ArrayList<>();
        for (String host : httpAllow) {
            try {
                hosts.add(HttpArtifactResolver.AllowedHost.parse(host));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "--artifact-http-allow: " + e.getMessage());
            }
        }
        return hosts;
    }

    /** The resolver these options describe: file roots, allowlisted http hosts, inline data. */
    ArtifactResolver resolver(CommandLine cl, Path spillDir) {
        return CompositeArtifactResolver.standard(roots(), maxBytes, spillDir, allowedHosts(cl), HttpArtifactResolver.DEFAULT_TIMEOUT);
    }
}
