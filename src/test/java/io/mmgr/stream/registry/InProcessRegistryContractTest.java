package io.mmgr.stream.registry;

import io.mmgr.stream.embedded.registry.RegistryServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** The registry contract against our own {@link RegistryServer}. */
@Tag("unit")
class InProcessRegistryContractTest extends RegistryContractTest {

    private static RegistryServer server;

    @BeforeAll
    static void startRegistry() throws IOException {
        server = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
    }

    @AfterAll
    static void stopRegistry() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    String registryUrl() {
        return server.url();
    }
}
