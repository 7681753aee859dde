package io.mmgr.stream.app;

import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.registry.RegistryServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

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
        EmbeddedKafka kafka = EmbeddedKafka.start(dataDir.resolve("broker"), brokerPort);
        try {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            RegistryServer registry;
            try {
                registry = RegistryServer.start(new InetSocketAddress(loopback, registryPort), dataDir.resolve("registry"));
            } catch (java.net.BindException e) {
                registry = RegistryServer.start(new InetSocketAddress(loopback, 0), dataDir.resolve("registry"));
            }
            return new EmbeddedStack(kafka, registry);
        } catch (IOException e) {
            kafka.close();
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
