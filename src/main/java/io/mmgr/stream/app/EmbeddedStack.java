package io.mmgr.stream.app;

import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.registry.RegistryServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** The embedded default's infrastructure: a KRaft broker and a schema registry on loopback, data kept in one directory. */
public final class EmbeddedStack implements AutoCloseable {

    private final EmbeddedKafka kafka;
    private final RegistryServer registry;

    private EmbeddedStack(EmbeddedKafka kafka, RegistryServer registry) {
        this.kafka = kafka;
        this.registry = registry;
    }

    /**
     * @param brokerPort   client port wanted on first start (0: any free port); later starts reuse the first choice
     * @param registryPort registry port wanted (0: any free port); a busy port falls back to a free one
     */
    public static EmbeddedStack start(Path dataDir, int brokerPort, int registryPort) {
        return start(dataDir, brokerPort, registryPort, StartupTimeline.sinceJvmStart());
    }

    /**
     * The same, recording on {@code timeline} when the broker and the registry were ready. The registry
     * needs nothing from the broker, so it starts on another thread meanwhile.
     */
    public static EmbeddedStack start(Path dataDir, int brokerPort, int registryPort, StartupTimeline timeline) {
        CompletableFuture<RegistryServer> registry = CompletableFuture.supplyAsync(() -> {
            RegistryServer r = startRegistry(dataDir, registryPort);
            timeline.mark("registry");
            return r;
        }, runnable -> {
            Thread t = new Thread(runnable, "mmgr-registry-start");
            t.setDaemon(true);
            t.start();
        });
        EmbeddedKafka kafka;
        try {
            kafka = EmbeddedKafka.start(dataDir.resolve("broker"), brokerPort);
        } catch (RuntimeException e) {
            registry.thenAccept(RegistryServer::close);
            throw e;
        }
        timeline.mark("broker");
        try {
            return new EmbeddedStack(kafka, registry.join());
        } catch (CompletionException e) {
            kafka.close();
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private static RegistryServer startRegistry(Path dataDir, int registryPort) {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try {
            try {
                return RegistryServer.start(new InetSocketAddress(loopback, registryPort), dataDir.resolve("registry"));
            } catch (java.net.BindException e) {
                return RegistryServer.start(new InetSocketAddress(loopback, 0), dataDir.resolve("registry"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded schema registry", e);
        }
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public String registryUrl() {
        return registry.url();
    }

    public EmbeddedKafka kafka() {
        return kafka;
    }

    @Override
    public void close() {
        registry.close();
        kafka.close();
    }
}
