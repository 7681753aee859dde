package io.mmgr.stream.embedded;

import io.mmgr.stream.embedded.registry.RegistryServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * The embedded default's infrastructure: a KRaft broker and a schema registry on loopback, data kept in one
 * directory. It knows nothing of the scorer (the lab's {@code demo.EmbeddedLocalStack} hands it to {@code run},
 * with the hanging-transaction sweep a lone broker needs beside the scorer).
 */
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
        Starting starting = startInBackground(dataDir, brokerPort, registryPort, step -> { });
        try {
            return starting.ready().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /**
     * Starts the broker on another thread and the registry on this one (it needs nothing from the
     * broker), and returns once the registry listens: the addresses are known, the broker may still be
     * starting ({@link Starting#ready()}), so the scorer can prepare itself meanwhile.
     *
     * @param marks told "registry", then "broker", as each is ready (a start-up timeline's marks)
     */
    public static Starting startInBackground(Path dataDir, int brokerPort, int registryPort, Consumer<String> marks) {
        EmbeddedKafka.Starting broker = EmbeddedKafka.startInBackground(dataDir.resolve("broker"), brokerPort);
        RegistryServer registry;
        try {
            registry = startRegistry(dataDir, registryPort);
        } catch (RuntimeException e) {
            broker.ready().thenAccept(EmbeddedKafka::close);
            throw e;
        }
        marks.accept("registry");
        CompletableFuture<EmbeddedStack> up = broker.ready().handle((kafka, failure) -> {
            if (failure != null) {
                registry.close();
                throw failure instanceof CompletionException c ? c : new CompletionException(failure);
            }
            marks.accept("broker");
            return new EmbeddedStack(kafka, registry);
        });
        return new Starting(broker.bootstrapServers(), registry.url(), up);
    }

    /** The embedded stack being started: where it listens (known at once) and when the broker is up. */
    public record Starting(String bootstrapServers, String registryUrl, CompletableFuture<EmbeddedStack> ready) {
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
