package io.mmgr.stream.web;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.StreamsMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scorer instances sharing this application id, found through Kafka Streams' metadata (each
 * advertises its web address as {@code application.server}), and HTTP calls to them.
 */
final class Cluster {

    private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);

    /** A store or an instance cannot answer now (rebalancing, starting, unreachable): retry. */
    static final class Unavailable extends RuntimeException {
        Unavailable(String message) {
            super(message);
        }
    }

    private final Supplier<List<HostInfo>> others;
    private final KafkaStreams streams;
    private final HostInfo self;
    private final WebAccess access;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    /** @param access this instance's token, which every instance of the application shares and sends to the others */
    Cluster(KafkaStreams streams, HostInfo self, WebAccess access) {
        this(streams, self, access, () -> streams.metadataForAllStreamsClients().stream().map(StreamsMetadata::hostInfo)
                .filter(h -> !h.equals(self) && h.port() > 0).distinct().toList());
    }

    /** @param others the other instances, as Kafka Streams' metadata lists them (or as a test sets them) */
    Cluster(KafkaStreams streams, HostInfo self, WebAccess access, Supplier<List<HostInfo>> others) {
        this.streams = streams;
        this.self = self;
        this.access = access;
        this.others = others;
    }

    HostInfo self() {
        return self;
    }

    boolean isSelf(HostInfo h) {
        return self.equals(h);
    }

    /** Every other instance that advertises a web address. */
    List<HostInfo> others() {
        return others.get();
    }

    <K> HostInfo owner(String store, K key, StreamPartitioner<? super K, ?> partitioner) {
        return active(streams.queryMetadataForKey(store, key, partitioner), store);
    }

    private static HostInfo active(KeyQueryMetadata md, String store) {
        if (md == null || md.equals(KeyQueryMetadata.NOT_AVAILABLE) || md.activeHost() == null) {
            throw new Unavailable("no instance holds " + store + " for this key right now (the scorer is starting or rebalancing); retry");
        }
        return md.activeHost();
    }

    /** GET a JSON answer from another instance. */
    JsonNode get(HostInfo host, String pathAndQuery) {
        URI uri = URI.create("http://" + host.host() + ":" + host.port() + pathAndQuery);
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET();
            access.authorization().ifPresent(a -> request.header("Authorization", a));
            HttpResponse<byte[]> r = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() == 401) {
                throw new Unavailable("instance " + host.host() + ":" + host.port() + " refused this instance's access token: "
                        + "give every instance of the application the same --web-token");
            }
            JsonNode body = Json.MAPPER.readTree(r.body());
            if (r.statusCode() == 404) {
                return null;
            }
            if (r.statusCode() != 200) {
                String why = body != null && body.has("error") ? body.get("error").asText() : "HTTP " + r.statusCode();
                throw new Unavailable("instance " + host.host() + ":" + host.port() + " could not answer: " + why);
            }
            return body;
        } catch (IOException e) {
            // the cause is for the log; the caller learns which instance, not our internals
            LOG.warn("instance {}:{} did not answer {}: {}", host.host(), host.port(), uri.getPath(), e.toString());
            throw new Unavailable("instance " + host.host() + ":" + host.port() + " is unreachable; retry");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted");
        }
    }
}
