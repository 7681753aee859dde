package io.mmgr.stream.web;

import io.mmgr.stream.contract.Stores;
import com.sun.net.httpserver.HttpServer;
import io.mmgr.stream.leaderboard.JudgeReliabilityFlags;
import io.mmgr.stream.leaderboard.ReliabilityFlags;
import io.mmgr.stream.tasks.ArtifactResolver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** The REST API on loopback over a TopologyTestDriver's stores, as the only instance (ask it with scope=local). */
final class LocalApi {

    /** The flags the app serves: the built-in ones and the judge's agreement. */
    static final ReliabilityFlags FLAGS = new ReliabilityFlags(List.of(new JudgeReliabilityFlags()));

    private LocalApi() {
    }

    static HttpServer serve(TopologyTestDriver driver, Stores registry, ArtifactResolver artifacts) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        HostInfo self = new HostInfo("127.0.0.1", server.getAddress().getPort());
        Function<String, ReadOnlyKeyValueStore<?, ?>> stores = driver::getKeyValueStore;
        server.createContext("/api/", new ApiHandler(new StoreQueries(stores, registry), new Cluster(null, self, WebAccess.open()), artifacts,
                FLAGS));
        server.start();
        return server;
    }
}
