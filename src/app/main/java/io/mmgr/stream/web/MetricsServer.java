package io.mmgr.stream.web;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Only {@code /metrics} (Prometheus text format), for processes without the dashboard: the
 * stand-alone judge worker, whose meters (calls, cost, circuit state, backlog) would otherwise stay
 * in its memory.
 */
public final class MetricsServer implements AutoCloseable {

    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Listens on {@code bindHost:port} (0: any free port) and serves the registry's scrape to those
     * {@code access} lets in (the same rule as the scorer's /metrics).
     */
    public static MetricsServer start(String bindHost, int port, PrometheusMeterRegistry registry, WebAccess access)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(bindHost, port), 8);
        server.createContext("/", HttpExchanges.guarded(access, ex -> {
            if (ex.getRequestURI().getPath().equals("/metrics")) {
                HttpExchanges.send(ex, 200, "text/plain; version=0.0.4; charset=utf-8",
                        registry.scrape().getBytes(StandardCharsets.UTF_8));
            } else {
                HttpExchanges.error(ex, 404, "only /metrics here");
            }
        }));
        server.start(); // the JDK's dispatcher thread: scrapes are rare and quick
        return new MetricsServer(server);
    }

    public String url() {
        InetSocketAddress a = server.getAddress();
        return "http://" + a.getHostString() + ":" + a.getPort() + "/metrics";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
