package io.mmgr.stream.web;

import io.mmgr.stream.contract.Stores;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.leaderboard.ReliabilityFlags;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The scorer's web server (the JDK's HttpServer): the dashboard page, the REST API, server-sent
 * events and the Prometheus endpoint. It binds before Kafka Streams starts, so the instance can
 * advertise its address as {@code application.server}; the API answers once {@link #serve} is called.
 */
public final class WebServer implements AutoCloseable {

    static final String STATIC = "/io/mmgr/stream/web/static/";

    private final HttpServer server;
    private final ExecutorService executor;
    private final String advertisedHost;
    private final WebAccess access;
    private volatile ApiHandler api;
    private volatile LiveFeed feed;
    private volatile PrometheusMeterRegistry metrics;
    private volatile JudgeCostEndpoint.Mode judgeMode = JudgeCostEndpoint.Mode.NONE;

    private WebServer(HttpServer server, ExecutorService executor, String advertisedHost, WebAccess access) {
        this.server = server;
        this.executor = executor;
        this.advertisedHost = advertisedHost;
        this.access = access;
    }

    /**
     * @param bindHost       interface to listen on (e.g. 127.0.0.1, 0.0.0.0)
     * @param port           0 for any free port
     * @param advertisedHost how other instances and browsers reach this one
     * @param access         who may read the API, live updates, artifacts, report and metrics (the
     *                       dashboard's static files carry no data and are served to anyone)
     */
    public static WebServer bind(String bindHost, int port, String advertisedHost, WebAccess access) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(bindHost, port), 64);
        AtomicInteger n = new AtomicInteger();
        // one thread per open event stream, so a cached pool; daemon threads never hold the JVM
        ExecutorService executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "mmgr-web-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        WebServer web = new WebServer(server, executor, advertisedHost, access);
        server.createContext("/", HttpExchanges.guarded(WebAccess.open(), web::page));
        server.createContext("/api/session", HttpExchanges.guarded(WebAccess.open(), web::session));
        server.createContext("/api/", HttpExchanges.guarded(access, ex -> {
            ApiHandler h = web.api;
            if (h == null) {
                HttpExchanges.error(ex, 503, "the scorer is starting; retry");
            } else {
                h.handle(ex);
            }
        }));
        server.createContext("/api/events", HttpExchanges.guarded(access, ex -> {
            LiveFeed f = web.feed;
            if (f == null) {
                HttpExchanges.error(ex, 503, "the scorer is starting; retry");
            } else {
                f.handle(ex);
            }
        }));
        // the same token as the API: Prometheus sends it (scrape config 'authorization: credentials_file')
        server.createContext("/metrics", HttpExchanges.guarded(access, web::metrics));
        server.start();
        return web;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The address other instances forward to: {@code application.server}. */
    public HostInfo hostInfo() {
        return new HostInfo(advertisedHost, port());
    }

    public String url() {
        return "http://" + advertisedHost + ":" + port() + "/";
    }

    /** Starts answering API requests from the running scorer's stores; rows carry {@code flags}' reliability flags. */
    public void serve(KafkaStreams streams, Topics topics, Stores stores, Map<String, Object> clientConfig,
                      ArtifactResolver artifacts, PrometheusMeterRegistry registry, ReliabilityFlags flags) {
        this.metrics = registry;
        this.feed = new LiveFeed(clientConfig, topics, flags);
        this.api = new ApiHandler(new StoreQueries(streams, stores), new Cluster(streams, hostInfo(), access), artifacts, flags,
                () -> judgeMode);
    }

    /** {@code /api/judge-cost} says the judge runs in this process (its figures come from the topics all the same). */
    public void judgeCostInProcess() {
        this.judgeMode = JudgeCostEndpoint.Mode.IN_PROCESS;
    }

    /** {@code /api/judge-cost} says the judge runs in {@code mmgr judge-worker} processes. */
    public void judgeCostExternal() {
        this.judgeMode = JudgeCostEndpoint.Mode.EXTERNAL;
    }

    public LiveFeed feed() {
        return feed;
    }

    private void metrics(HttpExchange ex) throws IOException {
        PrometheusMeterRegistry r = metrics;
        if (r == null) {
            HttpExchanges.error(ex, 503, "the scorer is starting; retry");
            return;
        }
        HttpExchanges.send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", r.scrape().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code POST /api/session} with the bearer token: the browser's session cookie (see {@link WebAccess}).
     * Without a token to check, there is nothing to trade: 204 and no cookie.
     */
    private void session(HttpExchange ex) throws IOException {
        if (!"POST".equals(ex.getRequestMethod())) {
            HttpExchanges.error(ex, 405, "POST the token as 'Authorization: Bearer <token>' to open a dashboard session");
            return;
        }
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (access.required() && (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7)
                || !access.matches(auth.substring(7).trim()))) {
            HttpExchanges.unauthorized(ex);
            return;
        }
        if (access.required()) {
            ex.getResponseHeaders().add("Set-Cookie", access.sessionCookie());
        }
        HttpExchanges.send(ex, 204, "application/json; charset=utf-8", new byte[0]);
    }

    /** The dashboard's files, from the classpath: no build step, nothing fetched from elsewhere. */
    private void page(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String name = path.equals("/") ? "index.html" : path.substring(1);
        if (name.contains("..") || name.contains("/")) {
            HttpExchanges.error(ex, 404, "not found: " + path);
            return;
        }
        try (InputStream in = WebServer.class.getResourceAsStream(STATIC + name)) {
            if (in == null) {
                HttpExchanges.error(ex, 404, "not found: " + path);
                return;
            }
            if (name.endsWith(".html")) {
                ex.getResponseHeaders().set("Content-Security-Policy", HttpExchanges.DASHBOARD_CSP);
            }
            HttpExchanges.send(ex, 200, contentType(name), in.readAllBytes());
        }
    }

    private static String contentType(String name) {
        if (name.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (name.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (name.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        if (name.endsWith(".svg")) {
            return "image/svg+xml";
        }
        return "application/octet-stream";
    }

    @Override
    public void close() {
        LiveFeed f = feed;
        if (f != null) {
            f.close();
        }
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
