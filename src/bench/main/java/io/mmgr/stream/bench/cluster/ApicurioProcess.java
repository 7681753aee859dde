package io.mmgr.stream.bench.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Apicurio Registry (the standalone Quarkus build the pom unpacks into target/apicurio) run as a
 * child JVM on a free loopback port, in-memory storage. Used as the third-party
 * Confluent-compatible registry through its {@code /apis/ccompat/v7} API: by the registry contract
 * tests, and as the cluster harness's registry ({@link ClusterHarness}).
 *
 * <p>Always killed: by {@link #close()}, and by a JVM shutdown hook should the test JVM end first.
 */
public final class ApicurioProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final Process process;
    private final Thread killer;
    private final int port;
    private final Path log;
    private long startMillis;

    private ApicurioProcess(Process process, Thread killer, int port, Path log) {
        this.process = process;
        this.killer = killer;
        this.port = port;
        this.log = log;
    }

    /** From {@code apicurio.home} (the build sets it for tests), else {@code target/apicurio}; logs beside it. */
    public static ApicurioProcess start() throws IOException, InterruptedException {
        Path home = Paths.get(System.getProperty("apicurio.home", "target/apicurio"));
        return start(home, null);
    }

    /**
     * @param home where the build unpacked Apicurio
     * @param log  its console log, or null for {@code apicurio-<port>.log} beside {@code home}
     */
    public static ApicurioProcess start(Path home, Path log) throws IOException, InterruptedException {
        return start(home, log, READY_TIMEOUT);
    }

    /**
     * The same, waiting up to {@code timeout} for it to answer ready: started beside three Kafka nodes on a loaded
     * machine it took over 90 s.
     */
    public static ApicurioProcess start(Path home, Path log, Duration timeout) throws IOException, InterruptedException {
        Path runner;
        try (Stream<Path> files = Files.list(home)) {
            runner = files.filter(p -> p.getFileName().toString().matches("apicurio-registry-app-.*-runner\\.jar"))
                    .findFirst().orElseThrow(() -> new IOException("no apicurio-registry-app-*-runner.jar in " + home));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(home + " is missing: run the build (mvn test) so it unpacks Apicurio", e);
        }
        int port = freeLoopbackPort();
        if (log == null) {
            log = home.resolveSibling("apicurio-" + port + ".log");
        }
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port,
                // pinned, though they are the defaults: in-memory H2 storage (no Kafka), no OIDC tenant
                // (its server would be remote), no basic-auth token exchange; event sinks stay unset
                "-Dapicurio.storage.kind=sql",
                "-Dapicurio.storage.sql.kind=h2",
                "-Dquarkus.oidc.tenant-enabled=false",
                "-Dapicurio.authn.basic-client-credentials.enabled=false",
                "-Dquarkus.http.access-log.enabled=false",
                "-Dquarkus.log.level=WARN",
                "-Dquarkus.log.category.\"io.apicurio\".level=WARN",
                "-Djava.net.preferIPv4Stack=true",
                "-jar", runner.toString()));
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Thread killer = new Thread(process::destroyForcibly, "apicurio-killer");
        Runtime.getRuntime().addShutdownHook(killer);
        ApicurioProcess apicurio = new ApicurioProcess(process, killer, port, log);
        try {
            apicurio.awaitReady(timeout);
        } catch (IOException | InterruptedException | RuntimeException e) {
            apicurio.close();
            throw e;
        }
        apicurio.startMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        System.out.println("Apicurio Registry ready on port " + port + " after " + apicurio.startMillis + " ms");
        return apicurio;
    }

    /** The Confluent-compatible API root. */
    public String ccompatUrl() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    public long startMillis() {
        return startMillis;
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("Apicurio exited with " + process.exitValue() + " before it was ready:\n" + tail());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IOException("Apicurio not ready after " + timeout.toSeconds() + " s:\n" + tail());
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
