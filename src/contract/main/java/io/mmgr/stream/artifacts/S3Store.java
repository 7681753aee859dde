package io.mmgr.stream.artifacts;

import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactUnavailableException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The SDK side of {@link S3ArtifactResolver}: one S3 client on the JDK's own HTTP connection (the smallest of the
 * SDK's HTTP clients: no Netty, no native CRT), and the mapping of what the store answers to final or transient
 * failures. Reasons name the object and the store, never a credential or a request id (a reason that stays the
 * same over retries is announced once).
 */
final class S3Store {

    /** A connection that is not up in this long will not be: the rest of the timeout is for the transfer. */
    private static final Duration CONNECT_MAX = Duration.ofSeconds(10);

    private final S3Client s3;
    private final S3Settings settings;

    S3Store(S3Settings settings) {
        this.settings = settings;
        Duration timeout = settings.timeout();
        S3ClientBuilder b = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(timeout.compareTo(CONNECT_MAX) < 0 ? timeout : CONNECT_MAX)
                        .socketTimeout(timeout))
                .region(Region.of(settings.effectiveRegion()))
                .credentialsProvider(DefaultCredentialsProvider.builder().build())
                .forcePathStyle(settings.pathStyle())
                // our own SHA-256 is the check; the SDK's would read whole bodies we may stop early
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                // one attempt per read: the evaluation worker retries with its own backoff, the sample shown PENDING
                .overrideConfiguration(c -> c.apiCallTimeout(timeout).apiCallAttemptTimeout(timeout)
                        .retryStrategy(AwsRetryStrategy.doNotRetry()));
        if (settings.endpoint() != null) {
            b.endpointOverride(settings.endpoint());
        }
        this.s3 = b.build();
    }

    /** Streams the object into {@code out}, never more than {@code maxBytes} of it; returns its SHA-256. */
    String download(S3Location where, long maxBytes, OutputStream out) throws ArtifactException {
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        GetObjectRequest request = GetObjectRequest.builder().bucket(where.bucket()).key(where.key()).build();
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(request)) {
            Long declared = in.response().contentLength();
            if (declared != null && declared > maxBytes) {
                in.abort();
                throw new ArtifactException("artifact " + where + " is " + declared + " bytes, over the limit of " + maxBytes);
            }
            return copy(where, in, maxBytes, deadline, out);
        } catch (NoSuchKeyException e) {
            throw new ArtifactException("artifact not found: " + where + " (no such key)");
        } catch (NoSuchBucketException e) {
            throw new ArtifactException("artifact not found: " + where + " (no such bucket '" + where.bucket() + "')");
        } catch (S3Exception e) {
            throw answered(where, e);
        } catch (ApiCallTimeoutException | ApiCallAttemptTimeoutException e) {
            throw timedOut(where, e);
        } catch (SdkClientException e) {
            throw unreachable(where, e);
        } catch (IOException e) {
            throw e instanceof SocketTimeoutException ? timedOut(where, e) : unreachable(where, e);
        }
    }

    private String copy(S3Location where, ResponseInputStream<GetObjectResponse> in, long maxBytes, long deadline,
                        OutputStream out) throws ArtifactException, IOException {
        MessageDigest md = Digests.sha256();
        byte[] buf = new byte[1 << 16];
        long total = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
            total += n;
            if (total > maxBytes) {
                in.abort();
                throw new ArtifactException("artifact " + where + " is over the limit of " + maxBytes + " bytes (download stopped)");
            }
            if (System.nanoTime() > deadline) {
                in.abort();
                throw new ArtifactUnavailableException("artifact " + where + ": the store did not send it within "
                        + settings.timeout().toSeconds() + " s");
            }
            md.update(buf, 0, n);
            try {
                out.write(buf, 0, n);
            } catch (IOException e) {
                in.abort();
                throw new ArtifactException("cannot store downloaded artifact: " + e.getMessage(), e);
            }
        }
        if (total == 0) {
            throw new ArtifactException("artifact " + where + " is empty");
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** The store answered with an error: a refusal fails the sample, a server error or throttle makes it wait. */
    private ArtifactException answered(S3Location where, S3Exception e) {
        int status = e.statusCode();
        String code = e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null ? "" : " " + e.awsErrorDetails().errorCode();
        if (status >= 500 || status == 429 || status == 408) {
            return new ArtifactUnavailableException("artifact " + where + ": the store answered HTTP " + status + code
                    + "; trying again", e);
        }
        if (status == 403) {
            return new ArtifactException("artifact " + where + ": access denied (HTTP 403" + code + "): the scorer's credentials "
                    + "may not read this bucket", e);
        }
        if (status == 404) {
            return new ArtifactException("artifact not found: " + where + " (HTTP 404" + code + ")", e);
        }
        if (status == 301) {
            return new ArtifactException("artifact " + where + ": the bucket is in another region than " + settings.effectiveRegion()
                    + " (HTTP 301" + code + "): set --artifact-s3-region", e);
        }
        return new ArtifactException("artifact " + where + ": the store refused the read (HTTP " + status + code + ")", e);
    }

    private ArtifactUnavailableException timedOut(S3Location where, Exception e) {
        return new ArtifactUnavailableException("artifact " + where + ": the store did not answer within "
                + settings.timeout().toSeconds() + " s; trying again", e);
    }

    private ArtifactUnavailableException unreachable(S3Location where, Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof SocketTimeoutException) {
            return timedOut(where, e);
        }
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (message.startsWith("Unable to load credentials")) {
            return new ArtifactUnavailableException("artifact " + where + ": no AWS credentials found (system properties "
                    + "aws.accessKeyId/aws.secretAccessKey, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, or a "
                    + "container or instance role); trying again", e);
        }
        String why = root.getMessage() == null ? root.getClass().getSimpleName() : root.getClass().getSimpleName() + ": "
                + root.getMessage();
        return new ArtifactUnavailableException("artifact " + where + ": the store " + (settings.endpoint() == null ? ""
                : "at " + settings.endpoint() + " ") + "cannot be reached (" + why + "); trying again", e);
    }
}
