package io.mmgr.stream.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A registry that requires HTTP basic auth: a loopback proxy in front of our registry that answers
 * 401 without the right credentials and forwards everything else. It counts both kinds of request,
 * so a test can tell that a client really authenticated.
 */
final class RegistryAuthProxy implements AutoCloseable {

    private final HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    final AtomicInteger authorized = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();

    RegistryAuthProxy(String upstream, String user, String password) throws IOException {
        String expected = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", ex -> {
            try (ex) {
                if (!expected.equals(ex.getRequestHeaders().getFirst("Authorization"))) {
                    refused.incrementAndGet();
                    byte[] body = "{\"error_code\":40101,\"message\":\"Unauthorized\"}".getBytes(StandardCharsets.UTF_8);
                    ex.getResponseHeaders().add("Content-Type", "application/json");
                    ex.sendResponseHeaders(401, body.length);
                    ex.getResponseBody().write(body);
                    return;
                }
                authorized.incrementAndGet();
                byte[] in = ex.getRequestBody().readAllBytes();
                HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(upstream + ex.getRequestURI()))
                        .method(ex.getRequestMethod(), in.length == 0 ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(in));
                String type = ex.getRequestHeaders().getFirst("Content-Type");
                if (type != null) {
                    req.header("Content-Type", type);
                }
                HttpResponse<byte[]> resp = http.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
                resp.headers().firstValue("Content-Type").ifPresent(t -> ex.getResponseHeaders().add("Content-Type", t));
                ex.sendResponseHeaders(resp.statusCode(), resp.body().length == 0 ? -1 : resp.body().length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(resp.body());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
    }

    /** The proxy's URL, optionally with user-info. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    String url(String user, String password) {
        return "http://" + user + ":" + password + "@127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
