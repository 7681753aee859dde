package io.mmgr.stream.it;

import io.mmgr.stream.artifacts.Digests;
import java.net.URI;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Properties;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.HttpResponse;
import org.gaul.s3proxy.blobstore.HttpResponseException;
import org.gaul.s3proxy.blobstore.domain.Blob;
import org.gaul.s3proxy.blobstore.domain.BlobMetadata;
import org.gaul.s3proxy.blobstore.options.GetOptions;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible server in this JVM, on loopback: s3proxy over its in-memory store, answering only requests
 * signed with its own key pair (a fresh secret each time). The bucket {@link #DENIED_BUCKET} answers every object
 * read with 403 AccessDenied, as a bucket the credentials may not read does.
 */
public final class S3TestStore implements AutoCloseable {

    public static final String ACCESS_KEY = "mmgr-test-access-key";
    public static final String DENIED_BUCKET = "denied-bucket";

    private final String secretKey = "s3-secret-" + HexFormat.of().formatHex(SecureRandom.getSeed(12));
    private final S3Proxy server;
    private final S3Client client;

    public S3TestStore() throws Exception {
        BlobStore store = new Denying(BlobStores.create("transient-nio2", new Properties()));
        server = S3Proxy.builder().blobStore(store).awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, secretKey)
                .endpoint(URI.create("http://127.0.0.1:0")).build();
        server.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!AbstractLifeCycle.STARTED.equals(server.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("s3proxy did not start within 30 s: " + server.getState());
            }
            Thread.sleep(10);
        }
        client = S3Client.builder().endpointOverride(endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, secretKey)))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
        createBucket(DENIED_BUCKET);
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getPort());
    }

    public int port() {
        return server.getPort();
    }

    /** The secret half of the key pair: what must never show in a log or a topic. */
    public String secretKey() {
        return secretKey;
    }

    public void createBucket(String bucket) {
        client.createBucket(b -> b.bucket(bucket));
    }

    /** Stores the bytes under the key; returns their SHA-256 (hex), what a reference to them declares. */
    public String put(String bucket, String key, byte[] bytes) {
        client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
        return Digests.sha256(bytes);
    }

    public byte[] get(String bucket, String key) {
        return client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
    }

    /**
     * Lets the standard AWS credentials chain of this JVM find this store's key pair, as the system properties
     * {@code aws.accessKeyId} and {@code aws.secretAccessKey} (its first source). Closing restores what was set before.
     */
    public AutoCloseable asJvmCredentials() {
        return jvmCredentials(ACCESS_KEY, secretKey);
    }

    /**
     * Sets the key pair the AWS chain of this JVM finds first, and keeps the chain from ever reaching for the
     * instance metadata service (an address off this machine); closing restores what was set before.
     */
    public static AutoCloseable jvmCredentials(String accessKey, String secretKey) {
        String[] names = {"aws.accessKeyId", "aws.secretAccessKey", "aws.disableEc2Metadata"};
        Properties saved = new Properties();
        for (String k : names) {
            String v = System.getProperty(k);
            if (v != null) {
                saved.setProperty(k, v);
            }
        }
        System.setProperty("aws.accessKeyId", accessKey);
        System.setProperty("aws.secretAccessKey", secretKey);
        System.setProperty("aws.disableEc2Metadata", "true");
        return () -> {
            for (String k : names) {
                if (saved.containsKey(k)) {
                    System.setProperty(k, saved.getProperty(k));
                } else {
                    System.clearProperty(k);
                }
            }
        };
    }

    @Override
    public void close() throws Exception {
        client.close();
        server.stop();
    }

    /** Refuses reads of {@link #DENIED_BUCKET}'s objects: s3proxy answers a back end's 403 with an AccessDenied document. */
    private static final class Denying extends ForwardingBlobStore {

        Denying(BlobStore delegate) {
            super(delegate);
        }

        @Override
        public Blob getBlob(String container, String name, GetOptions options) {
            deny(container);
            return super.getBlob(container, name, options);
        }

        @Override
        public BlobMetadata blobMetadata(String container, String name) {
            deny(container);
            return super.blobMetadata(container, name);
        }

        private static void deny(String container) {
            if (DENIED_BUCKET.equals(container)) {
                throw new HttpResponseException(new HttpResponse(403));
            }
        }
    }
}
