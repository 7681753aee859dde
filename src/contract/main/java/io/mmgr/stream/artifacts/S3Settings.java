package io.mmgr.stream.artifacts;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * Where {@code s3://bucket/key} artifacts are read from. The credentials are not here: they come from the standard
 * AWS chain (system properties, environment, profile, container or instance role), so no setting, log line or
 * topic of the scorer holds them.
 *
 * @param endpoint  an S3-compatible store (MinIO, R2, the S3 API of GCS, ...); null: the SDK's own choice
 *                  ({@code AWS_ENDPOINT_URL_S3}, {@code AWS_ENDPOINT_URL}, else AWS)
 * @param region    the store's region; null: {@code AWS_REGION}, {@code AWS_DEFAULT_REGION}, {@code aws.region},
 *                  else {@code us-east-1} (S3-compatible stores mostly ignore it). Never asked of the instance
 *                  metadata service, so a scorer off AWS does not wait on it.
 * @param pathStyle address buckets as {@code endpoint/bucket/key} instead of {@code bucket.endpoint/key}: what most
 *                  S3-compatible stores want
 * @param timeout   one read, connection to last byte; a store that takes longer is out of reach for now (the sample
 *                  waits and the read is tried again)
 */
public record S3Settings(URI endpoint, String region, boolean pathStyle, Duration timeout) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    public static final String FALLBACK_REGION = "us-east-1";

    public S3Settings {
        if (endpoint != null) {
            String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || endpoint.getHost() == null) {
                throw new IllegalArgumentException("the S3 endpoint must be an http(s) URL with a host, e.g. "
                        + "http://minio:9000, not '" + endpoint + "'");
            }
            if (endpoint.getRawUserInfo() != null) {
                throw new IllegalArgumentException("the S3 endpoint must not carry credentials; they come from the AWS chain");
            }
        }
        if (region != null && region.isBlank()) {
            region = null;
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the S3 read timeout must be positive");
        }
    }

    /** The SDK's endpoint, the environment's region, virtual-hosted buckets, 60 s. */
    public static S3Settings defaults() {
        return new S3Settings(null, null, false, DEFAULT_TIMEOUT);
    }

    public S3Settings withEndpoint(URI e) {
        return new S3Settings(e, region, pathStyle, timeout);
    }

    public S3Settings withRegion(String r) {
        return new S3Settings(endpoint, r, pathStyle, timeout);
    }

    public S3Settings withPathStyle(boolean p) {
        return new S3Settings(endpoint, region, p, timeout);
    }

    public S3Settings withTimeout(Duration t) {
        return new S3Settings(endpoint, region, pathStyle, t);
    }

    /** The region to sign requests for (see {@link #region}). */
    public String effectiveRegion() {
        for (String candidate : new String[] {region, System.getenv("AWS_REGION"), System.getenv("AWS_DEFAULT_REGION"),
                System.getProperty("aws.region")}) {
            if (candidate != null && !candidate.isBlank()) {
                return candidate.trim();
            }
        }
        return FALLBACK_REGION;
    }

    /** For the start-up summary and reasons: where objects are read, never who reads them. */
    public String describe() {
        return (endpoint == null ? "the SDK's endpoint (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS)" : endpoint.toString())
                + ", region " + effectiveRegion() + (pathStyle ? ", path-style" : "") + ", timeout " + timeout.toSeconds() + " s";
    }
}
