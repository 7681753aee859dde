package io.mmgr.stream.cli;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.artifacts.CompositeArtifactResolver;
import io.mmgr.stream.artifacts.HttpArtifactResolver;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.artifacts.S3Settings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
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

    @Option(names = "--artifact-s3-endpoint", defaultValue = "${env:MMGR_ARTIFACT_S3_ENDPOINT}", paramLabel = "URL",
            description = "S3-compatible store s3:// artifacts are read from, e.g. http://minio:9000 (default: the AWS SDK's: "
                    + "AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS; env MMGR_ARTIFACT_S3_ENDPOINT)")
    String s3Endpoint;

    @Option(names = "--artifact-s3-region", defaultValue = "${env:MMGR_ARTIFACT_S3_REGION}",
            description = "region of the s3:// artifacts' buckets (default: AWS_REGION, AWS_DEFAULT_REGION, else us-east-1; "
                    + "env MMGR_ARTIFACT_S3_REGION)")
    String s3Region;

    @Option(names = "--artifact-s3-path-style", defaultValue = "${env:MMGR_ARTIFACT_S3_PATH_STYLE:-false}", arity = "0..1",
            description = "address buckets as ENDPOINT/BUCKET/KEY, as most S3-compatible stores want (default: BUCKET.ENDPOINT/KEY; "
                    + "env MMGR_ARTIFACT_S3_PATH_STYLE=true)")
    boolean s3PathStyle;

    @Option(names = "--artifact-s3-timeout", defaultValue = "${env:MMGR_ARTIFACT_S3_TIMEOUT:-PT60S}", paramLabel = "DURATION",
            description = "one s3:// read, connection to last byte; a store slower than this makes the sample wait (PENDING) "
                    + "and the read is tried again (default: ${DEFAULT-VALUE}; env MMGR_ARTIFACT_S3_TIMEOUT)")
    Duration s3Timeout;

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

    /** Where s3:// artifacts are read, or a usage error naming the option at fault. */
    S3Settings s3(CommandLine cl) {
        try {
            return new S3Settings(s3Endpoint == null || s3Endpoint.isBlank() ? null : URI.create(s3Endpoint.trim()), s3Region,
                    s3PathStyle, s3Timeout);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--artifact-s3-endpoint/--artifact-s3-timeout: " + e.getMessage());
        }
    }

    /** The resolver these options describe: file roots, allowlisted http hosts, inline data, s3 objects. */
    ArtifactResolver resolver(CommandLine cl, Path spillDir) {
        return CompositeArtifactResolver.standard(roots(), maxBytes, spillDir, allowedHosts(cl), HttpArtifactResolver.DEFAULT_TIMEOUT,
                s3(cl));
    }
}
