package io.mmgr.stream.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Headless Chromium (Debian's package) driven over the Chrome DevTools protocol with the JDK's
 * WebSocket client: navigate, evaluate JavaScript, take screenshots. No driver binary, nothing downloaded.
 */
final class Chromium implements AutoCloseable {

    static final List<String> CANDIDATES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final Map<Integer, CompletableFuture<JsonNode>> calls = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();

    /** The browser binary: $CHROMIUM, else Debian's locations. */
    static Optional<Path> find() {
        String env = System.getenv("CHROMIUM");
        if (env != null && Files.isExecutable(Path.of(env))) {
            return Optional.of(Path.of(env));
        }
        return CANDIDATES.stream().map(Path::of).filter(Files::isExecutable).findFirst();
    }

    private Chromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    static Chromium launch(Path binary, int width, int height) throws Exception {
        Path profile = Files.createTempDirectory("mmgr-chromium-");
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--mute-audio", "--autoplay-policy=no-user-gesture-required",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                "--window-size=" + width + "," + height, "about:blank"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile()).start();
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                String log = Files.exists(profile.resolve("chromium.log")) ? Files.readString(profile.resolve("chromium.log")) : "";
                p.destroyForcibly();
                throw new IllegalStateException("chromium did not start its DevTools endpoint: " + log);
            }
            Thread.sleep(100);
        }
        int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
        HttpClient http = HttpClient.newHttpClient();
        String pageWs = null;
        for (int attempt = 0; attempt < 50 && pageWs == null; attempt++) {
            JsonNode targets = MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            for (JsonNode t : targets) {
                if ("page".equals(t.path("type").asText())) {
                    pageWs = t.get("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (pageWs == null) {
                Thread.sleep(100);
            }
        }
        if (pageWs == null) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium has no page target");
        }
        Chromium[] self = new Chromium[1];
        StringBuilder partial = new StringBuilder();
        WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(pageWs), new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    String msg = partial.toString();
                    partial.setLength(0);
                    self[0].onMessage(msg);
                }
                webSocket.request(1);
                return null;
            }
        }).get(10, TimeUnit.SECONDS);
        Chromium c = new Chromium(p, profile, ws);
        self[0] = c;
        c.call("Page.enable", MAPPER.createObjectNode());
        c.call("Emulation.setDeviceMetricsOverride", MAPPER.createObjectNode().put("width", width).put("height", height)
                .put("deviceScaleFactor", 1).put("mobile", false));
        return c;
    }

    private void onMessage(String text) {
        try {
            JsonNode msg = MAPPER.readTree(text);
            if (msg.has("id")) {
                CompletableFuture<JsonNode> f = calls.remove(msg.get("id").asInt());
                if (f != null) {
                    f.complete(msg);
                }
            }
        } catch (IOException e) {
            // not a protocol message
        }
    }

    JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        calls.put(id, f);
        ObjectNode msg = MAPPER.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params);
        socket.sendText(msg.toString(), true).get(10, TimeUnit.SECONDS);
        JsonNode reply = f.get(30, TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new IllegalStateException(method + " failed: " + reply.get("error"));
        }
        return reply.get("result");
    }

    void navigate(String url) throws Exception {
        call("Page.navigate", MAPPER.createObjectNode().put("url", url));
    }

    /** The value of a JavaScript expression (promises awaited), as JSON. */
    JsonNode eval(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", MAPPER.createObjectNode().put("expression", expression)
                .put("returnByValue", true).put("awaitPromise", true));
        if (r.has("exceptionDetails")) {
            throw new IllegalStateException("page script failed: " + r.get("exceptionDetails"));
        }
        return r.path("result").path("value");
    }

    /** Polls an expression until it is truthy; returns its last value. */
    JsonNode await(String expression, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode v = null;
        while (System.nanoTime() < deadline) {
            v = eval(expression);
            if (v != null && !v.isMissingNode() && !v.isNull() && !(v.isBoolean() && !v.asBoolean())
                    && !(v.isNumber() && v.asDouble() == 0)) {
                return v;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("timed out waiting for " + what + " (" + expression + "); last value " + v);
    }

    void screenshot(Path file) throws Exception {
        JsonNode r = call("Page.captureScreenshot", MAPPER.createObjectNode().put("format", "png"));
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(r.get("data").asText()));
    }

    /** The page printed to PDF (A4, backgrounds on), as headless Chromium's print-to-pdf does. */
    void printToPdf(Path file) throws Exception {
        JsonNode r = call("Page.printToPDF", MAPPER.createObjectNode().put("printBackground", true)
                .put("paperWidth", 8.27).put("paperHeight", 11.69));
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(r.get("data").asText()));
    }

    @Override
    public void close() {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(2, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // the browser goes away below anyway
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var paths = Files.walk(profile)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary profile
        }
    }
}
