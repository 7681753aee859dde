package io.mmgr.stream.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The access token on the real JDK HTTP server on loopback: what is open (the dashboard's files), what
 * takes the token (API, live updates, metrics), the browser's session cookie, the bind rule, and the
 * token sent between instances. Every answer is checked for nosniff and for never carrying the token.
 */
@Tag("unit")
class WebAccessTest {

    static final String TOKEN = "t0k3n-" + "0123456789abcdef0123456789abcdef";

    final HttpClient http = HttpClient.newHttpClient();
    final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    WebServer server(WebAccess access) throws Exception {
        WebServer web = WebServer.bind("127.0.0.1", 0, "127.0.0.1", access);
        open.add(web);
        return web;
    }

    HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.headers().firstValue("X-Content-Type-Options")).as("%s", r.uri()).hasValue("nosniff");
        assertThat(r.body()).as("no answer carries the token").doesNotContain(TOKEN);
        r.headers().map().values().forEach(v -> assertThat(v.toString()).doesNotContain(TOKEN));
        return r;
    }

    HttpRequest.Builder get(WebServer web, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + web.port() + path));
    }

    @Test
    void theDashboardsFilesAreOpenAndCarryTheirPolicyWhileEverythingWithDataTakesTheToken() throws Exception {
        WebServer web = server(WebAccess.token(TOKEN));
        HttpResponse<String> page = send(get(web, "/"));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(HttpExchanges.DASHBOARD_CSP);
        assertThat(HttpExchanges.DASHBOARD_CSP).contains("script-src 'self'").doesNotContain("unsafe-inline")
                .contains("frame-ancestors 'none'");
        assertThat(page.body()).as("no inline script").doesNotContainPattern("<script>").contains("<script src=\"app.js\">");
        assertThat(send(get(web, "/app.js")).statusCode()).isEqualTo(200);
        assertThat(send(get(web, "/style.css")).statusCode()).isEqualTo(200);
        assertThat(send(get(web, "/nope.js")).statusCode()).isEqualTo(404);

        for (String path : List.of("/api/runs", "/api/artifact?task=t&item=i&index=0", "/api/report?run=r", "/api/events",
                "/metrics")) {
            HttpResponse<String> none = send(get(web, path));
            assertThat(none.statusCode()).as(path).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
            assertThat(none.body()).contains("--web-token", "MMGR_WEB_TOKEN");
            assertThat(send(get(web, path).header("Authorization", "Bearer " + TOKEN + "x")).statusCode()).as(path).isEqualTo(401);
            assertThat(send(get(web, path).header("Authorization", "Basic " + TOKEN)).statusCode()).as(path).isEqualTo(401);
            // the right token passes the check: the scorer behind it is still starting here
            assertThat(send(get(web, path).header("Authorization", "Bearer " + TOKEN)).statusCode()).as(path).isEqualTo(503);
            assertThat(send(get(web, path).header("authorization", "bearer " + TOKEN)).statusCode()).as(path).isEqualTo(503);
        }
    }

    @Test
    void theBrowserTradesTheTokenOnceForAStrictHttpOnlyCookieThatIsNotTheToken() throws Exception {
        WebServer web = server(WebAccess.token(TOKEN));
        HttpResponse<String> wrong = send(get(web, "/api/session").POST(HttpRequest.BodyPublishers.noBody())
                .header("Authorization", "Bearer not-the-token-at-all"));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(send(get(web, "/api/session")).statusCode()).as("only POST opens a session").isEqualTo(405);

        HttpResponse<String> ok = send(get(web, "/api/session").POST(HttpRequest.BodyPublishers.noBody())
                .header("Authorization", "Bearer " + TOKEN));
        assertThat(ok.statusCode()).isEqualTo(204);
        String cookie = ok.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).startsWith(WebAccess.COOKIE + "=").contains("HttpOnly", "SameSite=Strict", "Path=/");
        String pair = cookie.substring(0, cookie.indexOf(';'));
        assertThat(send(get(web, "/api/runs").header("Cookie", "other=1; " + pair)).statusCode()).isEqualTo(503);
        assertThat(send(get(web, "/api/events").header("Cookie", pair)).statusCode()).isEqualTo(503);
        assertThat(send(get(web, "/api/runs").header("Cookie", pair + "0")).statusCode()).isEqualTo(401);
        assertThat(send(get(web, "/api/runs").header("Cookie", WebAccess.COOKIE + "=" + TOKEN)).statusCode())
                .as("the token is no cookie").isEqualTo(401);
        // the cookie is no bearer token either
        assertThat(send(get(web, "/api/runs").header("Authorization", "Bearer " + pair.substring(pair.indexOf('=') + 1)))
                .statusCode()).isEqualTo(401);
        // another instance with the same token accepts the same cookie (a load balancer may switch)
        WebServer other = server(WebAccess.token(TOKEN));
        assertThat(send(get(other, "/api/runs").header("Cookie", pair)).statusCode()).isEqualTo(503);
    }

    @Test
    void withoutATokenOnLoopbackEverythingIsOpenAndTheSessionIsANoOp() throws Exception {
        WebServer web = server(WebAccess.open());
        assertThat(send(get(web, "/api/runs")).statusCode()).isEqualTo(503);
        HttpResponse<String> session = send(get(web, "/api/session").POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(session.statusCode()).isEqualTo(204);
        assertThat(session.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void beyondLoopbackATokenIsRequiredUnlessNoneIsSaid() {
        assertThat(WebAccess.forBind("127.0.0.1", null, null).required()).isFalse();
        assertThat(WebAccess.forBind("127.3.4.5", "", "token").required()).isFalse();
        assertThat(WebAccess.forBind("::1", null, null).required()).isFalse();
        assertThat(WebAccess.forBind("localhost", null, null).required()).isFalse();
        assertThat(WebAccess.forBind("127.0.0.1", TOKEN, null).required()).isTrue();
        assertThat(WebAccess.forBind("0.0.0.0", TOKEN, "token").required()).isTrue();
        for (String bind : List.of("0.0.0.0", "::", "10.1.2.3", "192.168.0.7")) {
            assertThatThrownBy(() -> WebAccess.forBind(bind, null, null)).as(bind)
                    .hasMessageContaining("--web-token").hasMessageContaining("MMGR_WEB_TOKEN").hasMessageContaining("--web-auth none");
            assertThat(WebAccess.forBind(bind, null, "none").required()).as("said explicitly").isFalse();
        }
        assertThatThrownBy(() -> WebAccess.forBind("0.0.0.0", TOKEN, "none")).hasMessageContaining("contradict")
                .hasMessageNotContaining(TOKEN);
        assertThatThrownBy(() -> WebAccess.forBind("0.0.0.0", "short", null)).hasMessageContaining("at least 16")
                .hasMessageNotContaining("short");
        assertThatThrownBy(() -> WebAccess.forBind("0.0.0.0", "has a space in it, sadly", null)).hasMessageContaining("printable")
                .hasMessageNotContaining("sadly");
        assertThatThrownBy(() -> WebAccess.forBind("0.0.0.0", TOKEN, "basic")).hasMessageContaining("'token' or 'none'");
        assertThat(WebAccess.token(TOKEN).toString()).doesNotContain(TOKEN);
    }

    @Test
    void instancesGatheringFromEachOtherSendTheToken() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        WebAccess access = WebAccess.token(TOKEN);
        peer.createContext("/", HttpExchanges.guarded(access, ex -> {
            seen.add(ex.getRequestHeaders().getFirst("Authorization"));
            HttpExchanges.json(ex, 200, Json.MAPPER.createArrayNode().add("theirs"));
        }));
        peer.start();
        open.add(() -> peer.stop(0));
        HostInfo them = new HostInfo("127.0.0.1", peer.getAddress().getPort());
        HostInfo self = new HostInfo("127.0.0.1", 1);

        assertThat(new Cluster(null, self, access).get(them, "/api/leaderboard?scope=local").get(0).asText()).isEqualTo("theirs");
        assertThat(seen).containsExactly("Bearer " + TOKEN);

        // an instance with another token is refused, and says what to fix without either token
        WebAccess wrong = WebAccess.token("another-token-entirely-0000");
        assertThatThrownBy(() -> new Cluster(null, self, wrong).get(them, "/api/leaderboard?scope=local"))
                .isInstanceOf(Cluster.Unavailable.class).hasMessageContaining("same --web-token")
                .hasMessageNotContaining(TOKEN).hasMessageNotContaining("another-token");
        // an unreachable one: which instance, not the exception's text
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        assertThatThrownBy(() -> new Cluster(null, self, access).get(new HostInfo("127.0.0.1", closed), "/api/runs"))
                .isInstanceOf(Cluster.Unavailable.class).hasMessage("instance 127.0.0.1:" + closed + " is unreachable; retry");
    }

    @Test
    void theJudgeWorkersMetricsTakeTheSameToken() throws Exception {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        meters.counter("mmgr_probe_total").increment();
        MetricsServer m = MetricsServer.start("127.0.0.1", 0, meters, WebAccess.token(TOKEN));
        open.add(m);
        HttpRequest.Builder scrape = HttpRequest.newBuilder(URI.create(m.url()));
        assertThat(send(scrape).statusCode()).isEqualTo(401);
        HttpResponse<String> ok = send(HttpRequest.newBuilder(URI.create(m.url())).header("Authorization", "Bearer " + TOKEN));
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).contains("mmgr_probe_total");
    }
}
